"""The statistics every benchmark reports."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile of ``values`` (which must not be empty)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(percent / 100 * len(ordered)) - 1))]
