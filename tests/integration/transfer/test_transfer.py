"""Export and import against a real Neo4j: round trips, idempotency, re-owning, refusals."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem, InvalidInput, StateConflict
from graphmem.admin import Admin
from graphmem.demo import run_demo
from graphmem.store.ids import new_id
from graphmem.transfer.format import KINDS
from tests.integration.conftest import Graph


def demo_memory(memory: GraphMem, workdir: Path) -> dict[str, str]:
    """The demo, plus a correction, a forget and a conflict; returns ids to look at."""
    run_demo(memory, lambda _: None, workdir)
    user_belief = memory.believe(
        "Thursday", project="web", type="fact", subject="deploy day", authority="user"
    )
    memory.consolidate(
        memory.remember(
            {"project": "web", "kind": "task", "title": "t", "observations": ["deploy day: Monday"]}
        )
    )
    beliefs = memory.list_beliefs(project="billing-api")
    memory.correct(beliefs[0].id, "not_true")
    memory.forget(beliefs[1].id)
    return {"user_belief": user_belief, "corrected": beliefs[0].id}


def export_text(memory: GraphMem, project: str | None = None) -> str:
    out = io.StringIO()
    memory.export(out, project=project)
    return out.getvalue()


def footprint(graph: Graph, principal: str) -> dict[str, int]:
    """Memory nodes per label and links per type of one principal (code graph aside)."""
    owned = (
        "MATCH (n) WHERE (n.principal = $p OR n:Principal AND n.id = $p) "
        "AND NOT n:File AND NOT n:Symbol "
    )
    nodes = graph.query(owned + "RETURN labels(n)[0] AS name, count(n) AS c", p=principal)
    links = graph.query(
        owned + "MATCH (n)-[r]->() RETURN type(r) AS name, count(r) AS c", p=principal
    )
    return {row["name"]: row["c"] for row in nodes + links}


def _without_seqs(value: Any) -> Any:
    """A value with every seq-valued field dropped (seqs are the store's own)."""
    if isinstance(value, dict):
        return {k: _without_seqs(v) for k, v in value.items() if not k.endswith("seq")}
    if isinstance(value, list):
        return [_without_seqs(item) for item in value]
    return value


def _history_view(memory: GraphMem) -> Any:
    """What the client shows of the memory's history: beliefs, changes, events."""
    beliefs = memory.list_beliefs(project="billing-api")
    return _without_seqs(
        [
            [b.model_dump() for b in beliefs],
            [c.model_dump() for c in memory.changes(since=0)],
            memory.events(),
            [[h.model_dump() for h in memory.history(b.id)] for b in beliefs],
        ]
    )


def test_round_trip_into_an_empty_store_is_byte_identical(
    memory: GraphMem, admin: Admin, graph: Graph, tmp_path: Path
) -> None:
    demo_memory(memory, tmp_path / "billing-api")
    first = export_text(memory)
    before = footprint(graph, memory.principal)
    view_before = _history_view(memory)
    header = json.loads(first.splitlines()[0])
    assert header["format"] == "graphmem-export" and header["version"] == 1
    kinds = {json.loads(line)["kind"] for line in first.splitlines()[1:]}
    assert kinds == set(KINDS)  # every kind of record occurs

    admin.delete_principal(memory.principal)
    assert footprint(graph, memory.principal) == {}
    summary = memory.import_memory(io.StringIO(first))

    assert not summary.already_present and summary.new_ids == 0
    assert export_text(memory) == first
    after = footprint(graph, memory.principal)
    code_links = {"ANCHORED_TO", "TOUCHED"}  # re-derived once the code is indexed again
    # Stored vectors are not exported: the first view (or `graphmem reembed`) makes them.
    derived = code_links | {"Embedding", "EMBEDDED_AS"}
    assert after == {k: v for k, v in before.items() if k not in derived}
    assert _history_view(memory) == view_before


def test_importing_the_same_file_again_writes_nothing(
    memory: GraphMem, admin: Admin, graph: Graph, tmp_path: Path
) -> None:
    demo_memory(memory, tmp_path / "billing-api")
    text = export_text(memory)
    before = footprint(graph, memory.principal)

    summary = memory.import_memory(io.StringIO(text))

    assert summary.already_present and sum(summary.records.values()) == 0
    assert footprint(graph, memory.principal) == before


def test_as_principal_reowns_everything_and_leaves_the_original_untouched(
    make_memory: Callable[..., GraphMem], graph: Graph, tmp_path: Path
) -> None:
    owner = make_memory()
    demo_memory(owner, tmp_path / "billing-api")
    text = export_text(owner)
    owner_before = footprint(graph, owner.principal)
    other = make_memory()
    other.index_code(tmp_path / "billing-api", "billing-api")  # so anchors link on import

    summary = owner.import_memory(io.StringIO(text), as_principal=other.principal)

    assert summary.principal == other.principal
    assert summary.source_principal == owner.principal
    assert summary.new_ids == sum(
        summary.records[kind] for kind in ("episode", "belief", "rejection", "tombstone")
    )
    assert export_text(owner) == text
    assert footprint(graph, owner.principal) == owner_before
    nodes = graph.query(
        "MATCH (n:Belief|Episode) WHERE n.principal = $p RETURN n.id AS id, n.principal_key AS key",
        p=other.principal,
    )
    assert nodes and {row["key"] for row in nodes} == {None}  # no full-text token since 015
    owner_ids = {line["id"] for line in map(json.loads, text.splitlines()[1:]) if "id" in line}
    assert not owner_ids & {row["id"] for row in nodes}
    leaked = graph.query(
        "MATCH (a)--(b) WHERE a.principal = $q AND b.principal IS NOT NULL AND b.principal <> $q "
        "RETURN count(*) AS c",
        q=other.principal,
    )
    assert leaked[0]["c"] == 0
    anchored = graph.query(
        "MATCH (b:Belief {principal: $q})-[:ANCHORED_TO]->(:Symbol) RETURN count(*) AS c",
        q=other.principal,
    )
    assert anchored[0]["c"] >= 1

    reowned = export_text(other).splitlines()
    assert json.loads(reowned[0])["principal"] == other.principal
    assert len(reowned) == len(text.splitlines())

    # The imported beliefs are found by recall, through the semantic view too.
    statement = next(b.statement for b in other.list_beliefs(project="billing-api"))
    found = other.recall(statement, project="billing-api", arms=["semantic"])
    assert statement in [item.statement for item in found.items]
    # Traces are written off the answer's path; reading this one waits for the write,
    # so the footprint below already holds it.
    assert other.get_trace(found.trace_id)["item_ids"] == [item.id for item in found.items]

    before = footprint(graph, other.principal)
    again = owner.import_memory(io.StringIO(text), as_principal=other.principal)
    assert again.already_present and footprint(graph, other.principal) == before


def test_imported_memory_is_found_by_recall_after_a_delete(
    memory: GraphMem, admin: Admin, tmp_path: Path
) -> None:
    demo_memory(memory, tmp_path / "billing-api")
    text = export_text(memory)
    statement = memory.list_beliefs(project="billing-api")[0].statement
    admin.delete_principal(memory.principal)
    memory.import_memory(io.StringIO(text))

    found = memory.recall(statement, project="billing-api", arms=["semantic"])
    assert statement in [item.statement for item in found.items]
    hits = memory.search_episodes("flaky invoice total test", project="billing-api")
    assert hits.items


def _bad(text: str, number: int, replace: Callable[[dict[str, Any]], Any]) -> str:
    lines = text.splitlines()
    lines[number - 1] = replace(json.loads(lines[number - 1]))
    return "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)


@pytest.mark.parametrize(
    ("number", "replace", "field"),
    [
        (1, lambda h: {**h, "version": 2}, "version"),
        (5, lambda _: '{"kind": "belief", "id": ', "line"),
        (5, lambda r: {k: v for k, v in r.items() if k != "props"}, "props"),
        (5, lambda r: {**r, "props": {**r["props"], "principal": "mallory"}}, "props.principal"),
    ],
)
def test_a_bad_line_is_refused_by_number_and_field_and_nothing_is_written(
    make_memory: Callable[..., GraphMem],
    graph: Graph,
    tmp_path: Path,
    number: int,
    replace: Callable[[dict[str, Any]], Any],
    field: str,
) -> None:
    owner = make_memory()
    owner.remember({"project": "p", "title": "one"})
    owner.remember({"project": "p", "title": "two"})
    owner.believe("A fact", project="p", type="fact")
    owner.believe("Another fact", project="p", type="fact")
    text = export_text(owner)
    target = make_memory()

    with pytest.raises(InvalidInput) as raised:
        owner.import_memory(io.StringIO(_bad(text, number, replace)), as_principal=target.principal)

    assert raised.value.details["line"] == number
    assert raised.value.details["field"] == field
    assert footprint(graph, target.principal) == {}


def test_a_cut_short_file_is_refused(make_memory: Callable[..., GraphMem], graph: Graph) -> None:
    owner = make_memory()
    owner.believe("A fact", project="p", type="fact")
    lines = export_text(owner).splitlines()
    target = make_memory()
    with pytest.raises(InvalidInput) as raised:
        target.import_memory(io.StringIO("\n".join(lines[:-1])), as_principal=target.principal)
    assert raised.value.details["field"] == "counts.event"
    assert footprint(graph, target.principal) == {}


def test_another_principals_file_needs_as_principal(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    owner = make_memory()
    owner.believe("A fact", project="p", type="fact")
    text = export_text(owner)
    stranger = make_memory()

    with pytest.raises(InvalidInput) as raised:
        stranger.import_memory(io.StringIO(text))
    assert raised.value.details == {
        "line": 1,
        "field": "principal",
        "rule": "principal",
    }

    # A file that claims to be the stranger's but holds the owner's ids writes nothing.
    claimed = _bad(text, 1, lambda h: {**h, "principal": stranger.principal})
    with pytest.raises(StateConflict) as conflict:
        stranger.import_memory(io.StringIO(claimed))
    assert conflict.value.details["rule"] == "owned_elsewhere"
    assert footprint(graph, stranger.principal) == {}


def test_a_partial_overlap_is_refused(memory: GraphMem, graph: Graph) -> None:
    memory.believe("A fact", project="p", type="fact")
    text = export_text(memory)
    memory.believe("Another fact", project="p", type="fact")
    bigger = export_text(memory)
    target = f"test-{new_id()}"
    memory.import_memory(io.StringIO(text), as_principal=target)
    before = footprint(graph, target)

    with pytest.raises(StateConflict) as raised:
        memory.import_memory(io.StringIO(bigger), as_principal=target)

    assert raised.value.details["rule"] == "partial_overlap"
    assert footprint(graph, target) == before


def test_a_project_export_holds_that_project_only(memory: GraphMem, tmp_path: Path) -> None:
    demo_memory(memory, tmp_path / "billing-api")
    lines = [json.loads(line) for line in export_text(memory, project="web").splitlines()]
    assert lines[0]["project"] == "web"
    assert [r["name"] for r in lines[1:] if r["kind"] == "project"] == ["web"]
    episodes = [r for r in lines[1:] if r["kind"] == "episode"]
    assert episodes and {r["props"]["project"] for r in episodes} == {"web"}
    target = f"test-{new_id()}"
    summary = memory.import_memory(
        io.StringIO("\n".join(json.dumps(r) for r in lines)), as_principal=target
    )
    assert summary.records["belief"] == sum(1 for r in lines[1:] if r["kind"] == "belief") > 0
