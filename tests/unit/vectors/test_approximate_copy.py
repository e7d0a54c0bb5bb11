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
    np.testing.assert_array_equal(copy.index.reconstruct_n(0, copy.ntotal), vectors[kept])
    _, found = copy.search(vectors[kept[0] : kept[0] + 1], 1)
    assert found[0][0] == ids[kept[0]]


def test_an_index_with_everything_removed_copies_to_an_empty_one() -> None:
    exact = _exact_index(4)
    exact.add_with_ids(np.eye(4, dtype=np.float32), np.arange(4, dtype=np.int64))
    assert _approximate_copy(4, exact, removed={0, 1, 2, 3}).ntotal == 0
