"""Checkpoints: PreCompact and a long run of turns consolidate a session before it ends.

A session consolidated at a checkpoint and again at its end stays one session episode
(the later run's episode is a continuation PART_OF it), forms nothing twice, and reads
its signals over the whole spool: an error before the checkpoint and its fix after it
are one fix.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from graphmem.capture import spool
from graphmem.capture.handler import CHECKPOINT_BYTES
from tests.integration.capture.test_kill_capture import _start
from tests.integration.capture.test_recorded_sessions import (
    _client,
    _consolidate,
    _payloads,
    _session_id,
    _work_tree,
)

FIXTURE = "dead-end-then-fix"


def _split_before_the_passing_run(cwd: Path) -> tuple[list[bytes], list[bytes]]:
    """The fixture's events up to its last edit, and the rest (the run that passes)."""
    payloads = _payloads(FIXTURE, cwd)
    last_edit = max(i for i, p in enumerate(payloads) if b'"PostToolUse"' in p and b'"Edit"' in p)
    return payloads[: last_edit + 1], payloads[last_edit + 1 :]


def _send(env: dict[str, str], payloads: list[bytes]) -> None:
    for payload in payloads:
        assert _start(["hook", "claude-code"], env, payload).wait(30) == 0


def _wait_consolidated(env: dict[str, str], session: str, to_at_least: int) -> dict[str, object]:
    path = spool.spool_file(Path(env["GRAPHMEM_DATA_DIR"]), env["GRAPHMEM_PRINCIPAL"], session)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if spool.consolidated_to(path) >= to_at_least:
            saved: dict[str, object] = json.loads(spool.state_file(path).read_text())
            if saved.get("state") == "consolidated":
                return saved
        time.sleep(0.2)
    raise AssertionError(f"no consolidation reached offset {to_at_least}")


def test_a_session_consolidated_at_a_checkpoint_stays_one_episode(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    cwd = _work_tree(tmp_path)
    session = _session_id(FIXTURE)
    before, after = _split_before_the_passing_run(cwd)
    _send(neo4j_env, before)
    first = _consolidate(neo4j_env, session)
    assert "fix" not in {s["kind"] for s in first["signals"]}  # the passing run is to come
    _send(neo4j_env, [p for p in after if b'"SessionEnd"' not in p])
    second = _consolidate(neo4j_env, session)
    assert second["episode"] == first["episode"]
    assert len(second["episodes"]) == 2
    assert "fix" in {s["kind"] for s in second["signals"]}
    statements = [f["statement"] for f in second["formed"]]
    assert len(statements) == len(set(statements))
    assert {f["type"] for f in second["formed"]} >= {"dead_end", "lesson"}
    with _client(neo4j_env) as memory:
        continuation = memory.get_episode(second["episodes"][1])
        assert continuation.parent == first["episode"]
        assert continuation.kind == "task" and "(continued)" in continuation.title
        lesson = next(f for f in second["formed"] if f["type"] == "lesson")
        evidence = memory.get_belief(lesson["id"]).evidence
        assert [e.episode_id for e in evidence] == [continuation.id]


def test_precompact_checkpoints_in_the_background(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    cwd = _work_tree(tmp_path)
    session = _session_id(FIXTURE)
    before, _ = _split_before_the_passing_run(cwd)
    _send(neo4j_env, before)
    compact = {
        "session_id": session,
        "transcript_path": "/t",
        "cwd": str(cwd),
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "custom_instructions": "",
    }
    _send(neo4j_env, [json.dumps(compact).encode()])
    path = spool.spool_file(
        Path(neo4j_env["GRAPHMEM_DATA_DIR"]), neo4j_env["GRAPHMEM_PRINCIPAL"], session
    )
    last = list(spool.read(path))[-1].n
    saved = _wait_consolidated(neo4j_env, session, last)
    assert saved["episodes"]


def test_a_stop_checkpoints_only_after_enough_new_events(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    cwd = _work_tree(tmp_path)
    session = "long-session"
    path = spool.spool_file(
        Path(neo4j_env["GRAPHMEM_DATA_DIR"]), neo4j_env["GRAPHMEM_PRINCIPAL"], session
    )

    def event(name: str, **fields: object) -> bytes:
        base = {"session_id": session, "transcript_path": "/t", "cwd": str(cwd)}
        return json.dumps({**base, "hook_event_name": name, **fields}).encode()

    stop = event("Stop", stop_hook_active=False, last_assistant_message="done")
    _send(neo4j_env, [event("UserPromptSubmit", prompt="Always run ruff before committing."), stop])
    time.sleep(2)
    assert spool.consolidated_to(path) == 0 and not spool.state_file(path).exists()
    prompt = "Look at this log:\n" + "line of output\n" * 1200
    while path.stat().st_size < CHECKPOINT_BYTES:
        _send(neo4j_env, [event("UserPromptSubmit", prompt=prompt)])
    _send(neo4j_env, [stop])
    _wait_consolidated(neo4j_env, session, list(spool.read(path))[-1].n)
