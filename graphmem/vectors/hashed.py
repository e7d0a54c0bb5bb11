"""A cheap, deterministic embedder for benchmarks at sizes MiniLM is too slow for.

Feature hashing: each lower-cased word and each pair of adjacent words adds ±1 to one
of ``dim`` dimensions, the dimension and the sign both taken from one 64-bit BLAKE2b
digest of the feature, and the sum is L2-normalised. It captures word overlap, not
meaning: two paraphrases with no word in common land far apart. ``graphmem bench
scale`` uses it above 100k beliefs, where a million statements would take MiniLM over
an hour on two cores (about 140 texts/s here), and says in its output which embedder
ran. Nothing else uses it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from hashlib import blake2b
from itertools import pairwise

import numpy as np

from graphmem.vectors.protocol import Vectors

HASHED_DIM = 384
"""MiniLM's dimension, so FAISS memory and search cost match the real model's."""
_WORD = re.compile(r"[a-z0-9]+")
_SIGN_BIT = 1 << 40
"""The digest bit that gives the sign: far from the bits the dimension is taken from."""
_EMPTY = b"\x00empty"
"""The one feature of a text without words, so every row has unit length."""


class HashedEmbedder:
    """Word and word-pair feature hashing (see the module docstring)."""

    model_id = f"hashed-words-{HASHED_DIM}-v1"
    dim = HASHED_DIM

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Returns one L2-normalised float32 row per text."""
        rows = np.zeros((len(texts), HASHED_DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            features = [word.encode() for word in words]
            features += [f"{a} {b}".encode() for a, b in pairwise(words)]
            for feature in features or [_EMPTY]:
                digest = int.from_bytes(blake2b(feature, digest_size=8).digest(), "little")
                rows[row, digest % HASHED_DIM] += 1.0 if digest & _SIGN_BIT else -1.0
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        # A text whose features cancel out exactly is the one zero row: give it the
        # empty text's vector rather than divide by zero.
        for zero in np.flatnonzero(norms[:, 0] == 0):
            rows[zero] = self.embed([""])[0]
            norms[zero] = 1.0
        result: Vectors = rows / norms
        return result
