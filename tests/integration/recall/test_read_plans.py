"""Reads whose cost must follow what they return, not the principal's size.

The newest-first reads stop early: Neo4j reads them in index order, never sorts (a plan
that sorts read every one of the principal's nodes on each call: at 105k beliefs the
snapshot read 618k db hits to keep 2,000). The candidate read walks out from each
candidate. This checks plans and db hits, not timings.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphmem import GraphMem
from graphmem.recall.arms import ENTITY_REACH
from graphmem.store.cypher import cypher
from graphmem.store.recall import _walk
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
    # Index statistics are sampled, not kept: on a store that just started they say the
    # principal's index holds nothing, and then sorting costs the same as reading in
    # order and the planner may take either. Resample, as Neo4j does as a store grows.
    with graph.driver.session(database="neo4j") as session:
        session.run("CALL db.resampleOutdatedIndexes()").consume()
        session.run("CALL db.awaitIndexes(60)").consume()
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


def _db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(child) for child in plan.get("children", []))


def test_the_candidate_read_walks_out_from_each_candidate(memory: GraphMem, graph: Graph) -> None:
    # A plan that seeks every belief of the principal once per candidate (then expands
    # into it) read 992k db hits for 78 candidates among 2,000 beliefs.
    beliefs = 600
    memory.believe_many(
        [
            {"statement": f"Fact {n} about billing", "project": "billing", "type": "fact"}
            for n in range(beliefs)
        ]
    )
    with graph.driver.session(database="neo4j") as session:
        seqs = session.run(
            "MATCH (b:Belief {principal: $principal}) RETURN b.seq AS seq ORDER BY seq LIMIT 20",
            principal=memory.principal,
        ).value("seq")
        params: dict[str, Any] = {
            **_walk(seqs, seqs[:5], ENTITY_REACH),  # the parameters recall passes
            "principal": memory.principal,
            "per_seed": 12,
            "types": None,
            "as_of": None,
            "now": datetime.now(UTC),
            "project": "billing",
            "levels": levels_up_to(Sensitivity.CONFIDENTIAL),
        }
        summary = session.run(f"PROFILE {cypher('recall/belief_candidates')}", params).consume()
    assert summary.profile is not None
    # About 50 db hits a candidate (its properties and filters), where seeking the
    # principal's beliefs for each one reads at least 20 x 600.
    hits = _db_hits(summary.profile)
    assert 0 < hits < 150 * len(seqs), hits
