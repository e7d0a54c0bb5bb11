"""`graphmem serve` reads a POSTed message under the same input limits as stdio.

A body that breaks a limit gets status 400 and the JSON-RPC error the same line gets
over stdio (to its id when it can be read), and the server keeps serving.
"""

from __future__ import annotations

import httpx2
import pytest

from graphmem.admin import Admin
from graphmem.store.ids import new_id
from tests.integration.serve.conftest import HttpServer


def _post(server: HttpServer, token: str, body: bytes) -> httpx2.Response:
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    return httpx2.post(server.url, content=body, headers=headers, timeout=30)


def _call(arguments: bytes) -> bytes:
    head = b'{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"believe",'
    return head + b'"arguments":' + arguments + b"}}"


@pytest.mark.parametrize(
    ("body", "reply_id", "rule"),
    [
        (_call(b'{"statement":"\\ud800"}'), 41, "utf8"),
        (_call(b'{"statement":"caf\xe9"}'), 41, "utf8"),
        (_call(b'{"confidence":' + b"9" * 5_000 + b"}"), 41, "integer_size"),
        (_call(b"[" * 500 + b"]" * 500), 41, "depth"),
        (b"not JSON", None, "json"),
    ],
)
def test_a_malformed_body_gets_400_and_a_json_rpc_error(
    http_server: HttpServer, admin: Admin, body: bytes, reply_id: int | None, rule: str
) -> None:
    token = admin.create_token(f"test-{new_id()}").secret
    response = _post(http_server, token, body)
    assert response.status_code == 400
    answer = response.json()
    assert (answer["id"], answer["error"]["data"]["rule"]) == (reply_id, rule)
    initialize = (
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
        b'"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
    )
    assert _post(http_server, token, initialize).status_code == 200


def test_an_unauthenticated_body_is_not_read(http_server: HttpServer) -> None:
    response = _post(http_server, "gm_not-a-token", b"not JSON")
    assert response.status_code == 401
