"""`graphmem hook claude-code` as the host runs it: one process per event, always exit 0.

No database: capture only appends to the spool. Each test runs the real console entry
(`python -m graphmem hook claude-code`) in a fresh process with its own data directory.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphmem.capture import spool

BUDGET = 1.5
"""Seconds the host gives a SessionEnd hook; every hook here must finish inside it."""

HEAVY = ("neo4j", "pydantic", "typer", "numpy", "faiss", "onnxruntime", "tokenizers")


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GRAPHMEM_DATA_DIR": str(tmp_path / "data"),
        "GRAPHMEM_PRINCIPAL": "alice",
    }


def _hook(tmp_path: Path, stdin: bytes) -> tuple[subprocess.CompletedProcess[bytes], float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "graphmem", "hook", "claude-code"],
        input=stdin,
        capture_output=True,
        env=_env(tmp_path),
        timeout=30,
    )
    return done, time.monotonic() - started


def _payload(tmp_path: Path, **fields: object) -> dict[str, object]:
    return {
        "session_id": "abc-123",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path / "shop"),
        "permission_mode": "default",
        **fields,
    }


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    (tmp_path / "shop" / ".git").mkdir(parents=True)
    return tmp_path / "shop"


def test_a_failed_command_is_captured_in_the_spool(tmp_path: Path, shop: Path) -> None:
    payload = _payload(
        tmp_path,
        hook_event_name="PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "pytest -q tests/test_tax.py"},
        tool_use_id="toolu_01",
        error="Exit code 1\nE   AssertionError: assert 19 == 20\n1 failed in 0.12s",
        is_interrupt=False,
    )
    done, _ = _hook(tmp_path, json.dumps(payload).encode())
    assert (done.returncode, done.stdout) == (0, b"")
    (record,) = spool.read(spool.spool_file(tmp_path / "data", "alice", "abc-123"))
    assert (record.project, record.event.command, record.event.exit_code) == (
        "shop",
        "pytest -q tests/test_tax.py",
        1,
    )
    assert record.event.failed


def test_the_hot_path_imports_no_heavy_library(tmp_path: Path) -> None:
    probe = (
        "import sys, runpy; sys.argv = ['graphmem', 'hook', 'claude-code'];"
        "import graphmem.launcher as l\n"
        "try:\n    l.main()\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], input=b"{}", capture_output=True, env=_env(tmp_path)
    )
    assert done.stdout.strip().endswith(b"[]"), done.stdout


def _malformed(rng: random.Random, shop: Path) -> bytes:
    choice = rng.randrange(9)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    if choice == 1:
        return b"[" * rng.randrange(1, 200_000)
    if choice == 2:
        return (
            b'{"session_id": "s", "cwd": "'
            + str(shop).encode()
            + b'", "x": "'
            + b"a" * 10_000_000
            + b'"}'
        )
    if choice == 3:
        return b'{"session_id": "s\x00", "hook_event_name": "Stop"}'
    if choice == 4:
        return b'{"session_id": "\\ud800", "cwd": "/", "hook_event_name": "Stop"}'
    if choice == 5:
        return b'{"hook_event_name": "PostToolUse", "session_id": 7}'
    if choice == 6:
        return (
            b'{"session_id": "s", "cwd": "'
            + str(shop).encode()
            + b'", "hook_event_name": "'
            + rng.choice([b"Nope", b"", b"PreToolUse"])
            + b'", "tool_input": "x"}'
        )
    if choice == 7:
        return b""
    return (
        b'{"session_id": "s", "cwd": "'
        + str(shop).encode()
        + b'", "hook_event_name": "UserPromptSubmit", "prompt": "caf\xe9"}'
    )


def test_500_malformed_payloads_all_exit_0_within_the_budget(tmp_path: Path, shop: Path) -> None:
    rng = random.Random(34)
    slowest = 0.0
    for _ in range(500):
        stdin = _malformed(rng, shop)
        done, seconds = _hook(tmp_path, stdin)
        assert done.returncode == 0, (stdin[:100], done.stderr[-500:])
        assert done.stdout in (b"",), done.stdout[:200]
        slowest = max(slowest, seconds)
        assert seconds < BUDGET, (stdin[:100], seconds)
    print(f"500 of 500 exited 0; slowest {slowest * 1000:.0f} ms")
    undecodable = spool.spool_file(tmp_path / "data", "alice", "s")
    for record in spool.read(undecodable):
        assert "\ufffd" not in json.dumps(record.event.to_record(), ensure_ascii=False)


FIXTURES = Path(__file__).resolve().parents[2] / "data" / "sessions" / "claude-code"


@pytest.mark.parametrize("fixture", sorted(p.stem for p in FIXTURES.glob("*.jsonl")))
def test_each_recorded_session_replays_one_process_per_event(tmp_path: Path, fixture: str) -> None:
    lines = (FIXTURES / f"{fixture}.jsonl").read_bytes().splitlines()
    session_ids = set()
    cwd = tmp_path / "replay"
    (cwd / ".git").mkdir(parents=True)
    for line in lines:
        try:
            payload = json.loads(line)
        except ValueError:
            payload = None
        if isinstance(payload, dict):
            session_ids.add(payload["session_id"])
            payload["cwd"] = str(cwd)  # the recorded cwd does not exist here
            line = json.dumps(payload).encode()
        done, seconds = _hook(tmp_path, line)
        assert done.returncode == 0 and seconds < BUDGET
    (session_id,) = session_ids
    records = list(spool.read(spool.spool_file(tmp_path / "data", "alice", session_id)))
    readable = sum(1 for line in lines if _is_object(line))
    assert len(records) == readable
    assert {record.project for record in records} == {"replay"}


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
