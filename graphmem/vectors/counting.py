"""An embedder that counts what it embeds: its texts and their CPU (benchmarks, tests)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from graphmem.vectors.protocol import Embedder, Vectors


class CountingEmbedder:
    """Embeds with ``inner``, counting the texts and the CPU time the calls take.

    The texts are how a view proves it embedded none; the CPU is how ``bench agents``
    says what embedding cost an operation. Each call counts its own thread's CPU time
    (``time.thread_time``): onnxruntime runs one text on the calling thread, so a
    recall's query and a single write are counted whole, and a batch spread over more
    intra-op threads in part. Safe to call from several threads.
    """

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._lock = threading.Lock()
        self.texts = 0
        """How many texts were embedded through it."""
        self.cpu_seconds = 0.0
        """CPU seconds its calls took, on every thread together."""

    @property
    def model_id(self) -> str:
        """The inner embedder's model."""
        return self._inner.model_id

    @property
    def dim(self) -> int:
        """The inner embedder's dimension."""
        return self._inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        """The inner embedder's vectors, counted."""
        started = time.thread_time()
        try:
            return self._inner.embed(texts)
        finally:
            spent = time.thread_time() - started
            with self._lock:
                self.texts += len(texts)
                self.cpu_seconds += spent
