"""beliefs' filters and columns, and `index` naming the beliefs whose anchors it changed."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.demo import SAMPLE_EDIT, run_demo
from tests.integration.serve.conftest import stdio_client

runner = CliRunner()


def test_listing_filters_and_columns(
    memory: GraphMem, neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    result = run_demo(memory, lambda line: None, tmp_path / "billing-api")
    assert [b.id for b in memory.list_beliefs(promoted=True)] == [result.beliefs["cents"]]
    assert [b.id for b in memory.list_beliefs(anchor_state="drifted")] == [
        result.beliefs["anchored"]
    ]
    assert memory.list_beliefs(anchor_state="verified") == []
    unanchored = memory.list_beliefs(anchor_state="unanchored")
    assert result.beliefs["anchored"] not in {b.id for b in unanchored} and unanchored
    assert memory.list_beliefs(conflicted=True) == []

    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": memory.principal}
    shown = runner.invoke(app, ["beliefs", "--all-projects", "--json"], env=env)
    assert shown.exit_code == 0, shown.stderr
    rows = {row["id"]: row for row in json.loads(shown.stdout)}
    assert rows[result.beliefs["anchored"]]["anchor_state"] == "drifted"
    assert rows[result.beliefs["cents"]]["scope"] == "principal"
    assert {row["confidence_band"] for row in rows.values()} <= {"low", "medium", "high"}
    text = runner.invoke(app, ["beliefs", "--all-projects", "--anchor-state", "drifted"], env=env)
    header, line = text.stdout.splitlines()
    assert header.split()[:5] == ["id", "project", "scope", "state", "anchor"]
    assert "billing-api" in line and " project " in line and "drifted" in line
    text = runner.invoke(app, ["beliefs", "--project", "checkout-web", "--promoted"], env=env)
    _, line = text.stdout.splitlines()
    assert "principal" in line and "integer cents" in line
    refused = runner.invoke(app, ["beliefs"], env=env)
    assert refused.exit_code == 1 and "--all-projects" in refused.stderr
    refused = runner.invoke(app, ["beliefs", "--all-projects", "--anchor-state", "moved"], env=env)
    assert refused.exit_code == 1 and "anchor_state" in refused.stderr


def test_index_reports_the_beliefs_whose_anchor_it_changed(
    memory: GraphMem, neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    workdir = tmp_path / "billing-api"
    result = run_demo(memory, lambda line: None, workdir)
    invoice = workdir / "billing" / "invoice.py"
    invoice.write_text(invoice.read_text().replace(SAMPLE_EDIT[1], SAMPLE_EDIT[0]))  # undone
    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": memory.principal}
    indexed = runner.invoke(
        app, ["index", str(workdir), "--project", "billing-api", "--json"], env=env
    )
    assert indexed.exit_code == 0, indexed.stderr
    (change,) = json.loads(indexed.stdout)["anchor_changes"]
    assert change["belief_id"] == result.beliefs["anchored"]
    assert (change["before"], change["after"]) == ("drifted", "verified")
    again = runner.invoke(app, ["index", str(workdir), "--project", "billing-api"], env=env)
    assert "anchor" not in again.stdout  # nothing changed this time
    invoice.write_text(invoice.read_text().replace(*SAMPLE_EDIT))
    shown = runner.invoke(app, ["index", str(workdir), "--project", "billing-api"], env=env)
    assert f"anchor  verified -> drifted  {result.beliefs['anchored']}" in shown.stdout


def test_overview_and_changes_over_mcp(
    memory: GraphMem, neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    run_demo(memory, lambda line: None, tmp_path / "billing-api")
    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": memory.principal}

    async def scenario() -> None:
        async with stdio_client(env, tmp_path, "--project", "billing-api") as mcp:
            view = await mcp.call_tool("overview", {})
            assert not view.is_error
            names = [p["name"] for p in view.structured_content["projects"]]
            assert names == ["billing-api", "checkout-web"]
            assert "1 drifted" in view.content[0].text
            found = await mcp.call_tool("changes", {"since": 0, "kinds": ["anchor", "promoted"]})
            kinds = [c["kind"] for c in found.structured_content["changes"]]
            assert kinds == ["anchor", "promoted"]
            assert all(c["at"].endswith("Z") for c in found.structured_content["changes"])
            assert "verified" in found.content[0].text
            bad = await mcp.call_tool("changes", {"since": "whenever"})
            assert bad.is_error and "since" in bad.content[0].text

    anyio.run(scenario)
