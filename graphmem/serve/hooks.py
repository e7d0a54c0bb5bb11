"""``POST /hooks/<host>``: agent-host hook events over HTTP, the warm path (docs/capture.md).

The same handler as ``graphmem hook <host>`` (:func:`graphmem.capture.handler.capture`)
appends the event to its session's spool, for the principal of the bearer token that
:class:`~graphmem.serve.http.BearerAuth` checked first. The body is read under the
input-limits policy. The answer (200) is the context graphmem adds on that event in
the host's own contract (:class:`~graphmem.inject.hook.Injector`), or what the host
reads as "nothing to add"; 400 with a JSON error for a payload that cannot be read:
hosts treat a failed HTTP hook as non-blocking. ``GET /hooks/health`` answers 200 with
the token's principal: ``graphmem doctor`` and the hook command's readiness wait ask it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem import limits
from graphmem.capture.event import PayloadError
from graphmem.capture.handler import capture
from graphmem.capture.hosts import adapter as host_adapter
from graphmem.errors import InvalidInput
from graphmem.inject.hook import Injector

HOOKS_PREFIX = "/hooks/"
HEALTH_PATH = "/hooks/health"
"""Where hook events are posted: ``/hooks/claude-code`` and the other hosts."""

_LOG = logging.getLogger("graphmem.serve.hooks")

MAX_HOOK_BYTES = 16 * 1024 * 1024
"""The largest hook payload taken (as for the hook command)."""


class HookRoutes:
    """Answers ``POST /hooks/<host>`` itself and passes every other request to ``app``.

    Args:
        app: The MCP app.
        data_dir: Where the spool lives.
        principal_of: Reads the authenticated principal off the request's scope.
        injector: What adds context to the answer (None: capture only).
    """

    def __init__(
        self,
        app: ASGIApp,
        data_dir: Path,
        principal_of: Callable[[Scope], str],
        injector: Injector | None = None,
    ) -> None:
        self._app = app
        self._data_dir = data_dir
        self._principal_of = principal_of
        self._injector = injector

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Captures a hook event, or passes the request on."""
        if scope["type"] != "http" or not scope["path"].startswith(HOOKS_PREFIX):
            await self._app(scope, receive, send)
            return
        if scope["path"] == HEALTH_PATH and scope["method"] == "GET":
            await _reply(send, 200, {"principal": self._principal_of(scope)})
            return
        if scope["method"] != "POST":
            await _reply(send, 405, {"error": "method_not_allowed"})
            return
        host = scope["path"][len(HOOKS_PREFIX) :]
        try:
            adapter = host_adapter(host)
        except KeyError:
            await _reply(send, 404, {"error": "unknown_host", "host": host[:50]})
            return
        body = await _body(receive)
        if body is None:
            await _reply(send, 413, {"error": "too_large", "limit": MAX_HOOK_BYTES})
            return
        try:
            payload = limits.loads(body, "payload")
            if not isinstance(payload, dict):
                raise PayloadError("payload: a hook event is a JSON object")
            principal = self._principal_of(scope)
            captured = await anyio.to_thread.run_sync(
                capture, self._data_dir, principal, adapter, payload
            )
        except (InvalidInput, PayloadError, ValueError) as error:
            await _reply(send, 400, {"error": "invalid_payload", "message": str(error)[:300]})
            return
        answer = adapter.empty_output(captured.event.host_event)
        if self._injector is not None:
            try:
                answer = await anyio.to_thread.run_sync(
                    self._injector.answer, principal, adapter, captured
                )
            except Exception as error:  # the event is captured; memory adds nothing
                _LOG.warning("no context for %s: %s", type(error).__name__, str(error)[:200])
        await _text(send, 200, answer)


async def _body(receive: Receive) -> bytes | None:
    """The request's body, or None past :data:`MAX_HOOK_BYTES`."""
    body = bytearray()
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > MAX_HOOK_BYTES:
            return None
        if not message.get("more_body", False):
            return bytes(body)


async def _reply(send: Send, status: int, data: dict[str, object]) -> None:
    await _text(send, status, json.dumps(data))


async def _text(send: Send, status: int, text: str) -> None:
    body = text.encode("utf-8")
    kind = b"application/json" if text.startswith("{") else b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
