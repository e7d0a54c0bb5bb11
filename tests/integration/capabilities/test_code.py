"""Code on its own: indexing a tree, and anchors that drift when the code does."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.capabilities.code import Code
from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.errors import InvalidInput, NotFound
from graphmem.store.ids import new_id


def test_an_anchor_is_verified_then_drifts(context: Context, tmp_path: Path) -> None:
    code, memory = Code(context), Memory(context, Formation(context))
    source = tmp_path / "src"
    source.mkdir()
    module = source / "invoice.py"
    module.write_text("def total(lines):\n    return sum(lines)\n", encoding="utf-8")
    summary = code.index_code(source, "billing", workers=1)
    assert (summary.files_parsed, summary.symbols_added) == (1, 1)
    belief_id = memory.believe(
        "total() adds the lines as they are",
        project="billing",
        type="fact",
        anchor={"path": "invoice.py", "symbol": "total"},
    )
    assert code.anchor_status(belief_id).state == "verified"
    module.write_text("def total(lines):\n    return round(sum(lines), 2)\n", encoding="utf-8")
    again = code.index_code(source, "billing", workers=1)
    assert [(c.belief_id, c.after) for c in again.anchor_changes] == [(belief_id, "drifted")]
    assert [s.state for s in code.anchor_statuses([belief_id])] == ["drifted"]


def test_code_names_what_is_wrong(context: Context, tmp_path: Path) -> None:
    code = Code(context)
    with pytest.raises(InvalidInput) as caught:
        code.index_code(tmp_path, "not a name")
    assert caught.value.field == "project"
    with pytest.raises(NotFound) as missing:
        code.anchor_statuses([new_id()])
    assert missing.value.field == "belief_id"
