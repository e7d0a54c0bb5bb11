"""The textbook BM25 baseline that ``graphmem bench recall`` prints beside the arms.

Okapi BM25 (k1 1.5, b 0.75), one document per turn ``"(date) speaker: text"``,
lowercased word tokens, no stemming and no stop words, statistics over one
conversation's turns only; query terms count as often as they occur. Written
independently of graphmem's lexical view so the comparison means something.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

K1 = 1.5
B = 0.75
_WORD = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lowercased word tokens."""
    return _WORD.findall(text.lower())


class TextbookBM25:
    """BM25 over a fixed list of documents, each with an optional date."""

    def __init__(self, documents: Sequence[tuple[str, str, datetime | None]]) -> None:
        """Indexes ``(id, text, date)`` documents."""
        self._ids = [doc_id for doc_id, _, _ in documents]
        self._dates = [date for _, _, date in documents]
        self._tfs = [Counter(tokens(text)) for _, text, _ in documents]
        self._lengths = [sum(tf.values()) for tf in self._tfs]
        self._average = sum(self._lengths) / max(1, len(self._lengths))
        self._df: Counter[str] = Counter(term for tf in self._tfs for term in tf)

    def rank(self, query: str, k: int, as_of: datetime | None = None) -> list[str]:
        """The ``k`` best document ids for ``query`` (ties by position), dated ≤ ``as_of``."""
        count = len(self._ids)
        scores: list[tuple[float, int]] = []
        terms = tokens(query)
        for position, tf in enumerate(self._tfs):
            date = self._dates[position]
            if as_of is not None and date is not None and date > as_of:
                continue
            norm = K1 * (1 - B + B * self._lengths[position] / self._average)
            score = 0.0
            for term in terms:
                if term in tf:
                    df = self._df[term]
                    idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
                    score += idf * tf[term] * (K1 + 1) / (tf[term] + norm)
            if score > 0:
                scores.append((-score, position))
        return [self._ids[position] for _, position in sorted(scores)[:k]]
