"""Symbol content hashes and git blob ids (docs/code-anchors.md): pure functions.

The key format itself is a content rule shared with the store: see
:func:`graphmem.content.symbol_key`.
"""

from __future__ import annotations

import hashlib

HASH_PREFIX = "sha256:v1:"


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
