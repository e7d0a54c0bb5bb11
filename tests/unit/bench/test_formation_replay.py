"""The replay benchmark's pure parts: the corpus and labels it reads, how it matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.bench.formation_replay import (
    Labels,
    _context_text,
    _fabricated,
    contains,
    event_text,
    load_corpus,
)
from graphmem.capture.event import EventKind, HookEvent
from graphmem.errors import InvalidInput


def _session(directory: Path, name: str, lines: list[str]) -> None:
    (directory / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_sessions_load_in_name_order_with_their_labels(tmp_path: Path) -> None:
    _session(tmp_path, "002-b.jsonl", [json.dumps({"session_id": "b"})])
    _session(tmp_path, "001-a.jsonl", [json.dumps({"session_id": "a"}), '{"torn'])
    labels = {"002-b.jsonl": {"hostile": True, "should_remember": ["pnpm install"]}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    first, second = load_corpus(tmp_path)
    assert (first.name, first.unreadable, first.labels) == ("001-a.jsonl", 1, Labels())
    assert second.labels == Labels(should_remember=("pnpm install",), hostile=True)


@pytest.mark.parametrize(
    ("labels", "field", "rule"),
    [
        ({"a.jsonl": {"remember": ["x"]}}, "a.jsonl.remember", "known_key"),
        ({"a.jsonl": {"hostile": "yes"}}, "a.jsonl.hostile", "boolean"),
        ({"a.jsonl": {"replaces": "npm"}}, "a.jsonl.replaces", "phrases"),
        ({"a.jsonl": {"replaces": [""]}}, "a.jsonl.replaces", "phrases"),
        ({"gone.jsonl": {}}, "gone.jsonl", "session_file"),
    ],
)
def test_bad_labels_name_the_field_and_rule(
    tmp_path: Path, labels: dict[str, object], field: str, rule: str
) -> None:
    _session(tmp_path, "a.jsonl", ["{}"])
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    with pytest.raises(InvalidInput) as raised:
        load_corpus(tmp_path)
    assert (raised.value.field, raised.value.rule) == (field, rule)


def test_a_directory_without_sessions_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as raised:
        load_corpus(tmp_path)
    assert raised.value.field == "replay"


def test_phrases_match_whole_words_ignoring_case() -> None:
    assert contains("Use pnpm install from now on", "PNPM install")
    assert not contains("Use pnpm install from now on", "npm install")
    assert contains("tried (cart.items || []) first", "(cart.items || [])")
    assert not contains("pytest -q", "pytest -qx")


def test_a_word_in_neither_the_events_nor_a_template_is_fabricated() -> None:
    said = {"pytest", "q", "src", "money", "py"}
    assert not _fabricated("The project's tests run with `pytest -q`.", said)
    assert _fabricated("The project's tests run with `pytest -q` on Python 3.12.", said)


def test_host_output_gives_the_context_text_only() -> None:
    output = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "dead end"}}
    )
    assert _context_text(output) == "dead end"
    assert _context_text("") == ""


def test_a_raw_memory_holds_what_the_event_said() -> None:
    event = HookEvent(
        host="claude-code",
        host_event="PostToolUse",
        kind=EventKind.POST_TOOL,
        session_id="s",
        cwd="/w",
        tool="Edit",
        tool_input={"file_path": "/w/a.py", "old_string": "x = 1", "new_string": "x = 2"},
        output="ok",
    )
    assert event_text(event) == "x = 2\nx = 1\nok"
