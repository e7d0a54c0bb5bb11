"""`kill -9` of the hook mid-write and of a consolidation mid-run, looped.

No lost acknowledged event, no corrupt spool line beyond the one being written, and no
duplicate episode or belief however often consolidation is killed and run again.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from graphmem.capture import spool
from graphmem.cli import app
from tests.integration.capture.test_recorded_sessions import (
    _client,
    _payloads,
    _session_id,
    _work_tree,
)

runner = CliRunner()


def _start(
    args: list[str], env: dict[str, str], stdin: bytes | None = None
) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **env},
    )
    if stdin is not None:
        assert process.stdin is not None
        process.stdin.write(stdin)
        process.stdin.close()
    return process


def test_killing_the_hook_mid_write_loses_only_that_event(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    rng = random.Random(9)
    cwd = _work_tree(tmp_path)
    big = "x" * 15_000
    acknowledged: list[str] = []
    for index in range(40):
        marker = f"event-{index}"
        payload = {
            "session_id": "killed",
            "transcript_path": "/t",
            "cwd": str(cwd),
            "hook_event_name": "UserPromptSubmit",
            "prompt": f"{marker} {big}",
        }
        process = _start(["hook", "claude-code"], neo4j_env, json.dumps(payload).encode())
        time.sleep(rng.uniform(0, 0.25))
        process.send_signal(signal.SIGKILL)
        if process.wait(30) == 0:
            acknowledged.append(marker)
    path = spool.spool_file(
        Path(neo4j_env["GRAPHMEM_DATA_DIR"]), neo4j_env["GRAPHMEM_PRINCIPAL"], "killed"
    )
    records = list(spool.read(path))
    kept = {(r.event.prompt or "").split(" ", 1)[0] for r in records}
    assert set(acknowledged) <= kept
    lines = path.read_bytes().splitlines() if path.exists() else []
    assert len(lines) - len(records) <= 40 - len(acknowledged)  # only killed writes are bad
    print(
        f"{len(acknowledged)} acknowledged, {len(records)} kept, {len(lines) - len(records)} torn"
    )


def test_killing_consolidation_mid_run_neither_loses_nor_doubles(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    fixture = "dead-end-then-fix"
    cwd = _work_tree(tmp_path)
    session = _session_id(fixture)
    for payload in _payloads(fixture, cwd):
        if b'"SessionEnd"' not in payload:  # its background consolidation would race ours
            _start(["hook", "claude-code"], neo4j_env, payload).wait(30)
    rng = random.Random(7)
    for _ in range(6):
        process = _start(["sessions", "consolidate", session], neo4j_env)
        time.sleep(rng.uniform(0.2, 2.5))
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    done = runner.invoke(app, ["sessions", "consolidate", session, "--json"], env=neo4j_env)
    assert done.exit_code == 0, done.output
    with _client(neo4j_env) as memory:
        state = memory.session(session)
        assert state.state == "consolidated"
        assert len(set(state.episodes)) == 1
        beliefs = memory.list_beliefs(project="proj")
        statements = [b.statement for b in beliefs]
        assert len(statements) == len(set(statements))
        assert {b.type.value for b in beliefs} >= {"dead_end", "lesson"}
        assert {f.type for f in state.formed} >= {"dead_end", "lesson"}
