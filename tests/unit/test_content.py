"""Content rules: the subject a missed query counts under."""

from __future__ import annotations

import pytest

from graphmem.content import plain_text, query_subject
from graphmem.models import MAX_SUBJECT_CHARS


@pytest.mark.parametrize(
    "query",
    [
        "How do we round invoices?",
        "how do we round invoices",
        "  HOW   do we\tround invoices!!  ",
        "how, do we round... invoices",
    ],
)
def test_case_punctuation_and_spacing_do_not_matter(query: str) -> None:
    assert query_subject(query) == "how do we round invoices"


def test_words_and_their_order_do() -> None:
    assert query_subject("invoice rounding") != query_subject("rounding invoice")
    assert query_subject("invoice rounding") != query_subject("invoices rounding")


def test_unicode_is_folded_compatibly() -> None:
    assert query_subject("ÉTÉ ﬁle Straße") == "été file strasse"
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in "Deploy")
    assert query_subject(f"{full_width} day") == "deploy day"


@pytest.mark.parametrize("query", ["???", "  ", "--- !!! ..."])
def test_a_query_without_words_has_no_subject(query: str) -> None:
    assert query_subject(query) is None


def test_long_queries_are_cut_at_a_word() -> None:
    subject = query_subject("deploy " * 100)
    assert subject is not None
    assert len(subject) <= MAX_SUBJECT_CHARS and not subject.endswith(" ")
    assert subject.split(" ") == ["deploy"] * len(subject.split(" "))
    one_word = query_subject("x" * 1_000)
    assert one_word == "x" * MAX_SUBJECT_CHARS


def test_plain_text_leaves_out_terminal_sequences_and_control_characters() -> None:
    quoted = "\x1b[1;31mred\x1b[0m\tbell\x07\r\nrub\x7fout \x1b]0;title\x1b\\c1\x85 end"
    assert plain_text(quoted) == "red\tbell\r\nrubout c1 end"
    assert plain_text("plain text, ünïcode ✓") == "plain text, ünïcode ✓"
