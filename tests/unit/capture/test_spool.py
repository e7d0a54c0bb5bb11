"""The spool: redacted before the first byte, capped, marked, durable line by line."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from graphmem.capture import spool
from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent

AWS_KEY = "AKIA" + "PIX6EA6QOM66ZJOJ"


def _event(tmp_path: Path, **fields: object) -> HookEvent:
    base: dict[str, object] = {
        "host": "claude-code",
        "host_event": "PostToolUse",
        "kind": EventKind.POST_TOOL,
        "session_id": "s-1",
        "cwd": str(tmp_path),
    }
    return HookEvent(**{**base, **fields})  # type: ignore[arg-type]


def test_an_event_round_trips_with_its_offset(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path / "data", "alice", "s-1")
    first = _event(tmp_path, tool=SHELL_TOOL, command="pytest -q", output="1 failed", exit_code=1)
    second = _event(tmp_path, kind=EventKind.PROMPT, host_event="UserPromptSubmit", prompt="go")
    written = [spool.append(path, event, "shop", tmp_path) for event in (first, second)]
    records = list(spool.read(path))
    assert [r.event for r in records] == [first, second]
    assert [r.n for r in records] == [w.offset for w in written]
    assert records[0].n == 0 and records[1].n > 0
    assert {r.project for r in records} == {"shop"}


def test_secrets_are_redacted_before_the_first_byte_is_written(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path, "alice", "s-1")
    event = _event(
        tmp_path,
        command=f"export AWS_ACCESS_KEY_ID={AWS_KEY}",
        output=f"key {AWS_KEY[:4]} {AWS_KEY[4:8]} {AWS_KEY[8:12]} {AWS_KEY[12:16]} {AWS_KEY[16:]}",
        tool_input={"command": f"echo {AWS_KEY}", "nested": [{"k": AWS_KEY}]},
    )
    written = spool.append(path, event, "shop", tmp_path)
    raw = path.read_bytes()
    assert AWS_KEY.encode() not in raw and b"PIX6" not in raw
    assert written.redactions == 4
    (record,) = spool.read(path)
    assert record.redactions == 4
    assert spool.REDACTED in (record.event.command or "")


def test_long_fields_are_cut_and_named(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path, "alice", "s-1")
    spool.append(path, _event(tmp_path, output="x" * 50_000), "shop", tmp_path)
    (record,) = spool.read(path)
    assert len(record.event.output or "") == spool.MAX_FIELD_CHARS
    assert record.truncated == ("output",)


def test_a_full_session_gets_one_marker_then_drops_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(spool, "MAX_SESSION_BYTES", 2_000)
    path = spool.spool_file(tmp_path, "alice", "s-1")
    results = [
        spool.append(path, _event(tmp_path, output="y" * 300), "p", tmp_path) for _ in range(10)
    ]
    assert any(r.offset is None for r in results)
    records = list(spool.read(path))
    markers = [r for r in records if r.event.host_event == spool.TRUNCATED_SESSION]
    assert len(markers) == 1 and markers[0].truncated == ("session",)


@pytest.mark.parametrize(
    ("fields", "untrusted"),
    [
        ({"tool": "WebFetch"}, True),
        ({"tool": "mcp__github__get_issue"}, True),
        ({"tool": "Read", "paths": ("/etc/hosts",)}, True),
        ({"tool": "Read", "paths": ("src/app.py",)}, False),
        ({"tool": SHELL_TOOL, "command": "ls"}, False),
    ],
)
def test_content_from_outside_the_project_is_untrusted(
    tmp_path: Path, fields: dict[str, object], untrusted: bool
) -> None:
    path = spool.spool_file(tmp_path, "alice", "s-1")
    spool.append(path, _event(tmp_path, **fields), "shop", tmp_path)
    (record,) = spool.read(path)
    assert record.untrusted is untrusted


def test_a_torn_last_line_is_skipped_and_earlier_lines_survive(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path, "alice", "s-1")
    spool.append(path, _event(tmp_path, output="kept"), "shop", tmp_path)
    with path.open("ab") as torn:
        torn.write(b'{"at": "2026-12-04T00:00:00+00:00", "project": "shop", "ev')
    assert [r.event.output for r in spool.read(path)] == ["kept"]
    spool.append(path, _event(tmp_path, output="after the crash"), "shop", tmp_path)
    assert [r.event.output for r in spool.read(path)] == ["kept", "after the crash"]


def test_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path / "data", "alice", "s-1")
    old = os.umask(0)
    try:
        spool.append(path, _event(tmp_path), "shop", tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@pytest.mark.parametrize("session_id", ["../../etc/passwd", ".hidden", "a" * 300, "a/b"])
def test_a_session_id_never_leaves_the_spool_directory(tmp_path: Path, session_id: str) -> None:
    path = spool.spool_file(tmp_path, "alice", session_id)
    assert path.parent == tmp_path / spool.SPOOL_DIR / "alice"
    assert path.name.startswith("sha256-")


def _writer(path: str, cwd: str, worker: int) -> None:
    for index in range(50):
        event = _event(Path(cwd), output=f"worker {worker} event {index} " + "z" * 2_000)
        spool.append(Path(path), event, "shop", Path(cwd))


def test_concurrent_writers_never_interleave_lines(tmp_path: Path) -> None:
    path = spool.spool_file(tmp_path, "alice", "s-1")
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_writer, args=(str(path), str(tmp_path), w)) for w in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    records = list(spool.read(path))
    assert len(records) == 200
    assert len(path.read_bytes().splitlines()) == 200
