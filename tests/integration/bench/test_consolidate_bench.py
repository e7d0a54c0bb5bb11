"""The consolidation benchmark end to end, one round (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.consolidate import run_consolidate_bench


def test_the_largest_episode_is_bounded(bench_env: Path) -> None:
    figures = run_consolidate_bench(rounds=1)
    assert figures["candidates"] == 800
    assert figures["largest_created"] == 10  # a task's cap
    assert figures["largest_created"] + figures["largest_rejected"] == 800
    assert figures["small_s"] > 0 and figures["largest_s"] > 0
