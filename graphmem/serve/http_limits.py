"""ASGI middleware: a POSTed MCP message is read under the input-limits policy first.

The same reader as stdio's (:func:`graphmem.serve.wire.read_line`) judges the body, so
a body that breaks a limit gets the same JSON-RPC error over HTTP as the same line over
stdio, with status 400 (413 when it is too large), and never reaches the SDK.
"""

from __future__ import annotations

import mcp_types as types
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import InvalidInput
from graphmem.limits import MAX_LINE_BYTES
from graphmem.serve.wire import Reply, error_reply, read_line


class BodyLimits:
    """Reads each POST body to ``path`` whole, answers a breach itself, replays the rest.

    Args:
        app: The MCP app behind it.
        path: Where the app takes MCP messages.
    """

    def __init__(self, app: ASGIApp, path: str) -> None:
        self._app = app
        self._path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Checks the body of a POST to ``path`` before passing it on; passes the rest."""
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != self._path:
            await self._app(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_LINE_BYTES:
                too_large = InvalidInput(
                    f"message: a request is at most {MAX_LINE_BYTES} bytes",
                    field="message",
                    rule="size",
                )
                await _answer(send, 413, error_reply(None, types.PARSE_ERROR, too_large))
                return
            if not message.get("more_body", False):
                break
        read = read_line(bytes(body))
        if isinstance(read, types.JSONRPCError):
            await _answer(send, 400, read)
            return
        await self._app(scope, _replay(bytes(body), receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then defers to the real one."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


async def _answer(send: Send, status: int, reply: Reply) -> None:
    body = reply.model_dump_json(by_alias=True).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
