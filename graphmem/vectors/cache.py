"""An embedding cache keyed by (model id, sha256 of the text), least recently used out."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from graphmem.vectors.protocol import Embedder, Vectors


class CachedEmbedder:
    """Wraps an embedder; texts seen before are not embedded again."""

    def __init__(self, inner: Embedder, max_entries: int = 50_000) -> None:
        self.inner = inner
        self.max_entries = max_entries
        self._vectors: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """The wrapped embedder's model id."""
        return self.inner.model_id

    @property
    def dim(self) -> int:
        """The wrapped embedder's dimension."""
        return self.inner.dim

    def discard(self, texts: Sequence[str]) -> None:
        """Drops the cached vectors of ``texts`` (a forgotten statement leaves no trace)."""
        with self._lock:
            for text in texts:
                self._vectors.pop(self._key(text), None)

    def __contains__(self, text: object) -> bool:
        """Whether a vector for ``text`` is cached."""
        with self._lock:
            return isinstance(text, str) and self._key(text) in self._vectors

    def _key(self, text: str) -> tuple[str, str]:
        return (self.inner.model_id, hashlib.sha256(text.encode()).hexdigest())

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Returns the vectors, embedding only texts not in the cache (once each).

        Safe to call from several threads: the bookkeeping is locked, the embedding is
        not (two threads may embed the same new text once each).
        """
        keys = [self._key(text) for text in texts]
        with self._lock:
            known = {key: self._vectors[key] for key in keys if key in self._vectors}
        missing = list(dict.fromkeys(key for key in keys if key not in known))
        if missing:
            first_text = {key: text for key, text in zip(keys, texts, strict=True)}
            fresh = self.inner.embed([first_text[key] for key in missing])
            known.update(zip(missing, fresh, strict=True))
        with self._lock:
            self.misses += len(missing)
            self.hits += len(keys) - len(missing)
            for key in missing:
                self._vectors[key] = known[key]
            for key in keys:  # a hit discarded meanwhile (forgotten) stays out
                if key in self._vectors:
                    self._vectors.move_to_end(key)
            while len(self._vectors) > self.max_entries:
                self._vectors.popitem(last=False)
        if not keys:
            return np.zeros((0, self.inner.dim), dtype=np.float32)
        return np.stack([known[key] for key in keys]).astype(np.float32, copy=False)
