"""``graphmem bench anchors``: cold and warm indexing of a source tree into Neo4j."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphmem.bench.scratch import scratch_memory


def run_anchor_bench(root: Path, project: str, workers: int | None = None) -> dict[str, Any]:
    """Indexes ``root`` twice under a scratch principal: cold, then unchanged (warm).

    Returns:
        ``{"cold": {"seconds", "files_per_s", "symbols_per_s"}, "warm": {"seconds",
        "writes"}}`` plus the counts behind them.
    """
    with scratch_memory() as memory:
        cold = memory.index_code(root, project, workers=workers)
        warm = memory.index_code(root, project, workers=workers)
    return {
        "cold": {
            "seconds": cold.seconds,
            "files_per_s": round(cold.files_seen / cold.seconds, 1),
            "symbols_per_s": round(cold.symbols_added / cold.seconds, 1),
        },
        "warm": {"seconds": warm.seconds, "writes": warm.writes},
        "files": cold.files_seen,
        "files_failed": len(cold.failed),
        "symbols": cold.symbols_added,
        "workers": workers,
    }
