"""The recorded-session fixtures are well-formed Claude Code hook payloads.

Fields per event follow Claude Code's hooks reference (code.claude.com/docs/en/hooks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SESSIONS = Path(__file__).resolve().parents[2] / "data" / "sessions" / "claude-code"
FIXTURES = sorted(SESSIONS.glob("*.jsonl"))

COMMON = ("session_id", "transcript_path", "cwd", "hook_event_name")
# Events whose documented example carries permission_mode.
WITH_PERMISSION_MODE = {
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "SessionStart": ("source",),
    "UserPromptSubmit": ("prompt",),
    "PreToolUse": ("tool_name", "tool_input", "tool_use_id"),
    "PostToolUse": ("tool_name", "tool_input", "tool_response", "tool_use_id"),
    "PostToolUseFailure": ("tool_name", "tool_input", "tool_use_id", "error"),
    "Stop": ("stop_hook_active", "last_assistant_message"),
    "SubagentStop": ("stop_hook_active", "last_assistant_message", "agent_id"),
    "PreCompact": ("trigger",),
    "PostCompact": ("trigger", "compact_summary"),
    "SessionEnd": ("reason",),
}
SESSION_START_SOURCES = {"startup", "resume", "clear", "compact", "fork"}
SESSION_END_REASONS = {"clear", "resume", "logout", "prompt_input_exit", "other"}
SIGNAL_KINDS = {
    "error",
    "retry",
    "fix",
    "dead_end",
    "rule",
    "build_command",
    "test_command",
    "co_edited",
}
BELIEF_TYPES = {"dead_end", "lesson", "preference", "fact", "decision"}


def _expect(fixture: Path) -> dict[str, Any]:
    data = json.loads(fixture.with_name(fixture.stem + ".expect.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def _payloads(fixture: Path) -> list[dict[str, Any]]:
    lines = fixture.read_text("utf-8").splitlines()
    if _expect(fixture).get("truncated_last_line"):
        with pytest.raises(json.JSONDecodeError):
            json.loads(lines[-1])
        lines = lines[:-1]
    out = []
    for line in lines:
        obj = json.loads(line)
        assert isinstance(obj, dict)
        out.append(obj)
    return out


def test_there_are_fixtures() -> None:
    assert len(FIXTURES) >= 6
    assert all(f.with_name(f.stem + ".expect.json").is_file() for f in FIXTURES)
    assert len(list(SESSIONS.glob("*.expect.json"))) == len(FIXTURES)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_payloads_are_well_formed(fixture: Path) -> None:
    payloads = _payloads(fixture)
    assert payloads, "no payloads"
    assert payloads[0]["hook_event_name"] == "SessionStart"
    sessions = {p.get("session_id") for p in payloads}
    assert len(sessions) == 1, f"session_id varies: {sessions}"
    started: dict[str, dict[str, Any]] = {}
    finished: set[str] = set()
    for n, p in enumerate(payloads, 1):
        event = p.get("hook_event_name")
        assert event in REQUIRED, f"line {n}: unknown hook_event_name {event!r}"
        for key in COMMON:
            assert isinstance(p.get(key), str) and p[key], f"line {n}: no {key}"
        if event in WITH_PERMISSION_MODE:
            assert p.get("permission_mode") == "default", f"line {n}: permission_mode"
        for key in REQUIRED[event]:
            assert key in p, f"line {n}: {event} without {key}"
        if event == "SessionStart":
            assert p["source"] in SESSION_START_SOURCES
        if event == "SessionEnd":
            assert p["reason"] in SESSION_END_REASONS
            assert n == len(payloads), "SessionEnd is not last"
        if event == "Stop":
            assert isinstance(p["stop_hook_active"], bool)
            assert isinstance(p["last_assistant_message"], str)
        if event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
            assert isinstance(p["tool_name"], str) and p["tool_name"]
            assert isinstance(p["tool_input"], dict)
            assert isinstance(p["tool_use_id"], str) and p["tool_use_id"]
            if "duration_ms" in p:
                assert isinstance(p["duration_ms"], int) and p["duration_ms"] >= 0
        tool_id = p.get("tool_use_id", "")
        if event == "PreToolUse":
            assert tool_id not in started, f"line {n}: tool_use_id used twice"
            started[tool_id] = p
        if event in ("PostToolUse", "PostToolUseFailure"):
            pre = started.get(tool_id)
            assert pre is not None, f"line {n}: {event} with no PreToolUse before it"
            assert tool_id not in finished, f"line {n}: {tool_id} finished twice"
            assert pre["tool_name"] == p["tool_name"]
            assert pre["tool_input"] == p["tool_input"]
            finished.add(tool_id)
        if event == "PostToolUseFailure":
            assert isinstance(p["error"], str) and p["error"]
            assert isinstance(p.get("is_interrupt", False), bool)
            if p["tool_name"] == "Bash":
                assert p["error"].startswith("Exit code "), f"line {n}: Bash error"
        if event == "PostToolUse" and p["tool_name"] == "Bash":
            assert set(p["tool_response"]) >= {"stdout", "stderr", "interrupted", "isImage"}
        if event == "PostToolUse" and p["tool_name"] == "Read":
            response = p["tool_response"]
            assert response["type"] == "text"
            assert set(response["file"]) >= {
                "filePath",
                "content",
                "numLines",
                "startLine",
                "totalLines",
            }
        if event == "PostToolUse" and p["tool_name"] == "Edit":
            assert set(p["tool_response"]) >= {
                "filePath",
                "oldString",
                "newString",
                "structuredPatch",
                "userModified",
                "replaceAll",
            }
        if event == "PostToolUse" and p["tool_name"] == "Write":
            assert "filePath" in p["tool_response"]


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_a_cut_off_session_has_no_end(fixture: Path) -> None:
    payloads = _payloads(fixture)
    ended = payloads[-1]["hook_event_name"] == "SessionEnd"
    assert ended != bool(_expect(fixture).get("truncated_last_line"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_expect_is_well_formed(fixture: Path) -> None:
    expect = _expect(fixture)
    allowed = {
        "description",
        "source",
        "signals",
        "beliefs",
        "nothing_formed",
        "truncated_last_line",
        "untrusted",
    }
    assert set(expect) <= allowed, set(expect) - allowed
    assert isinstance(expect["description"], str) and expect["description"]
    assert isinstance(expect["source"], str) and expect["source"]
    assert isinstance(expect["nothing_formed"], bool)
    assert isinstance(expect.get("truncated_last_line", False), bool)
    assert isinstance(expect["signals"], list)
    for signal in expect["signals"]:
        assert set(signal) == {"kind", "detail"}
        assert signal["kind"] in SIGNAL_KINDS
        assert isinstance(signal["detail"], str) and signal["detail"]
    assert isinstance(expect["beliefs"], list)
    for belief in expect["beliefs"]:
        assert set(belief) == {"type", "contains"}
        assert belief["type"] in BELIEF_TYPES
        assert belief["contains"] and all(isinstance(c, str) and c for c in belief["contains"])
    if expect["nothing_formed"]:
        assert expect["beliefs"] == []
    untrusted = expect.get("untrusted", [])
    assert isinstance(untrusted, list) and all(isinstance(u, str) and u for u in untrusted)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_expected_text_is_in_the_session(fixture: Path) -> None:
    """Each signal detail and untrusted phrase is there to be found in the payloads."""
    text = fixture.read_text("utf-8")
    raw = "\n".join(json.dumps(p, ensure_ascii=False) for p in _payloads(fixture))
    expect = _expect(fixture)
    for signal in expect["signals"]:
        parts = signal["detail"].split() if signal["kind"] == "co_edited" else [signal["detail"]]
        for part in parts:
            assert part in text or part in raw or json.dumps(part)[1:-1] in text, part
    for phrase in expect.get("untrusted", []):
        assert phrase in raw, phrase
