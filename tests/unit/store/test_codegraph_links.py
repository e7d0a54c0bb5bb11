"""How a code batch's CONTAINS links split between positions and lookups."""

from __future__ import annotations

from graphmem.store.codegraph import CodeBatch, positional_links


def _batch() -> CodeBatch:
    return CodeBatch(
        files=[{"path": "a.py"}, {"path": "b.py"}],
        created=[{"key": "a.py::A"}, {"key": "a.py::A.f"}, {"key": "b.py::g"}],
        links=[
            {"child": "a.py::A", "parent": None, "path": "a.py"},
            {"child": "a.py::A.f", "parent": "a.py::A", "path": "a.py"},
            {"child": "b.py::g", "parent": None, "path": "b.py"},
            {"child": "b.py::h", "parent": "b.py::Old", "path": "b.py"},  # relinked, stored
        ],
    )


def test_new_symbols_in_new_symbols_or_files_are_linked_by_position() -> None:
    contains, _ = positional_links(_batch())

    assert contains == [[0, -1, 0], [1, 0, -1], [2, -1, 1]]


def test_a_link_to_or_from_a_stored_symbol_is_looked_up() -> None:
    batch = _batch()
    batch.links.append({"child": "b.py::g2", "parent": "b.py::Old", "path": "b.py"})
    batch.created.append({"key": "b.py::g2"})

    _, looked_up = positional_links(batch)

    assert [link["child"] for link in looked_up] == ["b.py::h", "b.py::g2"]
