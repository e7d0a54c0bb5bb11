"""How an import's statement pieces are grouped into transactions (no database)."""

from __future__ import annotations

import pytest

from graphmem.store import transfer
from graphmem.store.transfer import Piece


def pieces(*sizes: int) -> list[Piece]:
    return [(f"q{n}", [{"row": row} for row in range(size)]) for n, size in enumerate(sizes)]


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        ((), []),
        ((3,), [range(0, 1)]),
        ((2, 2, 2), [range(0, 2), range(2, 3)]),
        ((4, 1, 4), [range(0, 1), range(1, 2), range(2, 3)]),
        ((9, 1), [range(0, 1), range(1, 2)]),  # a piece over the limit goes alone
        ((1, 1, 1, 1, 1), [range(0, 4), range(4, 5)]),
    ],
)
def test_slices_hold_whole_pieces_up_to_the_row_limit(
    monkeypatch: pytest.MonkeyPatch, sizes: tuple[int, ...], expected: list[range]
) -> None:
    monkeypatch.setattr(transfer, "SLICE_ROWS", 4)
    assert transfer._slices(pieces(*sizes)) == expected
