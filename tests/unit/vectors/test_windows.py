"""Long texts in overlapping windows: nothing cut, neighbours overlap, short texts whole."""

from __future__ import annotations

import itertools

import numpy as np

from graphmem.vectors.tokens import count_tokens
from graphmem.vectors.windows import (
    OVERLAP_TOKENS,
    WINDOW_SLOTS,
    WINDOW_TOKENS,
    item_seqs,
    window_ids,
    windows,
)

LONG = " ".join(
    f"Sentence {i} mentions the harbour at Porto and tile number {i}." for i in range(120)
)


def test_a_short_text_is_one_window_as_it_is() -> None:
    assert windows("I moved to Lisbon in May.") == ["I moved to Lisbon in May."]
    assert windows("") == [""]


def test_a_long_text_is_covered_end_to_end_by_windows_that_fit_the_model() -> None:
    parts = windows(LONG)
    assert len(parts) > 3
    assert all(count_tokens(part) <= WINDOW_TOKENS for part in parts)
    assert LONG.startswith(parts[0]) and LONG.endswith(parts[-1])
    for number in range(120):  # every sentence's last word lies in some window
        assert any(f"tile number {number}." in part for part in parts)


def test_neighbouring_windows_overlap() -> None:
    parts = windows(LONG)
    for left, right in itertools.pairwise(parts):
        shared = right[: len(right) // 5].strip()
        assert shared in left  # the overlap is OVERLAP_TOKENS tokens: a quarter
    assert OVERLAP_TOKENS < WINDOW_TOKENS // 2


def test_window_ids_map_back_to_their_item() -> None:
    ids = window_ids(7, 3) + window_ids(8, 1)
    assert ids == [7 * WINDOW_SLOTS, 7 * WINDOW_SLOTS + 1, 7 * WINDOW_SLOTS + 2, 8 * WINDOW_SLOTS]
    assert item_seqs(np.array(ids, dtype=np.int64)).tolist() == [7, 7, 7, 8]
