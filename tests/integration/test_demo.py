"""The demo scenario: provenance, one supersession, and idempotent re-runs."""

from __future__ import annotations

from pathlib import Path

from graphmem import GraphMem
from graphmem.demo import run_demo
from tests.integration.conftest import Graph


def test_demo_writes_the_scenario_and_a_rerun_changes_nothing(
    memory: GraphMem, graph: Graph, tmp_path: Path
) -> None:
    lines: list[str] = []
    first = run_demo(memory, lines.append, tmp_path)
    assert first.anchor_states == ["verified", "drifted"]
    nodes = graph.query("MATCH (n {principal: $p}) RETURN count(n) AS c", p=memory.principal)
    second = run_demo(memory, lambda line: None, tmp_path)
    assert first == second
    again = graph.query("MATCH (n {principal: $p}) RETURN count(n) AS c", p=memory.principal)
    assert nodes == again

    chain = memory.history(first.beliefs["rounding_v2"])
    assert [entry.belief.id for entry in chain] == [
        first.beliefs["rounding"],
        first.beliefs["rounding_v2"],
    ]
    projects = {b.project for b in memory.list_beliefs()}
    assert projects == {"billing-api", "checkout-web"}
    assert memory.get_episode(first.episodes["ci_run"]).parent == first.episodes["flaky"]
    assert any("superseded" in line for line in lines)
    cents = memory.get_belief(first.beliefs["cents"])
    assert cents.scope == "principal" and cents.origins == ["billing-api", "checkout-web"]
