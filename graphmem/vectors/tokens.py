"""Token counts with the default embedder's own tokenizer (its WordPiece vocabulary).

Injected context is budgeted and measured in these tokens (docs/capture.md#injection):
the same tokenizer that embeds memory counts it, with no truncation, so a count is a
property of the text alone, the same on every machine.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokenizers import BertWordPieceTokenizer

_LOCK = threading.Lock()


@cache
def _tokenizer() -> BertWordPieceTokenizer:
    from tokenizers import BertWordPieceTokenizer

    from graphmem.vectors.minilm import VOCAB_SHA256, verified, vocab_path

    return BertWordPieceTokenizer(str(verified(vocab_path(), VOCAB_SHA256)), lowercase=True)


def count_tokens(text: str) -> int:
    """How many WordPiece tokens ``text`` is, without the special tokens.

    Args:
        text: Any text (empty counts 0).
    """
    if not text:
        return 0
    with _LOCK:
        encoding = _tokenizer().encode(text, add_special_tokens=False)
    return len(encoding.ids)


def token_offsets(text: str) -> list[tuple[int, int]]:
    """Each WordPiece token's (start, end) character offsets in ``text``, in order."""
    if not text:
        return []
    with _LOCK:
        encoding = _tokenizer().encode(text, add_special_tokens=False)
    return list(encoding.offsets)
