"""The hook's fast path reads a server's whole answer, or none of it."""

from __future__ import annotations

import pytest

from graphmem.capture import forward


def _answer(status: str, body: bytes, length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    return f"HTTP/1.1 {status}\r\ncontent-length: {size}\r\n\r\n".encode() + body


def test_a_whole_answer_gives_its_status_and_body() -> None:
    body = b'{"hookSpecificOutput": {"additionalContext": "x"}}'
    assert forward._complete(_answer("200 OK", body))
    assert forward._response(_answer("200 OK", body)) == (200, body)
    assert forward._response(_answer("200 OK", b"")) == (200, b"")


def test_a_cut_answer_is_no_answer() -> None:
    cut = _answer("200 OK", b"{}", length=10)
    assert not forward._complete(cut)
    with pytest.raises(ConnectionError):
        forward._response(cut)
    with pytest.raises(ConnectionError):
        forward._response(b"SSH-2.0-OpenSSH\r\n")


def test_a_refusal_needs_no_body() -> None:
    assert forward._response(b"HTTP/1.1 401 Unauthorized\r\n") == (401, b"")
