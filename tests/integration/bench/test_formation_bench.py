"""The formation benchmark end to end on a short stream (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.bench.formation import run_formation_bench
from graphmem.settings import ConnectionSettings


def test_repeated_facts_do_not_pile_up(
    neo4j_settings: ConnectionSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", neo4j_settings.uri)
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", neo4j_settings.password)
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "data"))
    figures = run_formation_bench(sessions=12, per_session=10)
    counts = figures["live_beliefs_per_session"]
    assert len(counts) == 12 and counts == sorted(counts)
    assert figures["live_beliefs"] < figures["observations"] / 2  # repeats reinforce
    assert figures["live_beliefs"] <= 3 * figures["facts_seen"]  # at most one per phrasing
    assert figures["wrong_merges"] == 0
