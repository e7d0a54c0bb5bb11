"""Memory-side structure: beliefs LEARNED_IN their projects, projects BELONGS_TO their
principal; indexing code never touches it (rule 1); migration 009 links old data."""

from __future__ import annotations

from pathlib import Path

from graphmem import GraphMem
from graphmem.demo import run_demo
from graphmem.store.cypher import split_statements
from graphmem.store.database import Database
from graphmem.store.migrations import available_migrations
from tests.integration.conftest import Graph

LINKS = """
MATCH (b:Belief {principal: $p})-[:LEARNED_IN]->(project:Project)-[:BELONGS_TO]->(owner)
RETURN b.id AS id, collect(project.name) AS projects, collect(DISTINCT owner.id) AS owners
"""
MEMORY_SIDE = """
MATCH (n) WHERE n.principal = $p OR n:Principal AND n.id = $p
WITH n WHERE n:Belief OR n:Episode OR n:Project OR n:Principal
OPTIONAL MATCH (n)-[r]-()
WHERE type(r) IN ['LEARNED_IN', 'BELONGS_TO', 'IN_PROJECT', 'DERIVED_FROM', 'SUPERSEDES']
RETURN n.id AS id, n.name AS name, properties(n) AS props, count(r) AS links
ORDER BY id, name
"""


def test_every_origin_is_linked_and_every_project_has_its_principal(
    memory: GraphMem, graph: Graph, tmp_path: Path
) -> None:
    run_demo(memory, lambda line: None, tmp_path / "billing-api")
    linked = {row["id"]: row for row in graph.query(LINKS, p=memory.principal)}
    beliefs = memory.list_beliefs(include_superseded=True)
    assert beliefs and set(linked) == {b.id for b in beliefs}
    for belief in beliefs:
        assert sorted(linked[belief.id]["projects"]) == sorted(belief.origins)
        assert linked[belief.id]["owners"] == [memory.principal]
    unowned = graph.query(
        "MATCH (p:Project {principal: $p}) WHERE NOT (p)-[:BELONGS_TO]->(:Principal {id: $p}) "
        "RETURN count(p) AS c",
        p=memory.principal,
    )
    assert unowned == [{"c": 0}]


def test_indexing_code_never_touches_the_memory_side(
    memory: GraphMem, graph: Graph, tmp_path: Path
) -> None:
    workdir = tmp_path / "billing-api"
    run_demo(memory, lambda line: None, workdir)
    before = graph.query(MEMORY_SIDE, p=memory.principal)
    memory.index_code(workdir, "billing-api", rebuild=True)
    memory.index_code(workdir, "checkout-web")
    assert graph.query(MEMORY_SIDE, p=memory.principal) == before


def test_migration_009_links_beliefs_written_before_it(
    memory: GraphMem, graph: Graph, database: Database
) -> None:
    ids = [
        memory.believe("Old belief", project="alpha", type="fact"),
        memory.believe("Older belief", project="beta", type="fact"),
    ]
    graph.query(  # as graphmem 0.x wrote them: no links
        "MATCH (b:Belief {principal: $p})-[r:LEARNED_IN]->() DELETE r", p=memory.principal
    )
    graph.query("MATCH (:Project {principal: $p})-[r:BELONGS_TO]->() DELETE r", p=memory.principal)
    (migration,) = [m for m in available_migrations() if m.id == "009"]
    for statement in split_statements(migration.text):
        database.run_autocommit(statement)
    linked = {row["id"]: row["projects"] for row in graph.query(LINKS, p=memory.principal)}
    assert linked == {ids[0]: ["alpha"], ids[1]: ["beta"]}
