"""A benchmark's scratch principal leaves nothing behind (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.scratch import scratch_memory
from graphmem.vectors.hashed import HashedEmbedder
from tests.integration.conftest import Graph


def test_nothing_of_the_scratch_principal_outlives_it(bench_env: Path, graph: Graph) -> None:
    with scratch_memory(HashedEmbedder()) as memory:
        principal = memory.principal
        memory.remember({"project": "billing", "title": "Talked to Caroline about Zanzibar"})
        memory.believe_many(  # one entity and one project that every belief links to
            [
                {
                    "statement": f"Caroline owns Zanzibar job {n}",
                    "project": "billing",
                    "type": "fact",
                }
                for n in range(50)
            ]
        )
        for n in range(5):  # their traces are written in the background
            memory.recall(f"Zanzibar job {n}", k=3)
        assert graph.count(principal, "Entity") > 0
    left = graph.query(
        "MATCH (n) WHERE n.principal = $p OR (n:Principal AND n.id = $p) "
        "RETURN labels(n)[0] AS label, count(*) AS nodes",
        p=principal,
    )
    assert left == []
    assert not any((bench_env / "views").glob("*/belief-*"))
