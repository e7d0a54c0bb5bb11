"""The exact-to-HNSW copy: every vector but the removed ones, chunk by chunk."""

from __future__ import annotations

import faiss
import numpy as np
import pytest

from graphmem.vectors import views
from graphmem.vectors.views import _approximate_copy, _exact_index
from graphmem.vectors.windows import WINDOW_SLOTS


def test_copies_every_kept_vector_across_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "RESHAPE_CHUNK", 4)  # 11 vectors: three chunks
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((11, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    seqs = np.arange(100, 111, dtype=np.int64)
    ids = seqs * WINDOW_SLOTS  # each item's first window
    exact = _exact_index(8)
    exact.add_with_ids(vectors, ids)

    copy = _approximate_copy(8, exact, removed={101, 106, 110})

    kept = [i for i in range(11) if seqs[i] not in (101, 106, 110)]
    assert faiss.vector_to_array(copy.id_map).tolist() == ids[kept].tolist()
    # one byte a dimension: within half a step of the range the sample spans
    step = 1.2 * (vectors.max(axis=0) - vectors.min(axis=0)) / 255
    assert (np.abs(copy.index.reconstruct_n(0, copy.ntotal) - vectors[kept]) <= step).all()
    _, found = copy.search(vectors[kept[0] : kept[0] + 1], 1)
    assert found[0][0] == ids[kept[0]]


def test_an_index_with_everything_removed_copies_to_an_empty_one() -> None:
    exact = _exact_index(4)
    exact.add_with_ids(np.eye(4, dtype=np.float32), np.arange(4, dtype=np.int64))
    assert _approximate_copy(4, exact, removed={0, 1, 2, 3}).ntotal == 0


def test_the_quantiser_learns_from_vectors_beyond_the_first_chunk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(views, "RESHAPE_CHUNK", 4)
    vectors = np.zeros((12, 2), dtype=np.float32)
    vectors[:, 0] = 1.0
    vectors[8:] = [[0.0, 1.0], [0.0, -1.0], [0.6, 0.8], [0.6, -0.8]]  # only in the last chunk
    exact = _exact_index(2)
    exact.add_with_ids(vectors, np.arange(12, dtype=np.int64) * WINDOW_SLOTS)

    copy = _approximate_copy(2, exact, removed=set())

    np.testing.assert_allclose(copy.index.reconstruct_n(8, 4), vectors[8:], atol=0.01)


def test_an_empty_copy_still_takes_unit_vectors() -> None:
    copy = _approximate_copy(3, _exact_index(3), removed=set())
    unit = np.array([[0.0, 0.6, -0.8]], dtype=np.float32)
    copy.add_with_ids(unit, np.array([7], dtype=np.int64))
    np.testing.assert_allclose(copy.index.reconstruct_n(0, 1), unit, atol=0.01)
