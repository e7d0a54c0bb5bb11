"""A batch's values once each, and each row's values as positions in them."""

from __future__ import annotations

from graphmem.store.writes import positions


def test_values_once_sorted_and_rows_by_position() -> None:
    values, rows = positions([["web", "api"], ["api"], ["api", "api", "cli"], []])
    assert values == ["api", "cli", "web"]
    assert rows == [[2, 0], [0], [0, 1], []]  # a row's repeat is kept once, in order


def test_an_empty_batch() -> None:
    assert positions([]) == ([], [])
