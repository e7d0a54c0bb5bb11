"""Anchoring beliefs, and their state as the code changes (design §4, rule 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import AnchorState, GraphMem, InvalidInput, NotFound
from graphmem.cli import app
from graphmem.settings import ConnectionSettings

TOTAL = "python:billing/invoice.py::Invoice.total#method"


@pytest.fixture
def anchored(memory: GraphMem, project_root: Path) -> str:
    memory.index_code(project_root, "shop")
    return memory.believe("Invoice.total sums cents", project="shop", type="fact", anchor=TOTAL)


def _state(memory: GraphMem, belief: str, project: str | None = None) -> AnchorState:
    return memory.anchor_status(belief, project).state


def test_anchor_by_key_or_by_path_and_symbol(memory: GraphMem, anchored: str) -> None:
    belief = memory.get_belief(anchored)
    assert belief.anchor_key == TOTAL and belief.anchor_hash.startswith("sha256:v1:")
    by_name = memory.believe(
        "x",
        project="shop",
        type="fact",
        anchor={"path": "billing/invoice.py", "symbol": "Invoice.total"},
    )
    assert memory.get_belief(by_name).anchor_key == TOTAL
    status = memory.anchor_status(anchored)
    assert (status.state, status.anchor_weight, status.applies_here) == ("verified", 1.0, True)


def test_unknown_or_ambiguous_anchors_are_typed_errors(memory: GraphMem, anchored: str) -> None:
    with pytest.raises(NotFound) as caught:
        memory.believe(
            "x",
            project="shop",
            type="fact",
            anchor="python:billing/invoice.py::Invoice.missing#method",
        )
    assert caught.value.field == "anchor.key"
    with pytest.raises(NotFound):
        memory.believe(
            "x",
            project="shop",
            type="fact",
            anchor={"path": "billing/invoice.py", "symbol": "nothing"},
        )
    unsupported_key = "sql:db/schema.sql::users#type"
    kept = memory.believe(
        "x", project="shop", type="fact", anchor=unsupported_key, anchor_unverifiable=True
    )
    assert memory.get_belief(kept).anchor_hash is None
    assert _state(memory, kept) is AnchorState.UNVERIFIABLE
    with pytest.raises(InvalidInput):
        memory.believe(
            "x",
            project="shop",
            type="fact",
            anchor={"path": "a.py", "symbol": "f"},
            anchor_unverifiable=True,
        )


def test_body_change_and_reformat_drift(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    invoice = project_root / "billing" / "invoice.py"
    original = invoice.read_text()
    invoice.write_text(original.replace("line.cents", "line.amount"))
    memory.index_code(project_root, "shop")
    status = memory.anchor_status(anchored)
    assert (status.state, status.anchor_weight, status.applies_here) == ("drifted", 0.25, False)
    invoice.write_text(original)
    memory.index_code(project_root, "shop")
    assert _state(memory, anchored) is AnchorState.VERIFIED
    invoice.write_text(original.replace("return sum(", "return  sum("))  # reformat only
    memory.index_code(project_root, "shop")
    assert _state(memory, anchored) is AnchorState.DRIFTED


def test_drifted_belief_is_still_recalled_but_last(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    unanchored = memory.believe(
        "Invoice.total sums cents of every line", project="shop", type="fact", confidence=0.3
    )
    before = memory.recall("Invoice.total sums cents", project="shop", arms=["lexical"])
    assert [item.id for item in before.items] == [anchored, unanchored]
    invoice = project_root / "billing" / "invoice.py"
    invoice.write_text(invoice.read_text().replace("line.cents", "line.amount"))
    memory.index_code(project_root, "shop")
    after = memory.recall("Invoice.total sums cents", project="shop", arms=["lexical"])
    assert [item.id for item in after.items] == [unanchored, anchored]  # demoted, not hidden
    assert (after.items[1].anchor_state, after.items[1].applies_here) == ("drifted", False)


def test_rename_vanishes_with_the_new_name_as_candidate(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    invoice = project_root / "billing" / "invoice.py"
    invoice.write_text(
        invoice.read_text()
        .replace("def total", "def grand_total")
        .replace("invoice.total()", "invoice.grand_total()")
    )
    memory.index_code(project_root, "shop")
    status = memory.anchor_status(anchored)
    assert (status.state, status.anchor_weight) == ("vanished", 0.5)
    assert "python:billing/invoice.py::Invoice.grand_total#method" in [
        candidate.key for candidate in status.candidates
    ]
    assert len(status.candidates) <= 3


def test_moved_file_offers_the_same_content(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    (project_root / "billing" / "invoice.py").rename(project_root / "billing" / "invoices.py")
    memory.index_code(project_root, "shop")
    status = memory.anchor_status(anchored)
    assert status.state is AnchorState.VANISHED
    assert status.candidates[0].key == "python:billing/invoices.py::Invoice.total#method"
    assert status.candidates[0].reason == "same content"


def test_deleted_file_vanishes_but_the_belief_is_never_hidden(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    (project_root / "billing" / "invoice.py").unlink()
    memory.index_code(project_root, "shop")
    assert _state(memory, anchored) is AnchorState.VANISHED
    assert memory.get_belief(anchored).statement == "Invoice.total sums cents"
    assert [b.id for b in memory.list_beliefs(project="shop")] == [anchored]


def test_state_is_per_project_asked_about(
    memory: GraphMem, anchored: str, project_root: Path, tmp_path: Path
) -> None:
    fork = tmp_path / "fork"
    (fork / "billing").mkdir(parents=True)
    (fork / "billing" / "other.py").write_text("def other():\n    return 1\n")
    memory.index_code(fork, "fork")
    assert _state(memory, anchored, "shop") is AnchorState.VERIFIED
    assert _state(memory, anchored, "fork") is AnchorState.VANISHED
    assert _state(memory, anchored, "never-indexed") is AnchorState.UNVERIFIABLE
    unanchored = memory.believe("Repo-wide", project="shop", type="fact")
    statuses = memory.anchor_statuses([anchored, unanchored], "fork")
    assert [s.state for s in statuses] == ["vanished", "unanchored"]


def test_syntax_error_makes_the_anchor_unverifiable(
    memory: GraphMem, anchored: str, project_root: Path
) -> None:
    invoice = project_root / "billing" / "invoice.py"
    invoice.write_text(invoice.read_text() + "\ndef broken(:\n")
    memory.index_code(project_root, "shop")
    status = memory.anchor_status(anchored)
    assert status.state is AnchorState.UNVERIFIABLE and "syntax error" in (status.reason or "")


def test_cli_index_and_anchors_json(
    neo4j_env: dict[str, str], project_root: Path, neo4j_settings: ConnectionSettings
) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["index", str(project_root), "--project", "shop", "--json"], env=neo4j_env
    )
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["files"]["parsed"] == 2 and summary["symbols"]["added"] == 7
    result = runner.invoke(
        app,
        ["believe", "x", "--project", "shop", "--type", "fact", "--anchor", TOTAL, "--json"],
        env=neo4j_env,
    )
    belief = json.loads(result.stdout)["id"]
    result = runner.invoke(app, ["anchors", belief, "--json"], env=neo4j_env)
    shown = json.loads(result.stdout)
    assert {"state", "anchor_weight", "applies_here", "candidates"} <= set(shown)
    assert shown["state"] == "verified"
    result = runner.invoke(
        app,
        [
            "believe",
            "x",
            "--project",
            "shop",
            "--type",
            "fact",
            "--anchor",
            "python:nope.py::f#function",
        ],
        env=neo4j_env,
    )
    assert result.exit_code == 4 and "anchor" in result.stderr
