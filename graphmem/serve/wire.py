"""One line of MCP's stdio wire read into a message, or into the error that answers it.

The MCP SDK's own stdio reader hands a line it cannot read to the server as an
exception, and the server answers nothing: the agent waits until its own timeout. Here
every line becomes either a message for the server or a JSON-RPC error for the client,
under the input-limits policy (:mod:`graphmem.limits`) every entry point shares:

- not JSON, too large, or nesting past Python's limit: ``-32700`` (parse error) to
  ``null``, since no id can be read;
- JSON whose id can be read but which breaks a limit (a lone surrogate, a huge
  integer, deep nesting, a long string): ``-32602`` (invalid params) or ``-32600``
  (invalid request) to that id, naming the field and the rule in ``data``;
- JSON that is not a JSON-RPC message: ``-32600`` to its id when it has one.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from pydantic import ValidationError

from graphmem import limits
from graphmem.errors import InvalidInput

Reply = types.JSONRPCError
"""The error that answers a line the server will not see."""


def read_line(line: bytes) -> types.JSONRPCMessage | Reply:
    """The message one line of the wire holds, or the error that answers it.

    Args:
        line: One line as read, its line end included or not.

    Returns:
        A JSON-RPC message for the server, or a :data:`Reply` for the client.
    """
    try:
        value = limits.parse(line, "message")
    except InvalidInput as error:
        return error_reply(None, types.PARSE_ERROR, error)
    request_id = _readable_id(value)
    if request_id is None and isinstance(value, dict) and "id" in value:
        unreadable = InvalidInput(
            "message.id: an id is a string of at most 200 characters or an integer",
            field="message.id",
            rule="jsonrpc",
        )
        return error_reply(None, types.INVALID_REQUEST, unreadable)
    try:
        limits.check(value, "message")
    except InvalidInput as error:
        in_params = str(error.field).startswith("message.params")
        code = types.INVALID_PARAMS if in_params else types.INVALID_REQUEST
        return error_reply(request_id, code, error)
    try:
        return types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValidationError as error:
        problem = error.errors(include_url=False, include_input=False)[0]
        field = ".".join(["message", *(str(part) for part in problem["loc"][1:])])
        invalid = InvalidInput(
            f"{field}: not a JSON-RPC 2.0 message ({problem['msg']})",
            field=field,
            rule="jsonrpc",
        )
        return error_reply(request_id, types.INVALID_REQUEST, invalid)


def error_reply(request_id: types.RequestId | None, code: int, error: InvalidInput) -> Reply:
    """The JSON-RPC error answering ``request_id`` (None: ``null``) for ``error``."""
    data = {key: value for key, value in error.details.items() if key in ("field", "rule")}
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=types.ErrorData(code=code, message=error.message, data=data),
    )


def _readable_id(value: Any) -> types.RequestId | None:
    """The request's id, when it is one a reply can carry (a short string or an integer)."""
    if not isinstance(value, dict):
        return None
    request_id = value.get("id")
    if isinstance(request_id, int) and not isinstance(request_id, bool):
        return request_id
    if isinstance(request_id, str):
        try:
            limits.check_text(request_id, "id")
        except InvalidInput:
            return None
        return request_id if len(request_id) <= 200 else None
    return None
