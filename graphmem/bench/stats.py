"""The statistics every benchmark reports."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path


def percentile(values: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile of ``values`` (which must not be empty)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(percent / 100 * len(ordered)) - 1))]


def rss_mb(field: str = "VmRSS") -> float | None:
    """This process's resident memory now (``VmRSS``) or at its peak (``VmHWM``), in MB.

    Linux only (None elsewhere). The peak is read here, not from ``getrusage``: a
    process started by another inherits that one's peak across ``exec``.
    """
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None
