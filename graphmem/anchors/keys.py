"""Symbol keys, content hashes and git blob ids (design §4): pure functions."""

from __future__ import annotations

import hashlib

HASH_PREFIX = "sha256:v1:"
KINDS = ("function", "method", "class", "interface", "enum", "type", "constructor", "module")


def symbol_key(lang: str, path: str, qualname: str, kind: str, collision: int = 1) -> str:
    """Returns ``{lang}:{path}::{qualname}#{kind}``, with ``~N`` for the Nth collision.

    Args:
        lang: The language name (python, typescript, ...).
        path: The repository-relative POSIX path.
        qualname: Enclosing definitions and the name, joined with ``.``.
        kind: One of :data:`KINDS`.
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


def normalise(source: str) -> str:
    """CRLF→LF, trailing spaces stripped per line, leading/trailing blank lines dropped."""
    lines = [line.rstrip(" \t") for line in source.replace("\r\n", "\n").split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def symbol_hash(source: str) -> str:
    """Returns ``sha256:v1:`` + the hex sha256 of the normalised UTF-8 source."""
    return HASH_PREFIX + hashlib.sha256(normalise(source).encode("utf-8")).hexdigest()


def git_blob_id(data: bytes) -> str:
    """Returns git's blob id of ``data``: sha1 of ``blob <len>``, a NUL byte, then data."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()
