r"""The two BM25 baselines ``graphmem bench recall`` prints beside the arms.

A user comparing graphmem with "plain BM25" has one of two in mind, so both run over
the same turns in the same run, and every claim is made against the better of the two:

- :class:`OkapiBM25`: BM25Okapi as the ``rank_bm25`` library defines it. Lowercased
  ``\w+`` tokens; the query's distinct terms; idf ``ln((N - df + 0.5) / (df + 0.5))``,
  where a negative idf becomes 0.25 times the mean idf of the vocabulary; k1 1.5, b 0.75.
- :class:`LuceneBM25`: what a Lucene ``EnglishAnalyzer`` index scores. English
  possessives dropped, Lucene's English stop words removed, Porter stemming; idf
  ``ln(1 + (N - df + 0.5) / (df + 0.5))``; k1 1.2, b 0.75; a query word repeated is a
  clause repeated.

One document per turn, ``"(date) speaker: text"``, statistics over one conversation's
turns. Written independently of graphmem's lexical view so the comparison means
something; ``tests/unit/bench/test_bm25_baselines.py`` holds :class:`OkapiBM25` to the
library's own scores.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import Stemmer

_WORD = re.compile(r"\w+", re.UNICODE)
_POSSESSIVE = re.compile("(\\w)['\u2019]s\\b", re.UNICODE)
LUCENE_ENGLISH_STOP_WORDS = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the
    their then there these they this to was will with""".split()  # noqa: SIM905
)
"""Lucene's ``EnglishAnalyzer.ENGLISH_STOP_WORDS_SET``."""
_PORTER = Stemmer.Stemmer("porter")

Document = tuple[str, str, datetime | None]
"""A turn to rank: its id, its text and when it happened."""


def okapi_tokens(text: str) -> list[str]:
    """Lowercased word tokens, as a whitespace-and-punctuation split gives them."""
    return _WORD.findall(text.lower())


def lucene_tokens(text: str) -> list[str]:
    """Lowercased words, possessives and English stop words dropped, Porter-stemmed."""
    words = _WORD.findall(_POSSESSIVE.sub(r"\1", text.lower()))
    kept = [word for word in words if word not in LUCENE_ENGLISH_STOP_WORDS]
    return [str(stem) for stem in _PORTER.stemWords(kept)]


class _BM25:
    """Okapi BM25 over a fixed list of dated documents; subclasses set idf and analysis."""

    k1: float
    b: float

    def __init__(self, documents: Sequence[Document]) -> None:
        """Indexes ``(id, text, date)`` documents."""
        self._ids = [doc_id for doc_id, _, _ in documents]
        self._dates = [date for _, _, date in documents]
        self._tfs = [Counter(self._analyse(text)) for _, text, _ in documents]
        self._lengths = [sum(tf.values()) for tf in self._tfs]
        self._average = sum(self._lengths) / max(1, len(self._lengths))
        self._df: Counter[str] = Counter(term for tf in self._tfs for term in tf)
        self.idf = self._idf(len(self._ids))

    def _analyse(self, text: str) -> list[str]:
        raise NotImplementedError

    def _idf(self, count: int) -> dict[str, float]:
        raise NotImplementedError

    def _query(self, text: str) -> list[str]:
        raise NotImplementedError

    def scores(self, query: str) -> list[float]:
        """Every document's score for ``query``, in document order."""
        terms = self._query(query)
        scores: list[float] = []
        for position, tf in enumerate(self._tfs):
            norm = self.k1 * (1 - self.b + self.b * self._lengths[position] / self._average)
            scores.append(
                sum(
                    self.idf[term] * tf[term] * (self.k1 + 1) / (tf[term] + norm)
                    for term in terms
                    if term in tf
                )
            )
        return scores

    def rank(self, query: str, k: int, as_of: datetime | None = None) -> list[str]:
        """The ``k`` best document ids for ``query`` dated ≤ ``as_of`` (ties by position).

        Only documents that hold a query term are ranked.
        """
        terms = set(self._query(query))
        ranked = sorted(
            (-score, position)
            for position, score in enumerate(self.scores(query))
            if _dated_by(self._dates[position], as_of) and not terms.isdisjoint(self._tfs[position])
        )
        return [self._ids[position] for _, position in ranked[:k]]


def _dated_by(date: datetime | None, as_of: datetime | None) -> bool:
    return as_of is None or date is None or date <= as_of


class OkapiBM25(_BM25):
    """BM25Okapi exactly as ``rank_bm25`` defines it (query terms as a set)."""

    k1 = 1.5
    b = 0.75
    epsilon = 0.25

    def _analyse(self, text: str) -> list[str]:
        return okapi_tokens(text)

    def _idf(self, count: int) -> dict[str, float]:
        raw = {t: math.log(count - df + 0.5) - math.log(df + 0.5) for t, df in self._df.items()}
        floor = self.epsilon * sum(raw.values()) / max(1, len(raw))
        return {term: floor if idf < 0 else idf for term, idf in raw.items()}

    def _query(self, text: str) -> list[str]:
        return list(dict.fromkeys(okapi_tokens(text)))


class LuceneBM25(_BM25):
    """BM25 as a Lucene ``EnglishAnalyzer`` index with ``BM25Similarity`` scores it."""

    k1 = 1.2
    b = 0.75

    def _analyse(self, text: str) -> list[str]:
        return lucene_tokens(text)

    def _idf(self, count: int) -> dict[str, float]:
        return {t: math.log(1 + (count - df + 0.5) / (df + 0.5)) for t, df in self._df.items()}

    def _query(self, text: str) -> list[str]:
        return lucene_tokens(text)


BASELINES: dict[str, type[_BM25]] = {"bm25_okapi": OkapiBM25, "bm25_lucene": LuceneBM25}
"""The baselines by the name their figures carry in a report."""
