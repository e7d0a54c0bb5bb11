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
    # Memory, that is: a re-run writes the sample code again and edits it again, and
    # the anchor changes those two index runs see are logged as what they are.
    count = (
        "MATCH (n {principal: $p}) WHERE NOT (n:MemoryEvent AND n.type = 'anchor.changed') "
        "RETURN count(n) AS c"
    )
    nodes = graph.query(count, p=memory.principal)
    drifts = memory.changes(0, kinds=["anchor"])
    assert [(c.anchor_from, c.anchor_to) for c in drifts] == [("verified", "drifted")]
    second = run_demo(memory, lambda line: None, tmp_path)
    assert first == second
    assert graph.query(count, p=memory.principal) == nodes
    redrifts = memory.changes(drifts[-1].seq, kinds=["anchor"])
    assert [(c.anchor_from, c.anchor_to) for c in redrifts] == [
        ("drifted", "verified"),  # the sample written afresh
        ("verified", "drifted"),  # and edited again
    ]
    assert [b.id for b in memory.list_beliefs(anchor_state="drifted")] == [
        first.beliefs["anchored"]
    ]

    chain = memory.history(first.beliefs["rounding_v2"])
    assert [entry.belief.id for entry in chain] == [
        first.beliefs["rounding"],
        first.beliefs["rounding_v2"],
    ]
    projects = {b.project for b in memory.list_beliefs()}  # every project
    assert projects == {"billing-api", "checkout-web"}
    assert memory.get_episode(first.episodes["ci_run"]).parent == first.episodes["flaky"]
    assert any("superseded" in line for line in lines)
    cents = memory.get_belief(first.beliefs["cents"])
    assert cents.scope == "principal" and cents.origins == ["billing-api", "checkout-web"]
