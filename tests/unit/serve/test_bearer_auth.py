"""BearerAuth, the HTTP server's gate, as plain ASGI: 401 unless a token names a principal."""

from __future__ import annotations

import json
from typing import Any

import anyio

from graphmem.serve.http import BearerAuth

TOKENS = {"gm_good": "alice"}


class _App:
    def __init__(self) -> None:
        self.principals: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.principals.append(scope["state"]["graphmem.principal"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _request(auth: BearerAuth, headers: list[tuple[bytes, bytes]]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": headers}
    anyio.run(auth, scope, receive, send)
    return sent


def test_missing_wrong_and_malformed_tokens_get_401_and_reach_nothing() -> None:
    app = _App()
    auth = BearerAuth(app, TOKENS.get)
    for headers in (
        [],
        [(b"authorization", b"Bearer gm_wrong")],
        [(b"authorization", b"Basic gm_good")],
        [(b"authorization", b"Bearer ")],
    ):
        sent = _request(auth, headers)
        assert sent[0]["status"] == 401
        assert (b"www-authenticate", b'Bearer error="invalid_token"') in sent[0]["headers"]
        assert json.loads(sent[1]["body"])["error"] == "invalid_token"
    assert app.principals == []


def test_a_good_token_passes_its_principal_on() -> None:
    app = _App()
    sent = _request(BearerAuth(app, TOKENS.get), [(b"authorization", b"bearer gm_good")])
    assert sent[0]["status"] == 200
    assert app.principals == ["alice"]
