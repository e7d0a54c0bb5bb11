"""Content rules every path shares: comparing, digesting and keying content.

Formation, corrections, forgetting and recall all compare content through these
functions, so two paths can never disagree on whether two statements are the same;
code anchors and the store name symbols with the same key format.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from graphmem.limits import CONTROL_PATTERN, MAX_SUBJECT_CHARS, NAME_PATTERN


def is_name(value: object) -> bool:
    """Whether ``value`` is a valid principal or project name (:data:`NAME_PATTERN`)."""
    return isinstance(value, str) and re.fullmatch(NAME_PATTERN, value) is not None


_TERMINAL_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
"""An ANSI control or operating-system sequence (colours, cursor moves, window titles)."""

_CONTROL = re.compile(CONTROL_PATTERN)


def plain_text(text: str) -> str:
    """``text`` without terminal sequences and control characters; tabs and line breaks stay.

    What a statement formed from an item may hold (statements refuse the rest).
    """
    return _CONTROL.sub("", _TERMINAL_SEQUENCE.sub("", text))


def normal_form(text: str) -> str:
    """Lowercased, with runs of whitespace as one space (how content is compared)."""
    return " ".join(text.lower().split())


_WORDS = re.compile(r"\w+", re.UNICODE)


def query_subject(query: str) -> str | None:
    """The subject a missed query counts under: its words, case-folded, one space apart.

    Case, punctuation and spacing do not matter ("How do we round invoices?" and
    "how do we round  invoices" are one subject); the words and their order do. Cut to
    256 characters (at a word boundary when there is one). None when the query holds
    no word at all.
    """
    words = _WORDS.findall(unicodedata.normalize("NFKC", query).casefold())
    subject = " ".join(words)
    if len(subject) > MAX_SUBJECT_CHARS:
        cut = subject[: MAX_SUBJECT_CHARS + 1]
        subject = cut.rsplit(" ", 1)[0] if " " in cut else cut[:MAX_SUBJECT_CHARS]
    return subject or None


def content_forms(statement: str, subject: str | None) -> list[str]:
    """The normal forms of an episode item that states this content, canonical first.

    With a subject: ``subject: statement`` (how an item carries one), then the bare
    statement (an item may state it without the label). Without: the bare statement.
    """
    bare = normal_form(statement)
    return [normal_form(f"{subject}: {statement}"), bare] if subject else [bare]


def statement_digest(statement: str, subject: str | None = None) -> str:
    """sha256 of a belief's content in normal form (what a Tombstone keeps).

    The subject is part of it: forgetting "deploy day: Fridays" leaves "release
    freeze: Fridays" free to form.
    """
    return hashlib.sha256(content_forms(statement, subject)[0].encode()).hexdigest()


def symbol_key(lang: str, path: str, qualname: str, kind: str, collision: int = 1) -> str:
    """Returns ``{lang}:{path}::{qualname}#{kind}``, with ``~N`` for the Nth collision.

    Args:
        lang: The language name (python, typescript, ...).
        path: The repository-relative POSIX path.
        qualname: Enclosing definitions and the name, joined with ``.``.
        kind: function, method, class, interface, enum, type, constructor or module.
        collision: 1 for the first sibling with this qualname and kind; 2, 3, ... for
            later ones, which get ``~2``, ``~3`` appended.
    """
    key = f"{lang}:{path}::{qualname}#{kind}"
    return key if collision == 1 else f"{key}~{collision}"


def split_key(key: str) -> tuple[str, str, str, str]:
    """Returns (lang, path, qualname, kind) of a key (any ``~N`` stays on the kind)."""
    lang, rest = key.split(":", 1)
    path, symbol = rest.split("::", 1)
    qualname, kind = symbol.rsplit("#", 1)
    return lang, path, qualname, kind
