"""Recorded sessions, in Claude Code's own payloads, become the memory they should.

Each fixture of tests/data/sessions/claude-code is replayed through the real
`graphmem hook claude-code` (one process per event, as the host runs it) or posted to
`graphmem serve` at /hooks/claude-code, then consolidated with
`graphmem sessions consolidate`, against the real database. Both transports give the
same memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, NotFound
from graphmem.admin import Admin
from graphmem.cli import app
from graphmem.store.ids import new_id
from tests.integration.serve.conftest import HttpServer, stdio_client

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "sessions" / "claude-code"

runner = CliRunner()


def _payloads(fixture: str, cwd: Path) -> list[bytes]:
    """The fixture's lines, the recorded cwd replaced by ``cwd`` (a torn line kept)."""
    lines = (FIXTURES / f"{fixture}.jsonl").read_bytes().splitlines()
    out: list[bytes] = []
    for line in lines:
        try:
            payload = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        recorded = str(payload["cwd"])
        out.append(json.dumps(payload).replace(recorded, str(cwd)).encode())
    return out


def _session_id(fixture: str) -> str:
    first = (FIXTURES / f"{fixture}.jsonl").read_bytes().splitlines()[0]
    return str(json.loads(first)["session_id"])


def _work_tree(tmp_path: Path) -> Path:
    cwd = tmp_path / "proj"
    (cwd / ".git").mkdir(parents=True)
    return cwd


def _replay_by_command(env: dict[str, str], fixture: str, cwd: Path) -> None:
    for payload in _payloads(fixture, cwd):
        done = subprocess.run(
            [sys.executable, "-m", "graphmem", "hook", "claude-code"],
            input=payload,
            capture_output=True,
            env={**os.environ, **env},
            timeout=30,
        )
        assert (done.returncode, done.stdout) == (0, b"")


def _consolidate(env: dict[str, str], session_id: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sessions", "consolidate", session_id, "--json"], env=env)
    assert result.exit_code == 0, result.output
    (state,) = json.loads(result.stdout)
    shown = runner.invoke(app, ["sessions", "show", session_id, "--json"], env=env)
    assert json.loads(shown.stdout)["formed"] == state["formed"]
    return dict(state)


def _client(env: dict[str, str]) -> GraphMem:
    """A client for the environment's principal, server and data directory (not os.environ's)."""
    return GraphMem(
        env["GRAPHMEM_PRINCIPAL"],
        uri=env["GRAPHMEM_NEO4J_URI"],
        user=env["GRAPHMEM_NEO4J_USER"],
        password=env["GRAPHMEM_NEO4J_PASSWORD"],
        data_dir=env["GRAPHMEM_DATA_DIR"],
    )


def _kinds(state: dict[str, Any]) -> set[str]:
    return {signal["kind"] for signal in state["signals"]}


def _formed(state: dict[str, Any]) -> dict[str, list[str]]:
    formed: dict[str, list[str]] = {}
    for belief in state["formed"]:
        formed.setdefault(belief["type"], []).append(belief["statement"])
    return formed


def test_a_failing_test_fixed_after_a_dead_end(neo4j_env: dict[str, str], tmp_path: Path) -> None:
    _replay_by_command(neo4j_env, "dead-end-then-fix", _work_tree(tmp_path))
    state = _consolidate(neo4j_env, _session_id("dead-end-then-fix"))
    assert {"error", "retry", "dead_end", "fix", "test_command"} <= _kinds(state)
    formed = _formed(state)
    (dead_end,) = formed["dead_end"]
    assert "\\s*" in dead_end and "test_fractional_minutes" in dead_end
    (lesson,) = formed["lesson"]
    assert "test_fractional_minutes" in lesson and "passed after" in lesson
    assert state["state"] == "consolidated" and state["episode"]


def test_a_dependency_error_fixed_by_installing_it(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    _replay_by_command(neo4j_env, "dependency-install", _work_tree(tmp_path))
    state = _consolidate(neo4j_env, _session_id("dependency-install"))
    assert {"error", "fix", "test_command"} <= _kinds(state)
    (lesson,) = _formed(state)["lesson"]
    assert "pip install tomli-w" in lesson
    assert "ModuleNotFoundError: No module named 'tomli_w'" in lesson  # why, not which file


def test_a_rule_the_user_states_forms_a_preference(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    _replay_by_command(neo4j_env, "rule-in-prompt", _work_tree(tmp_path))
    state = _consolidate(neo4j_env, _session_id("rule-in-prompt"))
    assert "rule" in _kinds(state)
    (preference,) = _formed(state)["preference"]
    assert preference.startswith("Always run the tests with `python -m pytest`")


@pytest.mark.parametrize("fixture", ["read-only-readme", "hostile-webfetch"])
def test_reading_and_fetching_earn_nothing(
    neo4j_env: dict[str, str], tmp_path: Path, fixture: str
) -> None:
    _replay_by_command(neo4j_env, fixture, _work_tree(tmp_path))
    state = _consolidate(neo4j_env, _session_id(fixture))
    assert state["formed"] == [] and state["session_kind"] == "read_only"
    assert state["episode"]  # the session is still remembered as an episode


def test_the_hostile_page_is_marked_untrusted(neo4j_env: dict[str, str], tmp_path: Path) -> None:
    _replay_by_command(neo4j_env, "hostile-webfetch", _work_tree(tmp_path))
    result = runner.invoke(
        app, ["sessions", "show", _session_id("hostile-webfetch"), "--json"], env=neo4j_env
    )
    assert json.loads(result.stdout)["untrusted"] >= 1


def test_a_session_killed_half_way_is_taken_by_the_sweep(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    _replay_by_command(neo4j_env, "killed-midway", _work_tree(tmp_path))
    session_id = _session_id("killed-midway")
    shown = runner.invoke(app, ["sessions", "show", session_id, "--json"], env=neo4j_env)
    assert json.loads(shown.stdout)["state"] == "open"
    waiting = runner.invoke(app, ["sessions", "consolidate", "--json"], env=neo4j_env)
    assert json.loads(waiting.stdout) == []  # captured just now: not idle for 30 minutes
    sweep = ["sessions", "consolidate", "--idle-minutes", "0", "--json"]
    swept = runner.invoke(app, sweep, env=neo4j_env)
    assert swept.exit_code == 0
    (state,) = json.loads(swept.stdout)
    assert state["session_id"] == session_id and state["state"] == "consolidated"
    assert "The project's tests run with `cargo test`." in _formed(state)["fact"]
    again = runner.invoke(app, sweep, env=neo4j_env)
    assert json.loads(again.stdout) == []


def test_both_transports_give_the_same_memory(
    neo4j_env: dict[str, str], tmp_path: Path, http_server: HttpServer, admin: Admin
) -> None:
    fixture = "dead-end-then-fix"
    cwd = _work_tree(tmp_path)
    _replay_by_command(neo4j_env, fixture, cwd)
    by_command = _consolidate(neo4j_env, _session_id(fixture))
    principal = f"test-{new_id()}"
    token = admin.create_token(principal).secret
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for payload in _payloads(fixture, cwd):
        response = httpx2.post(
            http_server.url.replace("/mcp", "/hooks/claude-code"),
            content=payload,
            headers=headers,
            timeout=30,
        )
        assert response.status_code == 200
    by_http = _consolidate({**neo4j_env, "GRAPHMEM_PRINCIPAL": principal}, _session_id(fixture))
    assert _formed(by_http) == _formed(by_command)
    assert [s["kind"] for s in by_http["signals"]] == [s["kind"] for s in by_command["signals"]]


def test_forgetting_a_session_removes_its_spool_episodes_and_beliefs(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    fixture = "dead-end-then-fix"
    _replay_by_command(neo4j_env, fixture, _work_tree(tmp_path))
    session = _session_id(fixture)
    state = _consolidate(neo4j_env, session)
    forgot = runner.invoke(app, ["sessions", "forget", session, "--json"], env=neo4j_env)
    assert forgot.exit_code == 0, forgot.output
    shown = runner.invoke(app, ["sessions", "show", session, "--json"], env=neo4j_env)
    assert shown.exit_code == 4  # NotFound
    with _client(neo4j_env) as mem:
        with pytest.raises(NotFound):
            mem.get_episode(state["episode"])
        for formed in state["formed"]:
            with pytest.raises(NotFound):
                mem.get_belief(formed["id"])
        # tombstoned: the same session replayed again forms none of them
    _replay_by_command(neo4j_env, fixture, _work_tree(tmp_path / "again"))
    again = _consolidate(neo4j_env, session)
    assert again["formed"] == []
    assert {r["gate"] for r in again["rejected"]} >= {"rejection"}


def test_a_project_that_opted_out_captures_nothing(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    cwd = _work_tree(tmp_path)
    (cwd / ".graphmem.toml").write_text("capture = false\n")
    _replay_by_command(neo4j_env, "rule-in-prompt", cwd)
    listed = runner.invoke(app, ["sessions", "list", "--json"], env=neo4j_env)
    assert json.loads(listed.stdout) == []


def test_mcp_shows_the_same_session(neo4j_env: dict[str, str], tmp_path: Path) -> None:
    fixture = "rule-in-prompt"
    cwd = _work_tree(tmp_path)
    _replay_by_command(neo4j_env, fixture, cwd)
    state = _consolidate(neo4j_env, _session_id(fixture))

    async def scenario() -> None:
        async with stdio_client(neo4j_env, cwd) as mcp:
            listed = await mcp.call_tool("sessions", {})
            assert [s["session_id"] for s in listed.structured_content["sessions"]] == [
                _session_id(fixture)
            ]
            shown = await mcp.call_tool("session", {"session_id": _session_id(fixture)})
            assert shown.structured_content["formed"] == state["formed"]
            assert "preference" in shown.content[0].text

    anyio.run(scenario)
