"""Rule-based name extraction: what is a name, how it is normalised, what is not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.entities.extract import MAX_NAMES, EntityKind, Name, extract, names_of
from graphmem.entities.mentions import batched, belief_mentions, episode_mentions


def _names(text: str) -> dict[str, EntityKind]:
    return {name.name: name.kind for name in names_of([text])}


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("the fix is in graphmem/recall/arms.py now", "graphmem/recall/arms.py", EntityKind.PATH),
        ("see src/x/y.py", "src/x/y.py", EntityKind.PATH),
        ("we call os.path.join here", "os.path.join", EntityKind.DOTTED),
        ("rename reached_from soon", "reached_from", EntityKind.IDENTIFIER),
        ("the GraphArm class", "grapharm", EntityKind.IDENTIFIER),
        ("it raised KeyError again", "keyerror", EntityKind.ERROR),
        ("got ECONNREFUSED on connect", "econnrefused", EntityKind.ERROR),
        ("run pip install httpx==0.27 first", "httpx", EntityKind.PACKAGE),
        ("then from numpy import array", "numpy", EntityKind.PACKAGE),
        ("see ticket FIN-212 for why", "fin-212", EntityKind.IDENTIFIER),
        ("we opened the Neo4j Browser", "neo4j browser", EntityKind.PROPER),
        ("I flew to New York in spring", "new york", EntityKind.PROPER),
        ("we met at the Museum of Modern Art", "museum of modern art", EntityKind.PROPER),
        ("I talked to Caroline's sister", "caroline", EntityKind.PROPER),
    ],
)
def test_names_and_their_kinds(text: str, name: str, kind: EntityKind) -> None:
    assert _names(text).get(name) == kind


@pytest.mark.parametrize(
    "text",
    [
        "The cat sat. What did you do? When is it?",  # capitalised function words
        "Thanks for that! Yesterday was long. Wow.",  # sentence openers
        "It was on 8 May 2023, a Friday, in June.",  # dates are not names
        "42 and 3.14 and 2023",  # numbers
        "e.g. this, i.e. that, and/or the other",  # abbreviations, not paths
        "Talked to the team. Retry storm again.",  # a lone opener is not a name
    ],
)
def test_what_is_not_a_name(text: str) -> None:
    assert _names(text) == {}


def test_a_sentence_opener_is_a_name_when_marked_or_seen_mid_sentence() -> None:
    assert "caroline" in _names("Caroline: I went home")  # a speaker
    assert "jon" in _names("Jon, that is great")
    assert "melanie" in _names("Melanie left early. We waved to Melanie.")
    assert "melanie" not in _names("Melanie left early.")


def test_leading_function_words_are_trimmed_from_a_run() -> None:
    assert _names("Hey Mel, the Golden Gate Bridge!") == {
        "mel": EntityKind.PROPER,
        "golden gate bridge": EntityKind.PROPER,
    }


def test_names_of_merges_texts_and_paths_sorted_unique_and_capped() -> None:
    names = names_of(["KeyError in arms", "another KeyError"], ["billing/invoice.py"])
    assert names == [
        Name("billing/invoice.py", EntityKind.PATH),
        Name("keyerror", EntityKind.ERROR),
    ]
    many = " ".join(f"call_{i}" for i in range(3 * MAX_NAMES))
    capped = names_of([many])
    assert len(capped) == MAX_NAMES
    assert capped == sorted(capped)
    assert Name("call_0", EntityKind.IDENTIFIER) in capped  # the first found are kept


def test_mentions_come_from_free_text_not_item_lists() -> None:
    episode = {
        "title": "KeyError in billing",
        "text": None,
        "observations": ["ZeroDivisionError in cart"],
        "paths": ["billing/invoice.py"],
    }
    assert episode_mentions(episode) == [
        {"name": "billing/invoice.py", "kind": "path"},
        {"name": "keyerror", "kind": "error"},
    ]
    assert belief_mentions({"statement": "Use httpx", "subject": "HttpClient"}) == [
        {"name": "httpclient", "kind": "identifier"}
    ]


@given(st.text(max_size=400))
def test_extraction_is_deterministic_bounded_and_normalised(text: str) -> None:
    first = names_of([text])
    assert first == names_of([text])
    assert len(first) <= MAX_NAMES
    assert first == sorted(set(first))
    for name in first:
        assert name.name == name.name.lower() and any(c.isalpha() for c in name.name)
    assert {n.name for n in extract(text)} >= {n.name for n in first}


def test_a_batch_names_each_entity_once_and_rows_point_into_it() -> None:
    error = {"name": "keyerror", "kind": "error"}
    path = {"name": "a/b.py", "kind": "path"}
    names, positions = batched([[error, path], [], [error]])
    assert names == [path, error]
    assert positions == [[1, 0], [], [1]]


@pytest.mark.parametrize(
    "text",
    [
        "use my" + "HTTPSURLPARSERCONFIG" * 3 + "X." * 1,
        "the id is ab" + "QWERTYUIOPASDFGHJKLZXCV" * 3 + ".",
        "x_" * 2_000 + ".",
        "a." * 3_000 + "(",
    ],
)
def test_pathological_text_is_read_in_one_pass(text: str) -> None:
    # A nested repetition once backtracked exponentially here (hours for 60 capitals),
    # inside the write transaction: this returning at all is the check.
    assert isinstance(extract(text), list)
