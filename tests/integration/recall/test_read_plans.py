"""The newest-first reads stop early: Neo4j reads them in index order, never sorts.

A plan that sorts reads every one of the principal's nodes on each call (at 105k
beliefs the snapshot read 618k db hits to keep 2,000), so these reads must keep an
ORDER BY that an index serves. This checks the plans, not timings.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphmem import GraphMem
from graphmem.store.cypher import cypher
from graphmem.trust.sensitivity import Sensitivity, levels_up_to
from tests.integration.conftest import Graph


def _operators(plan: dict[str, Any]) -> list[str]:
    return [str(plan["operatorType"]).split("@")[0]] + [
        name for child in plan.get("children", []) for name in _operators(child)
    ]


def _plan(graph: Graph, name: str, **params: Any) -> list[str]:
    with graph.driver.session(database="neo4j") as session:
        summary = session.run(f"EXPLAIN {cypher(name)}", params).consume()
    assert summary.plan is not None
    return _operators(summary.plan)


def test_newest_seq_and_the_snapshot_read_in_index_order(memory: GraphMem, graph: Graph) -> None:
    memory.believe_many(
        [
            {"statement": f"Fact {n} about billing", "project": "billing", "type": "fact"}
            for n in range(30)
        ]
    )
    newest = _plan(graph, "recall/newest_seq", principal=memory.principal, as_of=None)
    snapshot = _plan(
        graph,
        "recall/snapshot_candidates",
        principal=memory.principal,
        project="billing",
        now=datetime.now(UTC),
        limit=10,
        levels=levels_up_to(Sensitivity.CONFIDENTIAL),
    )
    for operators in (newest, snapshot):
        assert "NodeIndexSeek" in operators
        assert not {"Sort", "Top", "PartialSort", "PartialTop"} & set(operators), operators
