"""changes(): every kind of change, with statement, project, actor and an ISO time."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInput
from graphmem.cli import app
from graphmem.demo import run_demo
from graphmem.models import ChangeKind


@pytest.fixture
def demo(memory: GraphMem, tmp_path: Path) -> GraphMem:
    """The demo's memory; an activation, a conflict, a retirement, a correction and a
    forgetting."""
    result = run_demo(memory, lambda line: None, tmp_path / "billing-api")
    for _ in range(2):  # a provisional inference seen twice turns active
        memory.consolidate(
            memory.remember(
                {
                    "project": "checkout-web",
                    "kind": "task",
                    "title": "Cart race",
                    "inferences": ["The cart total bug is a race"],
                }
            )
        )
    memory.believe(
        "Thursday", project="checkout-web", type="fact", subject="deploy day", authority="user"
    )
    memory.consolidate(
        memory.remember(
            {
                "project": "checkout-web",
                "kind": "task",
                "title": "Deploy",
                "observations": ["deploy day: Monday"],
            }
        )
    )
    memory.retire(result.beliefs["seed"], "the flaky test was deleted")
    memory.correct(result.beliefs["display"], "unspecified")
    memory.forget(result.beliefs["decimal"])
    return memory


def test_every_kind_of_change_is_reported_with_what_it_is_about(demo: GraphMem) -> None:
    changes = demo.changes(0)
    assert {change.kind for change in changes} == set(ChangeKind)
    assert [c.seq for c in changes] == sorted(c.seq for c in changes)
    by_kind = {change.kind: change for change in changes}
    for change in changes:
        assert change.at.tzinfo is not None and change.actor
        if change.kind is not ChangeKind.FORGOTTEN:
            assert change.statement and change.project in {"billing-api", "checkout-web"}

    forgotten = by_kind[ChangeKind.FORGOTTEN]
    assert forgotten.statement is None and len(forgotten.statement_sha256 or "") == 64
    assert forgotten.project == "billing-api"
    assert not any(
        c.node_id == forgotten.node_id and c.kind is not ChangeKind.FORGOTTEN for c in changes
    )  # its text, and the changes that would show it, are gone

    superseded = by_kind[ChangeKind.SUPERSEDED]
    assert superseded.related_id and superseded.reason and "FIN-212" in superseded.reason
    assert "half-even" in (superseded.statement or "")
    assert by_kind[ChangeKind.RETIRED].reason == "the flaky test was deleted"
    assert by_kind[ChangeKind.CORRECTED].correction == "unspecified"
    anchor = by_kind[ChangeKind.ANCHOR]
    assert (anchor.anchor_from, anchor.anchor_to) == ("verified", "drifted")
    assert anchor.actor == "tool" and anchor.project == "billing-api"
    promoted = by_kind[ChangeKind.PROMOTED]
    assert promoted.statement == "Money amounts are stored as integer cents"
    assert by_kind[ChangeKind.CONFLICTED].related_id


def test_since_a_seq_a_span_a_date_and_filters(demo: GraphMem) -> None:
    everything = demo.changes(0)
    middle = everything[len(everything) // 2].seq
    assert [c.seq for c in demo.changes(middle)] == [c.seq for c in everything if c.seq > middle]
    assert demo.changes("1h") == everything == demo.changes(timedelta(hours=1))
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    assert demo.changes(tomorrow.isoformat()) == []
    assert demo.changes("2026-01-01") == everything

    checkout = demo.changes(0, project="checkout-web")
    for change in checkout:  # a belief counts in every project it was learned in
        assert change.project == "checkout-web" or (
            "checkout-web" in demo.get_belief(change.node_id).origins
        )
    assert any(c.kind is ChangeKind.PROMOTED for c in checkout)
    only = demo.changes(0, kinds=["retired", "forgotten"])
    assert {c.kind for c in only} == {ChangeKind.RETIRED, ChangeKind.FORGOTTEN}
    assert demo.changes(0, limit=3) == everything[:3]

    for since in ("yesterday", "-3", "7x"):
        with pytest.raises(InvalidInput) as refused:
            demo.changes(since)
        assert refused.value.details["field"] == "since"
    with pytest.raises(InvalidInput) as refused:
        demo.changes(0, kinds=["gossip"])
    assert refused.value.details["field"] == "kinds"


def test_other_principals_changes_never_show(demo: GraphMem, make_memory) -> None:  # type: ignore[no-untyped-def]
    other = make_memory()
    assert other.changes(0) == []
    other.believe("Something else", project="billing-api", type="fact")
    assert {c.statement for c in other.changes(0)} == {"Something else"}
    assert "Something else" not in {c.statement for c in demo.changes(0)}


def test_cli_changes_prints_iso_times_and_json(demo: GraphMem, neo4j_env: dict[str, str]) -> None:
    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": demo.principal}
    runner = CliRunner()
    result = runner.invoke(app, ["changes", "--since", "1d", "--json"], env=env)
    assert result.exit_code == 0, result.stderr
    listed = json.loads(result.stdout)
    assert {entry["kind"] for entry in listed} == {kind.value for kind in ChangeKind}
    for entry in listed:
        assert datetime.fromisoformat(entry["at"]).tzinfo is not None
        assert "T" in entry["at"]
    result = runner.invoke(
        app,
        ["changes", "--since", "0", "--kind", "superseded", "--project", "billing-api"],
        env=env,
    )
    assert result.exit_code == 0
    (line,) = result.stdout.splitlines()
    assert "superseded" in line and "half-even" in line and "FIN-212" in line
    assert line[:20].endswith("Z") and line[10] == "T"
    result = runner.invoke(app, ["changes", "--since", "soon"], env=env)
    assert result.exit_code == 1 and "since" in result.stderr

    result = runner.invoke(app, ["events", "--json"], env=env)
    events = json.loads(result.stdout)
    assert all("T" in event["at"] for event in events)
    result = runner.invoke(app, ["events"], env=env)
    assert "Money amounts are stored as integer cents" in result.stdout
