"""The Embedder protocol every embedder implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def model_id(self) -> str:
        """Names the model; cached vectors and indexes are keyed by it."""
        ...

    @property
    def dim(self) -> int:
        """The vector dimension."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Returns one L2-normalised row per text (shape ``[len(texts), dim]``)."""
        ...
