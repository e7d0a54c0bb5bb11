"""Turns user text into a safe Lucene query: plain terms only, never query syntax."""

from __future__ import annotations

import re

MAX_TERMS = 64
"""Lucene refuses queries with too many clauses; long questions keep their first terms."""

_TERM = re.compile(r"\w+", re.UNICODE)


def lucene_terms(text: str) -> str:
    """Returns the words of ``text``, lowercased, space-separated (OR by default).

    Only word characters survive, so operators (``AND``, ``+``, ``:``, quotes,
    wildcards, ranges, backslashes) can never be interpreted; lowercasing also disarms
    the ``AND``/``OR``/``NOT`` keywords. Returns ``""`` when nothing searchable is left.
    """
    terms = [term.lower() for term in _TERM.findall(text)][:MAX_TERMS]
    return " ".join(terms)
