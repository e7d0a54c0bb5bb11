"""The entity layer on a real Neo4j: MENTIONS written with the node, one entity per
principal and name, gone with the last text that named it, rebuilt by ``reindex``,
never touched by the code graph (rule 1), and walked by the graph arm."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from graphmem import Admin, GraphMem
from tests.integration.conftest import Graph

MENTIONS = """
MATCH (n)-[:MENTIONS]->(entity:Entity)
WHERE n.principal = $p
RETURN n.id AS id, collect(entity.name) AS names
"""
ENTITIES = """
MATCH (entity:Entity {principal: $p})
RETURN entity.name AS name, entity.kind AS kind,
       COUNT { (entity)<-[:MENTIONS]-() } AS mentions
ORDER BY name
"""


def _mentions(graph: Graph, principal: str) -> dict[str, list[str]]:
    return {row["id"]: sorted(row["names"]) for row in graph.query(MENTIONS, p=principal)}


def _entities(graph: Graph, principal: str) -> dict[str, tuple[str, int]]:
    return {
        row["name"]: (row["kind"], row["mentions"]) for row in graph.query(ENTITIES, p=principal)
    }


def test_entities_are_written_with_the_node_and_shared(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember(
        {
            "project": "api",
            "title": "KeyError in graphmem/recall/arms.py",
            "text": "Yesterday Caroline saw ECONNREFUSED from the Neo4j Browser.",
        }
    )
    belief = memory.believe(
        "A KeyError means the seed was filtered out", project="web", type="lesson"
    )
    assert _mentions(graph, memory.principal) == {
        episode: [
            "caroline",
            "econnrefused",
            "graphmem/recall/arms.py",
            "keyerror",
            "neo4j browser",
        ],
        belief: ["keyerror"],
    }
    entities = _entities(graph, memory.principal)
    assert entities["keyerror"] == ("error", 2)  # one node, across two projects
    assert entities["graphmem/recall/arms.py"] == ("path", 1)
    assert entities["neo4j browser"] == ("proper", 1)


def test_entities_are_principal_local(make_memory: Callable[..., GraphMem], graph: Graph) -> None:
    ana, ben = make_memory(), make_memory()
    ana.believe("We ship Zanzibar on Fridays", project="p", type="fact")
    ben.believe("The release name is Zanzibar", project="p", type="fact")
    assert _entities(graph, ana.principal) == {"zanzibar": ("proper", 1)}
    assert _entities(graph, ben.principal) == {"zanzibar": ("proper", 1)}
    crossing = graph.query(
        "MATCH (n)-[:MENTIONS]->(e:Entity) WHERE n.principal <> e.principal RETURN count(*) AS c"
    )
    assert crossing == [{"c": 0}]


def test_forget_and_delete_leave_no_names_behind(
    memory: GraphMem, admin: Admin, graph: Graph
) -> None:
    memory.remember({"project": "p", "title": "Talked to Caroline about the deploy"})
    forgotten = memory.believe(
        "Only Caroline keeps the Zanzibar credentials", project="p", type="fact"
    )
    memory.forget(forgotten)
    assert _entities(graph, memory.principal) == {"caroline": ("proper", 1)}
    admin.delete_principal(memory.principal)
    assert _entities(graph, memory.principal) == {}


def test_import_links_entities_and_reindex_rebuilds_them(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    source, target = make_memory(), make_memory()
    source.remember({"project": "p", "title": "Retry storm in billing/retry.py"})
    source.believe("RetryPolicy caps backoff at 30 s", project="p", type="fact")
    exported = io.StringIO()
    source.export(exported)
    target.import_memory(io.StringIO(exported.getvalue()), as_principal=target.principal)
    expected = {"billing/retry.py": ("path", 1), "retrypolicy": ("identifier", 1)}
    assert _entities(graph, target.principal) == expected

    graph.query(  # as before the entity layer: no links, and a stale name
        "MATCH (e:Entity {principal: $p}) DETACH DELETE e", p=target.principal
    )
    graph.query(
        "MATCH (b:Belief {principal: $p}) "
        "CREATE (b)-[:MENTIONS]->(:Entity {principal: $p, name: 'stale', kind: 'proper'})",
        p=target.principal,
    )
    assert target.reindex()["entities"] == 2
    assert _entities(graph, target.principal) == expected
    target.reindex()
    assert _entities(graph, target.principal) == expected


def test_code_graph_rebuild_leaves_entities_alone(
    memory: GraphMem, graph: Graph, tmp_path: Path
) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "invoice.py").write_text("class Invoice:\n    pass\n")
    memory.index_code(tmp_path, "p")
    memory.remember({"project": "p", "title": "Invoice rounding", "paths": ["billing/invoice.py"]})
    memory.believe("Invoice totals round half even", project="p", type="fact")
    before = (_mentions(graph, memory.principal), _entities(graph, memory.principal))
    assert before[1]
    memory.index_code(tmp_path, "p", rebuild=True)
    assert (_mentions(graph, memory.principal), _entities(graph, memory.principal)) == before
    code_links = graph.query(
        "MATCH (e:Entity {principal: $p})--(n) WHERE n:Symbol OR n:File RETURN count(*) AS c",
        p=memory.principal,
    )
    assert code_links == [{"c": 0}]


def test_graph_arm_reaches_through_a_rare_shared_name_only(memory: GraphMem) -> None:
    filler = [
        {"project": "p", "kind": "message", "title": f"Hello from Caroline, number {i}"}
        for i in range(40)
    ]
    memory.remember_many(filler)
    seed, far, common = memory.remember_many(
        [
            {"project": "p", "kind": "message", "title": "Caroline: booked the Zanzibar ferry"},
            {"project": "p", "kind": "message", "title": "Melanie lost her passport in Zanzibar"},
            {"project": "p", "kind": "message", "title": "Hi Caroline, we adopted a puppy"},
        ]
    )
    plain = memory.search_episodes("booked ferry", arms=["lexical"])
    assert [item.id for item in plain.items] == [seed]
    expanded = memory.search_episodes("booked ferry", arms=["lexical", "graph"])
    found = {item.id: item.arm_ranks for item in expanded.items}
    assert found[far] == {"graph": 1}  # shares the rare "zanzibar" with the seed
    assert common not in found  # shares only "caroline", which 42 of 43 episodes mention


def test_belief_graph_arm_reaches_through_a_shared_rare_name(memory: GraphMem) -> None:
    memory.believe_many(
        [
            {"project": "p", "type": "fact", "statement": f"Deploy step {i} is scripted"}
            for i in range(40)
        ]
    )
    seed = memory.believe("Idempotent consumers dedupe by ZK-1207", project="p", type="lesson")
    other = memory.believe("Ticket ZK-1207 tracks the outage", project="p", type="fact")
    plain = memory.recall("idempotent consumers", project="p", arms=["lexical"])
    assert [item.id for item in plain.items] == [seed]
    expanded = memory.recall("idempotent consumers", project="p", arms=["lexical", "graph"])
    assert other in [item.id for item in expanded.items]
