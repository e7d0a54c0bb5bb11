"""The embedding cache: keyed by (model id, text hash), least recently used out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.protocol import Vectors


class CountingEmbedder:
    """A deterministic stand-in that records what it was asked to embed."""

    model_id = "counting"
    dim = 4

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        rows = [[len(t), sum(map(ord, t)) % 7, 1.0, 0.0] for t in texts]
        array = np.array(rows, dtype=np.float32).reshape(len(texts), 4)
        return array / np.linalg.norm(array, axis=1, keepdims=True)


def test_each_text_is_embedded_once_and_order_is_kept() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=10)
    first = cached.embed(["a", "bb", "a"])
    assert inner.calls == [["a", "bb"]]
    second = cached.embed(["bb", "ccc"])
    assert inner.calls[-1] == ["ccc"]
    assert np.array_equal(first[1], second[0]) and np.array_equal(first[0], first[2])
    assert (cached.hits, cached.misses) == (2, 3)


def test_least_recently_used_is_evicted() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=2)
    cached.embed(["a", "b"])
    cached.embed(["a"])  # a is now the most recent
    cached.embed(["c"])  # evicts b
    cached.embed(["a", "b"])
    assert inner.calls[-1] == ["b"]
