"""The counting embedder: the inner vectors, counted in texts and in CPU time."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np

from graphmem.vectors.counting import CountingEmbedder
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.protocol import Vectors


class _Busy:
    """An embedder whose every call takes 20 ms of its thread's CPU."""

    model_id = "busy"
    dim = 2

    def embed(self, texts: Sequence[str]) -> Vectors:
        until = time.thread_time() + 0.02
        while time.thread_time() < until:
            pass
        return np.ones((len(texts), 2), dtype=np.float32)


def test_it_returns_the_inner_vectors_and_names_and_counts_the_texts() -> None:
    inner = HashedEmbedder()
    counting = CountingEmbedder(inner)
    texts = ["the cache keys break", "deploys happen on Tuesdays"]
    assert np.array_equal(counting.embed(texts), inner.embed(texts))
    assert (counting.model_id, counting.dim) == (inner.model_id, inner.dim)
    assert counting.texts == 2


def test_it_adds_up_the_cpu_of_every_thread() -> None:
    counting = CountingEmbedder(_Busy())
    assert counting.cpu_seconds == 0.0
    threads = [threading.Thread(target=counting.embed, args=(["x"],)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counting.embed(["y", "z"])
    assert counting.texts == 5
    assert 0.08 <= counting.cpu_seconds < 0.5  # four calls of 20 ms each, and a little
