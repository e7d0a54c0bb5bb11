"""One stdio line read into a message or into the error that answers it (pure)."""

from __future__ import annotations

import mcp_types as types
import pytest

from graphmem.serve.wire import read_line


def _call(request_id: str, arguments: str) -> bytes:
    body = f'"method":"tools/call","params":{{"name":"recall","arguments":{arguments}}}'
    return f'{{"jsonrpc":"2.0","id":{request_id},{body}}}'.encode()


def test_a_valid_request_is_a_message_for_the_server() -> None:
    message = read_line(_call("3", '{"query":"invoices"}'))
    assert isinstance(message, types.JSONRPCRequest)
    assert message.id == 3


@pytest.mark.parametrize(
    ("line", "reply_id", "code", "rule"),
    [
        (b"{not json", None, types.PARSE_ERROR, "json"),
        (b"[" * 50_000, None, types.PARSE_ERROR, "depth"),
        (_call("4", '{"query":"\\udfff"}'), 4, types.INVALID_PARAMS, "utf8"),
        (_call('"q-5"', '{"k":' + "1" * 400 + "}"), "q-5", types.INVALID_PARAMS, "integer_size"),
        (_call("6", "[" * 60 + "]" * 60), 6, types.INVALID_PARAMS, "depth"),
        (b'{"jsonrpc":"2.0","id":7}', 7, types.INVALID_REQUEST, "jsonrpc"),
        (b'{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', None, types.INVALID_REQUEST, "jsonrpc"),
        (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', None, types.INVALID_REQUEST, "jsonrpc"),
        (b'{"jsonrpc":"2.0","id":8,"method":"ping","x":"\xc3"}', 8, types.INVALID_REQUEST, "utf8"),
    ],
)
def test_a_line_the_server_cannot_take_is_answered(
    line: bytes, reply_id: int | str | None, code: int, rule: str
) -> None:
    reply = read_line(line)
    assert isinstance(reply, types.JSONRPCError)
    assert (reply.id, reply.error.code, reply.error.data["rule"]) == (reply_id, code, rule)
    assert reply.error.message.startswith(reply.error.data["field"] + ": ")
