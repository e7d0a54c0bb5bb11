"""Transfer on its own: an export read back in, and files that cannot be used."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.transfer import Transfer
from graphmem.errors import InvalidInput


def test_export_then_import_is_already_present(context: Context, tmp_path: Path) -> None:
    memory, transfer = Memory(context, Formation(context)), Transfer(context)
    memory.believe("Exports are JSON Lines", project="ops", type="fact")
    path = tmp_path / "memory.jsonl"
    written = transfer.export(path)
    assert written.records["belief"] == 1
    stream = io.StringIO()
    assert transfer.export(stream).sha256 == written.sha256
    assert transfer.import_memory(path).already_present


def test_unusable_files_name_the_argument(context: Context, tmp_path: Path) -> None:
    transfer = Transfer(context)
    with pytest.raises(InvalidInput) as missing:
        transfer.import_memory(tmp_path / "absent.jsonl")
    assert (missing.value.field, missing.value.rule) == ("source", "file")
    with pytest.raises(InvalidInput) as unwritable:
        transfer.export(tmp_path / "absent" / "out.jsonl")
    assert (unwritable.value.field, unwritable.value.rule) == ("out", "file")
