"""A belief formed from a session's edits anchors to the symbol those edits changed.

The recorded session ``dead-end-then-fix`` is replayed into a work tree that holds the
file as the session left it: the fix's lesson names ``parse_duration`` and anchors to
it; the project's code graph then verifies the anchor, and a later change to the
function shows it drifted (demoted, never deleted).
"""

from __future__ import annotations

from pathlib import Path

from graphmem.content import symbol_key
from tests.integration.capture.test_recorded_sessions import (
    _client,
    _consolidate,
    _replay_by_command,
    _session_id,
    _work_tree,
)

LEFT_BY_THE_SESSION = '''"""Parse human durations such as '1h30m' into seconds."""

import re

_PART = re.compile(r"(\\d+(?:\\.\\d+)?)([hms])")
_UNIT = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Return the number of seconds in ``text``."""
    total = 0.0
    for amount, unit in _PART.findall(text):
        total += float(amount) * _UNIT[unit]
    return round(total)
'''

PARSE_DURATION = symbol_key("python", "src/durations.py", "parse_duration", "function")


def test_a_fix_anchors_to_the_function_it_changed(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    fixture = "dead-end-then-fix"
    cwd = _work_tree(tmp_path)
    source = cwd / "src" / "durations.py"
    source.parent.mkdir()
    source.write_text(LEFT_BY_THE_SESSION)
    _replay_by_command(neo4j_env, fixture, cwd)
    state = _consolidate(neo4j_env, _session_id(fixture))
    (fix,) = [s for s in state["signals"] if s["kind"] == "fix"]
    assert fix["symbols"] == [PARSE_DURATION]
    (lesson,) = [f for f in state["formed"] if f["type"] == "lesson"]
    assert "`parse_duration` in src/durations.py" in lesson["statement"]
    with _client(neo4j_env) as memory:
        belief = memory.get_belief(lesson["id"])
        assert belief.anchor_key == PARSE_DURATION
        assert belief.anchor_hash is not None
        assert memory.anchor_status(lesson["id"]).state == "unverifiable"  # no code graph yet
        memory.index_code(cwd, "proj")
        assert memory.anchor_status(lesson["id"]).state == "verified"
        source.write_text(LEFT_BY_THE_SESSION.replace("round(total)", "int(total)"))
        memory.index_code(cwd, "proj")
        assert memory.anchor_status(lesson["id"]).state == "drifted"
        (dead_end,) = [f for f in state["formed"] if f["type"] == "dead_end"]
        assert memory.get_belief(dead_end["id"]).anchor_key is None  # module level: no symbol


def test_edits_to_files_that_are_gone_anchor_nothing(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    fixture = "dead-end-then-fix"
    _replay_by_command(neo4j_env, fixture, _work_tree(tmp_path))
    state = _consolidate(neo4j_env, _session_id(fixture))
    assert all("symbols" not in s for s in state["signals"])
    (lesson,) = [f for f in state["formed"] if f["type"] == "lesson"]
    assert "parse_duration" not in lesson["statement"].split(" to ")[0]
    with _client(neo4j_env) as memory:
        assert memory.get_belief(lesson["id"]).anchor_key is None
