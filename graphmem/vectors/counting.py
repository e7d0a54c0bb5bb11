"""An embedder that counts the texts it is asked to embed (benchmarks and tests)."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.vectors.protocol import Embedder, Vectors


class CountingEmbedder:
    """Embeds with ``inner`` and counts the texts: how a view proves it embedded none."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.texts = 0
        """How many texts were embedded through it."""

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
        self.texts += len(texts)
        return self._inner.embed(texts)
