"""The CLI against a real Neo4j: outputs, --json, and exit codes 0/1/2/3."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.provision.probe import free_port

runner = CliRunner()


def _run(env: dict[str, str], *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_remember_believe_supersede_show_history_beliefs(neo4j_env: dict[str, str]) -> None:
    episode = {
        "project": "billing",
        "kind": "task",
        "title": "Fix rounding",
        "outcome": "succeeded",
        "observations": ["floats leak into Decimal"],
        "paths": ["billing/invoice.py"],
        "started_at": "2026-11-30T09:00:00+00:00",
        "idempotency_key": "cli-1",
    }
    code, out, _ = _run(neo4j_env, "remember", "-", "--json", stdin=json.dumps(episode))
    assert code == 0
    episode_id = json.loads(out)["id"]
    code, again, _ = _run(neo4j_env, "remember", "-", stdin=json.dumps(episode))
    assert code == 0 and again.strip() == episode_id

    code, out, _ = _run(
        neo4j_env,
        "believe",
        "Build Decimal from strings",
        "--project",
        "billing",
        "--type",
        "lesson",
        "--evidence",
        episode_id,
        "--json",
    )
    assert code == 0
    belief_id = json.loads(out)["id"]

    code, out, _ = _run(
        neo4j_env, "supersede", belief_id, "Build Decimal from str()", "--reason", "clearer"
    )
    assert code == 0
    new_id = out.strip()

    code, out, _ = _run(neo4j_env, "show", belief_id, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["kind"] == "belief"
    assert shown["evidence"] == [{"episode_id": episode_id, "role": "explicit"}]
    assert shown["superseded_by"] == new_id
    code, out, _ = _run(neo4j_env, "show", belief_id)
    assert code == 0 and episode_id in out and "provenance" in out
    code, out, _ = _run(neo4j_env, "show", episode_id)
    assert code == 0 and "Fix rounding" in out

    code, out, _ = _run(neo4j_env, "history", new_id, "--json")
    assert [entry["id"] for entry in json.loads(out)] == [belief_id, new_id]
    code, out, _ = _run(neo4j_env, "beliefs", "--project", "billing", "--json")
    listed = json.loads(out)
    assert [b["id"] for b in listed] == [new_id] and listed[0]["type"] == "lesson"

    code, out, _ = _run(neo4j_env, "retire", new_id, "--reason", "Decimal is gone", "--json")
    assert code == 0 and json.loads(out) == {"id": new_id, "retired": True}
    code, out, _ = _run(neo4j_env, "retire", new_id, "--reason", "again")
    assert code == 0 and "already retired" in out
    code, out, _ = _run(neo4j_env, "beliefs", "--project", "billing", "--json")
    assert json.loads(out) == []


def test_bad_input_exits_1_and_names_the_field(neo4j_env: dict[str, str]) -> None:
    code, _, err = _run(neo4j_env, "believe", "x", "--project", "p", "--type", "opinion")
    assert code == 1 and "type" in err
    code, _, err = _run(
        neo4j_env, "believe", "x", "--project", "p", "--type", "fact", "--confidence", "2", "--json"
    )
    assert code == 1
    assert json.loads(err)["error"]["field"] == "confidence"
    code, _, err = _run(neo4j_env, "remember", "-", stdin="{not json")
    assert code == 1 and "FILE" in err
    code, _, err = _run(neo4j_env, "show", "01a22bde-0000-7000-8000-000000000000")
    assert code == 4 and "no belief or episode" in err  # NotFound


def test_usage_error_exits_2(neo4j_env: dict[str, str]) -> None:
    code, _, _ = _run(
        neo4j_env, "believe", "x", "--project", "p", "--type", "fact", "--confidence", "high"
    )
    assert code == 2


def test_unreachable_database_exits_3_and_says_how_to_start(
    neo4j_env: dict[str, str],
) -> None:
    env = {**neo4j_env, "GRAPHMEM_NEO4J_URI": f"bolt://127.0.0.1:{free_port()}"}
    code, _, err = _run(env, "beliefs", "--all-projects")
    assert code == 3
    assert "graphmem neo4j start" in err


def test_demo_command_on_the_configured_server(neo4j_env: dict[str, str]) -> None:
    code, out, _ = _run(neo4j_env, "demo", "--principal", neo4j_env["GRAPHMEM_PRINCIPAL"], "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result["beliefs"]) == {
        "decimal",
        "seed",
        "rounding",
        "display",
        "rounding_v2",
        "anchored",
        "cents",
    }
    assert result["anchor_states"] == ["verified", "drifted"]
    assert result["cypher"][1].startswith("MATCH (b:Belief {principal: $principal})")
    code, out, _ = _run(neo4j_env, "history", result["beliefs"]["rounding_v2"], "--json")
    assert [entry["id"] for entry in json.loads(out)] == [
        result["beliefs"]["rounding"],
        result["beliefs"]["rounding_v2"],
    ]


def test_reembed_reports_what_it_embedded(neo4j_env: dict[str, str]) -> None:
    code, _, _ = _run(
        neo4j_env, "believe", "Invoices round half-up", "--project", "billing", "--type", "fact"
    )
    assert code == 0
    code, out, _ = _run(neo4j_env, "reembed", "--json")
    assert code == 0  # the write stored its vectors: nothing is left to embed
    assert json.loads(out) == {"embedded": {"belief": 0, "episode": 0}}
    code, out, _ = _run(neo4j_env, "reembed", "--batch", "50")
    assert code == 0 and out.strip() == "embedded 0 beliefs and 0 episodes"
    code, _, err = _run(neo4j_env, "reembed", "--batch", "0")
    assert code == 2 and "--batch" in err
