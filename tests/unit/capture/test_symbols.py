"""Which symbols an edit changed, found in the work tree (graphmem.capture.symbols)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphmem.capture.event import EventKind, HookEvent, SpoolRecord
from graphmem.capture.symbols import edited_symbols
from graphmem.content import symbol_key

SOURCE = """class Invoice:
    def total(self) -> int:
        return sum(line.cents for line in self.lines)

    def tax(self) -> int:
        return round(self.total() * 0.2)


def helper() -> int:
    return 1
"""


def _edit(n: int, path: str, tool: str = "Edit", **tool_input: Any) -> SpoolRecord:
    event = HookEvent(
        host="claude-code",
        session_id="s1",
        cwd="/w",
        host_event="PostToolUse",
        kind=EventKind.POST_TOOL,
        tool=tool,
        paths=(path,),
        tool_input={"file_path": path, **tool_input},
    )
    return SpoolRecord(n, "2026-01-01T00:00:00Z", "proj", event, False)


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "invoice.py").write_text(SOURCE)
    return tmp_path


def _key(qualname: str, kind: str) -> str:
    return symbol_key("python", "billing/invoice.py", qualname, kind)


def test_an_edit_lands_in_the_innermost_symbol_holding_its_new_text(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    records = [
        _edit(0, str(root / "billing/invoice.py"), old_string="x", new_string="round(self.total()"),
        _edit(1, "billing/invoice.py", old_string="x", new_string="class Invoice:\n    def total"),
    ]
    found = edited_symbols(records, root)
    assert [s.key for s in found[0]] == [_key("Invoice.tax", "method")]
    assert found[0][0].qualname == "Invoice.tax"
    assert found[0][0].hash.startswith("sha256:v1:")
    assert [s.key for s in found[1]] == [_key("Invoice", "class")]


def test_a_reverted_edit_is_found_by_its_old_text(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    record = _edit(
        0, "billing/invoice.py", old_string="return sum(line.cents", new_string="gone for good"
    )
    assert [s.key for s in edited_symbols([record], root)[0]] == [_key("Invoice.total", "method")]


def test_multiedit_gives_each_symbol_once_in_order(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    record = _edit(
        0,
        "billing/invoice.py",
        tool="MultiEdit",
        edits=[
            {"old_string": "x", "new_string": "def helper() -> int:"},
            {"old_string": "x", "new_string": "return sum(line.cents"},
            {"old_string": "x", "new_string": "    return 1"},
        ],
    )
    keys = [s.key for s in edited_symbols([record], root)[0]]
    assert keys == [
        symbol_key("python", "billing/invoice.py", "helper", "function"),
        _key("Invoice.total", "method"),
    ]


def test_no_symbol_is_guessed(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "notes.md").write_text("return sum(line.cents for line in self.lines)\n")
    (root.parent / "outside.py").write_text(SOURCE)
    records = [
        _edit(0, "billing/invoice.py", old_string="x", new_string="self"),  # too short
        _edit(1, "billing/invoice.py", old_string="x", new_string="-> int:"),  # found 3 times
        _edit(2, "billing/invoice.py", old_string="x", new_string="not in the file at all"),
        _edit(3, "notes.md", old_string="x", new_string="return sum(line.cents"),  # no grammar
        _edit(4, "../outside.py", old_string="x", new_string="return sum(line.cents"),
        _edit(5, str(root.parent / "outside.py"), old_string="x", new_string="return sum(line"),
        _edit(6, "missing.py", old_string="x", new_string="return sum(line.cents"),
        _edit(7, "billing/invoice.py", tool="Read", old_string="x", new_string="return sum(line"),
    ]
    assert edited_symbols(records, root) == {}


def test_a_file_that_does_not_parse_gives_no_symbol(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def broken(:\n    return total_amount\n")
    record = _edit(0, "broken.py", old_string="x", new_string="return total_amount")
    assert edited_symbols([record], tmp_path) == {}
