"""The two BM25 baselines of ``bench recall``: the library's BM25Okapi, and Lucene's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rank_bm25 import BM25Okapi

from graphmem.bench.bm25 import LuceneBM25, OkapiBM25, lucene_tokens, okapi_tokens

DAY = datetime(2023, 5, 1, tzinfo=UTC)
CORPUS = [
    "The cat sat on the mat, and the cat slept.",
    "A dog chased the cat across the garden",
    "I adopted a dog from the shelter last spring",
    "the the the the",
    "Gardening tips: water the tomatoes at dawn",
    "My sister's wedding was in Lisbon; the dog stayed with a neighbour",
]


@pytest.mark.parametrize(
    "query", ["cat", "the dog", "the the cat cat", "where did my sister get married", "zebra"]
)
def test_okapi_scores_are_rank_bm25s_own(query: str) -> None:
    ours = OkapiBM25([(str(i), text, DAY) for i, text in enumerate(CORPUS)])
    library = BM25Okapi([okapi_tokens(text) for text in CORPUS])
    expected = library.get_scores(list(dict.fromkeys(okapi_tokens(query))))
    assert ours.scores(query) == pytest.approx(list(expected))


def test_okapi_gives_a_term_in_most_documents_the_floor_not_a_negative_idf() -> None:
    bm25 = OkapiBM25([(str(i), text, None) for i, text in enumerate(CORPUS)])
    library = BM25Okapi([okapi_tokens(text) for text in CORPUS])
    # "the" is in 5 of 6 documents: ln(1.5 / 5.5) < 0, so it weighs 0.25 x the mean idf.
    assert bm25.idf["the"] == pytest.approx(0.25 * library.average_idf)
    assert 0 < bm25.idf["the"] < bm25.idf["lisbon"]


def test_okapi_counts_a_repeated_query_word_once() -> None:
    bm25 = OkapiBM25([(str(i), text, None) for i, text in enumerate(CORPUS)])
    assert bm25.scores("cat cat cat") == bm25.scores("cat")


def test_lucene_drops_stop_words_and_possessives_and_stems() -> None:
    assert lucene_tokens("The sister's weddings were in Lisbon") == [
        "sister",
        "wed",
        "were",
        "lisbon",
    ]


def test_lucene_repeats_a_repeated_query_word_and_stems_matches() -> None:
    bm25 = LuceneBM25([(str(i), text, None) for i, text in enumerate(CORPUS)])
    assert set(bm25.rank("gardens", 10)) == {"1", "4"}  # garden/gardening share a stem
    once, twice = bm25.scores("dog"), bm25.scores("dog dog")
    assert twice == pytest.approx([2 * score for score in once])


def test_both_rank_only_matching_turns_dated_by_the_question() -> None:
    documents = [
        ("t1", "the cat sat on the mat", DAY),
        ("t2", "the dog chased the cat cat", DAY.replace(month=6)),
        ("t3", "nothing here", DAY),
    ]
    for baseline in (OkapiBM25, LuceneBM25):
        bm25 = baseline(documents)
        assert bm25.rank("cat", 10) == ["t2", "t1"]
        assert bm25.rank("cat", 10, as_of=DAY) == ["t1"]
        assert bm25.rank("unknown", 10) == []
