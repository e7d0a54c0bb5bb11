"""Window vectors packed for storing with their item, and the writer's encoder.

A writer embeds what it writes once (:func:`encoder`), in the windows a view would
cut (:mod:`graphmem.vectors.windows`), and stores them with the item
(:mod:`graphmem.store.embeddings`); every view, in every process, then reads them
instead of embedding the text again (:func:`unpack`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np

from graphmem.store.database import Database
from graphmem.store.embeddings import (
    Encoder,
    StoredVectors,
    count_unembedded,
    save_vectors,
    unembedded,
)
from graphmem.vectors.protocol import Embedder, Vectors
from graphmem.vectors.windows import WINDOW_SLOTS, windows

STORED_DTYPE = np.dtype("<f4")
"""Little-endian float32: the bytes mean the same on every machine."""


def pack(vectors: Vectors) -> bytes:
    """One item's window vectors (rows) as stored bytes."""
    return np.ascontiguousarray(vectors, dtype=STORED_DTYPE).tobytes()


def unpack(stored: StoredVectors, embedder: Embedder) -> Vectors | None:
    """The window vectors of ``stored`` as rows, if ``embedder`` would have made them.

    None when they are another model's, or do not divide into whole vectors of its
    dimension (then the view embeds the text itself).
    """
    width = embedder.dim * STORED_DTYPE.itemsize
    if stored.model != embedder.model_id or not stored.data or len(stored.data) % width:
        return None
    rows = np.frombuffer(stored.data, dtype=STORED_DTYPE).reshape(-1, embedder.dim)
    if len(rows) > WINDOW_SLOTS:
        return None  # more windows than an item's ids hold: not a view's vectors
    return rows.astype(np.float32)  # a writable, native-order copy for FAISS


def embed_items(embedder: Embedder, texts: Sequence[str]) -> list[StoredVectors]:
    """Each text's window vectors, embedded in one call, packed for storing."""
    cut = [windows(text) for text in texts]
    vectors = embedder.embed([part for parts in cut for part in parts])
    stored: list[StoredVectors] = []
    start = 0
    for parts in cut:
        stored.append(StoredVectors(embedder.model_id, pack(vectors[start : start + len(parts)])))
        start += len(parts)
    return stored


def encoder(embedder: Embedder) -> Encoder:
    """The store's encoder for writes that carry their vectors, by ``embedder``."""
    return lambda texts: embed_items(embedder, texts)


REEMBED_BATCH = 256
"""Items embedded and stored per transaction by :func:`reembed`."""


def reembed(
    db: Database,
    principal: str,
    embedder: Embedder,
    batch: int = REEMBED_BATCH,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> dict[str, int]:
    """Embeds and stores every item of the principal without ``embedder``'s vectors.

    The migration after a model change (or for memory written before vectors were
    stored): each batch commits on its own, so a run stopped part way resumes where it
    stopped, and one run after another finds nothing left to do.

    Args:
        db: The store.
        principal: Whose items.
        embedder: The model the vectors must be of.
        batch: Items per transaction.
        progress: Called after each batch with (items done so far, items to do).

    Returns:
        Per surface (``belief``, ``episode``), how many items were embedded.
    """
    todo = count_unembedded(db, principal, embedder.model_id)
    total = sum(todo.values())
    done: dict[str, int] = {}
    finished = 0
    surfaces: tuple[Literal["belief", "episode"], ...] = ("belief", "episode")
    for surface in surfaces:
        done[surface] = 0
        after = 0
        while page := unembedded(db, principal, surface, embedder.model_id, after, batch):
            vectors = embed_items(embedder, [item.text for item in page])
            save_vectors(
                db, principal, [(item.id, v) for item, v in zip(page, vectors, strict=True)]
            )
            after = page[-1].seq
            done[surface] += len(page)
            finished += len(page)
            progress(finished, max(total, finished))
    return done
