"""The formation benchmark end to end on a short stream (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.formation import run_formation_bench


def test_repeated_facts_do_not_pile_up(bench_env: Path) -> None:
    figures = run_formation_bench(sessions=12, per_session=10)
    counts = figures["live_beliefs_per_session"]
    assert len(counts) == 12 and counts == sorted(counts)
    assert figures["live_beliefs"] < figures["observations"] / 2  # repeats reinforce
    assert figures["live_beliefs"] <= 3 * figures["facts_seen"]  # at most one per phrasing
    assert figures["wrong_merges"] == 0
