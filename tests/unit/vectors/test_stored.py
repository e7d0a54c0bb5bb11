"""Stored vectors: packed as the view would embed them, unpacked only for their model."""

from __future__ import annotations

import numpy as np

from graphmem.store.embeddings import StoredVectors, episode_view_text
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.stored import embed_items, pack, unpack
from graphmem.vectors.windows import windows

LONG = " ".join(f"sentence {i} says the build uses cache layer {i}." for i in range(60))


def test_an_item_is_stored_as_the_windows_a_view_would_embed() -> None:
    embedder = HashedEmbedder()
    short, long = embed_items(embedder, ["Invoices round half-up", LONG])
    assert short.model == long.model == embedder.model_id
    unpacked = unpack(long, embedder)
    assert unpacked is not None
    assert len(windows(LONG)) > 1 and unpacked.shape == (len(windows(LONG)), embedder.dim)
    assert np.array_equal(unpacked, embedder.embed(windows(LONG)))
    one = unpack(short, embedder)
    assert one is not None and np.array_equal(one, embedder.embed(["Invoices round half-up"]))


def test_pack_is_little_endian_float32_and_round_trips() -> None:
    rows = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
    data = pack(rows)
    assert data == rows.astype("<f4").tobytes() and len(data) == 6 * 4


def test_another_models_or_broken_vectors_are_not_used() -> None:
    embedder = HashedEmbedder()
    (stored,) = embed_items(embedder, ["Retries use exponential backoff"])
    assert unpack(StoredVectors("another-model", stored.data), embedder) is None
    assert unpack(StoredVectors(stored.model, stored.data[:-4]), embedder) is None
    assert unpack(StoredVectors(stored.model, b""), embedder) is None


def test_an_episodes_view_text_is_its_title_then_its_text() -> None:
    assert episode_view_text("Fixed the flaky test", "It raced the clock.") == (
        "Fixed the flaky test\nIt raced the clock."
    )
    assert episode_view_text("Only a title", None) == "Only a title"
    assert episode_view_text("Only a title", "") == "Only a title"
