"""Long texts in overlapping windows, so the semantic view embeds all of a text.

MiniLM reads at most 256 tokens; a 2,000-character turn is about 500, and before
windows its second half never reached the semantic arm. A text longer than one
window is now cut, at WordPiece token boundaries (the embedder's own vocabulary),
into windows of :data:`WINDOW_TOKENS` tokens that overlap by :data:`OVERLAP_TOKENS`,
each embedded on its own; the view scores an item by its best window.

Windows are 128 tokens, not the 256 MiniLM can read: all-MiniLM-L6-v2 was trained on
sequences of 128 tokens, and a fact in a long window is diluted by the mean pooling
over the rest. On the long-chat development set (facts inside 1,700-character user
turns) the semantic arm's R@10 was 0.239 with 256-token windows and 0.406 with 128.

Each window's vector is stored under the id ``seq * WINDOW_SLOTS + window``, so one
item's windows are found, and removed, together. :data:`WINDOW_SLOTS` windows cover
about 800,000 tokens, more than the longest text graphmem accepts (1 MiB).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from graphmem.vectors.tokens import token_offsets

WINDOW_TOKENS = 126
"""Tokens in a window: MiniLM's training length of 128, less its [CLS] and [SEP]."""
OVERLAP_TOKENS = 32
"""Tokens two neighbouring windows share, so a sentence cut by one is whole in the next."""
WINDOW_SLOTS = 4_096
"""Window ids per item: ``seq * WINDOW_SLOTS + window``."""


def windows(text: str) -> list[str]:
    """``text`` as overlapping windows of at most :data:`WINDOW_TOKENS` tokens each.

    A text that fits one window is returned whole, as it is. Otherwise every token
    lies in at least one window, and the last window ends at the text's end.
    """
    if len(text) <= WINDOW_TOKENS:  # a token spans at least one character
        return [text]
    offsets = token_offsets(text)
    if len(offsets) <= WINDOW_TOKENS:
        return [text]
    stride = WINDOW_TOKENS - OVERLAP_TOKENS
    starts = list(range(0, len(offsets) - WINDOW_TOKENS, stride))
    starts.append(len(offsets) - WINDOW_TOKENS)
    starts = starts[:WINDOW_SLOTS]
    return [
        text[offsets[start][0] : offsets[min(start + WINDOW_TOKENS, len(offsets)) - 1][1]]
        for start in starts
    ]


def window_ids(seq: int, count: int) -> list[int]:
    """The vector ids of an item's ``count`` windows."""
    return [seq * WINDOW_SLOTS + window for window in range(count)]


def item_seqs(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The item seq of each window id."""
    result: npt.NDArray[np.int64] = ids // WINDOW_SLOTS
    return result
