"""The repeated broken run, end to end: the second session is told what the first learned.

Session 1 of each scenario breaks a project and fixes it after a reverted try, through
the real ``graphmem hook claude-code`` command, which starts graphmem's local server
itself (no configuration beyond graphmem's environment). Session 2 in the same project
then gets, from the same command: the dead end and the fix in its SessionStart brief,
both for a prompt that describes the error, the dead end before the command runs
again, and nothing for an unrelated prompt. One scenario repeats in a second project;
the dead end, corroborated in two projects, is then recalled in a third through
principal scope.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem import NotFound
from graphmem.capture import local_server
from tests.integration.capture.test_recorded_sessions import _client
from tests.integration.inject.scenarios import GO, SCENARIOS, UNRELATED_PROMPTS, Scenario

GRAPHMEM = Path(sys.executable).with_name("graphmem")


@pytest.fixture
def hook_env(neo4j_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """graphmem's own environment, local server on; stops the server it started."""
    environment = {**os.environ, **neo4j_env, "GRAPHMEM_HOOK_LOCAL": "on"}
    environment.pop("GRAPHMEM_HOOK_URL", None)
    yield environment
    running = local_server.running(neo4j_env["GRAPHMEM_DATA_DIR"], neo4j_env["GRAPHMEM_PRINCIPAL"])
    if running is not None:
        os.kill(running[1], signal.SIGTERM)


def _hook(environment: dict[str, str], payload: dict[str, Any]) -> str:
    """Runs the hook command as Claude Code does; returns its stdout (exit 0 asserted)."""
    done = subprocess.run(
        [str(GRAPHMEM), "hook", "claude-code"],
        input=json.dumps(payload).encode(),
        env=environment,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0
    return done.stdout.decode()


def _context(answer: str, event: str) -> str:
    """The additionalContext of a hook's answer ("" when it added nothing)."""
    if not answer:
        return ""
    output = json.loads(answer)["hookSpecificOutput"]
    assert output["hookEventName"] == event
    return str(output["additionalContext"])


def _wait_for_server(environment: dict[str, str]) -> None:
    deadline = time.monotonic() + 60
    data, principal = environment["GRAPHMEM_DATA_DIR"], environment["GRAPHMEM_PRINCIPAL"]
    while local_server.running(data, principal) is None:
        assert time.monotonic() < deadline, "the local server did not come up in 60 s"
        time.sleep(0.1)


def _consolidated(environment: dict[str, str], session_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        done = subprocess.run(
            [str(GRAPHMEM), "sessions", "show", session_id, "--json"],
            env=environment,
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            state: dict[str, Any] = json.loads(done.stdout)
            if state["state"] == "consolidated":
                return state
        assert time.monotonic() < deadline, f"session {session_id} was not consolidated"
        time.sleep(0.5)


def _break(
    environment: dict[str, str], scenario: Scenario, cwd: Path, *, first: bool = True
) -> dict[str, Any]:
    """Session 1: the broken run, fed event by event; returns its consolidated state.

    The first time, it forms a dead end and a lesson; a repeat reinforces them.
    """
    session_id = str(uuid.uuid4())
    payloads = scenario.broken_run(session_id, str(cwd))
    _hook(environment, payloads[0])
    _wait_for_server(environment)  # a real user takes longer than this to type
    for payload in payloads[1:]:
        _hook(environment, payload)
    state = _consolidated(environment, session_id)
    formed = {f["type"] for f in state["formed"]}
    if first:
        assert {"dead_end", "lesson"} <= formed, state["formed"]
    else:
        assert not formed and len(state["reinforced"]) >= 2, state
    return state


def _event(session_id: str, cwd: Path, name: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "transcript_path": f"/home/user/.claude/projects/x/{session_id}.jsonl",
        "cwd": str(cwd),
        "hook_event_name": name,
        **fields,
    }


def _project(tmp_path: Path, name: str) -> Path:
    cwd = tmp_path / name
    cwd.mkdir()
    (cwd / ".git").mkdir()
    return cwd


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_second_session_knows_the_dead_end_and_the_fix(
    hook_env: dict[str, str], tmp_path: Path, scenario: Scenario
) -> None:
    cwd = _project(tmp_path, f"shop-{scenario.name}")
    state = _break(hook_env, scenario, cwd)
    dead_end = next(f for f in state["formed"] if f["type"] == "dead_end")
    fix = next(f for f in state["formed"] if f["type"] == "lesson")
    assert scenario.distinctive in dead_end["statement"]

    second = str(uuid.uuid4())
    brief = _context(
        _hook(hook_env, _event(second, cwd, "SessionStart", source="startup")), "SessionStart"
    )
    assert dead_end["id"][-8:] in brief and fix["id"][-8:] in brief
    assert scenario.distinctive in brief
    assert len(brief) < 10_000

    prompted = _context(
        _hook(hook_env, _event(second, cwd, "UserPromptSubmit", prompt=scenario.error_prompt)),
        "UserPromptSubmit",
    )
    assert dead_end["id"][-8:] in prompted and fix["id"][-8:] in prompted
    trace = re.search(r"\(trace ([0-9a-f]{8})\)", prompted.splitlines()[0])
    assert trace is not None
    with _client(hook_env) as memory:  # cited as the agent sees it: by the short ids
        deadline = time.monotonic() + 30  # the server writes its traces in the background
        while True:
            try:
                cited = memory.cite(trace.group(1), [dead_end["id"][-8:]])
                break
            except NotFound:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    assert cited.added == [dead_end["id"]]

    before = _context(
        _hook(
            hook_env,
            _event(
                second,
                cwd,
                "PreToolUse",
                tool_name="Bash",
                tool_input={"command": scenario.command, "description": "Run the checks"},
                tool_use_id="toolu_again",
            ),
        ),
        "PreToolUse",
    )
    assert dead_end["id"][-8:] in before and scenario.distinctive in before

    for prompt in UNRELATED_PROMPTS:
        answer = _hook(hook_env, _event(second, cwd, "UserPromptSubmit", prompt=prompt))
        assert answer == "", f"{prompt!r} got {answer!r}"

    again = _hook(hook_env, _event(second, cwd, "UserPromptSubmit", prompt=scenario.error_prompt))
    assert again == ""  # injected once in a session

    deadline = time.monotonic() + 30  # the server writes its traces in the background
    while (shown := _shown(hook_env, second))["injections"] < 6:
        assert time.monotonic() < deadline, shown
        time.sleep(0.2)
    assert shown["injections"] == 6  # every answer above is a trace, empty ones too
    assert shown["injected_tokens"] > 0
    with _client(hook_env) as memory:
        (project,) = [p for p in memory.overview().projects if p.name == cwd.name]
    assert project.injected_sessions == 1  # session 1 was given nothing
    assert project.injected_tokens == shown["injected_tokens"]


def _shown(environment: dict[str, str], session_id: str) -> dict[str, Any]:
    done = subprocess.run(
        [str(GRAPHMEM), "sessions", "show", session_id, "--json"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    state: dict[str, Any] = json.loads(done.stdout)
    return state


def test_a_dead_end_seen_in_two_projects_reaches_a_third(
    hook_env: dict[str, str], tmp_path: Path
) -> None:
    first = _break(hook_env, GO, _project(tmp_path, "conf-api"))
    _break(hook_env, GO, _project(tmp_path, "conf-worker"), first=False)
    dead_end = next(f for f in first["formed"] if f["type"] == "dead_end")

    elsewhere = _project(tmp_path, "billing")
    session = str(uuid.uuid4())
    prompted = _context(
        _hook(hook_env, _event(session, elsewhere, "UserPromptSubmit", prompt=GO.error_prompt)),
        "UserPromptSubmit",
    )
    assert dead_end["id"][-8:] in prompted, prompted
