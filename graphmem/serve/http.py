"""``graphmem serve``: the MCP server over streamable HTTP, for many principals.

Every HTTP request must carry ``Authorization: Bearer <token>``. The token's digest is
looked up before anything else runs; a missing, unknown or revoked token gets 401 and
reaches neither MCP nor the memory. The principal a call acts for is the token's, put
on the request by :class:`BearerAuth`; nothing in the request body can name another.
An MCP session is bound to the token that opened it: another token gets 404.
Only this server holds the Neo4j password.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import anyio
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.admin import Admin, token_digest
from graphmem.errors import GraphMemError
from graphmem.inject.hook import Injector
from graphmem.serve.clients import ClientPool
from graphmem.serve.hooks import HookRoutes
from graphmem.serve.http_limits import BodyLimits
from graphmem.serve.server import Context, MemoryServer
from graphmem.serve.tools import Defaults
from graphmem.settings import InjectionSettings

MCP_PATH = "/mcp"
_PRINCIPAL_KEY = "graphmem.principal"

Authenticate = Callable[[str], str | None]
"""A presented token → its principal, or None."""


class BearerAuth:
    """ASGI middleware: only requests with a live bearer token get through.

    Args:
        app: The MCP app it guards.
        principal_of_token: Says which principal a token stands for (None: nobody);
            it blocks, so it runs on a worker thread.
    """

    def __init__(self, app: ASGIApp, principal_of_token: Authenticate) -> None:
        self._app = app
        self._principal_of_token = principal_of_token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answers 401 (or 503) itself, or passes the request on with its principal."""
        if scope["type"] != "http":  # lifespan: the session manager starts and stops
            await self._app(scope, receive, send)
            return
        token = _bearer_token(scope)
        principal = None
        if token is not None:
            try:
                principal = await anyio.to_thread.run_sync(self._principal_of_token, token)
            except GraphMemError:
                await _refuse(send, 503, "unavailable", "the token store cannot be read")
                return
        if token is None or principal is None:
            reason = "missing" if token is None else "invalid"
            await _refuse(send, 401, "invalid_token", f"bearer token {reason}")
            return
        state: MutableMapping[str, Any] = scope.setdefault("state", {})
        state[_PRINCIPAL_KEY] = principal
        scope["user"] = _session_owner(token, principal)
        await self._app(scope, receive, send)


def _session_owner(token: str, principal: str) -> AuthenticatedUser:
    """Who opened a session, as the SDK's session manager compares it.

    The manager binds each MCP session to the (client id, issuer, subject) of the
    request that opened it and answers any other with 404 "Session not found", as for
    an unknown session. The client id is the token's digest (never the token), so a
    session is bound to its token: another token, even of the same principal, gets 404.
    """
    digest = token_digest(token)
    return AuthenticatedUser(
        AccessToken(token=digest, client_id=digest, scopes=[], subject=principal)
    )


def _bearer_token(scope: Scope) -> str | None:
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


async def _refuse(send: Send, status: int, error: str, description: str) -> None:
    body = json.dumps({"error": error, "error_description": description}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", f'Bearer error="{error}"'.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def principal_of_request(ctx: Context) -> str:
    """The principal :class:`BearerAuth` authenticated for this MCP request."""
    request = ctx.request
    return principal_of_scope(getattr(request, "scope", {}) if request is not None else {})


def principal_of_scope(scope: Scope) -> str:
    """The principal :class:`BearerAuth` put on this request's scope."""
    principal = scope.get("state", {}).get(_PRINCIPAL_KEY)
    if not isinstance(principal, str):  # unreachable behind BearerAuth
        raise RuntimeError("request reached MCP without an authenticated principal")
    return principal


def http_app(
    admin: Admin,
    clients: ClientPool,
    defaults: Defaults,
    data_dir: Path,
    host: str = "127.0.0.1",
    local: tuple[str, str] | None = None,
    injection: InjectionSettings | None = None,
) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """The ASGI app behind :class:`BearerAuth`: MCP, and hook events at ``/hooks/<host>``.

    MCP streamable HTTP is at :data:`MCP_PATH`. A message that passes the token check
    is read under the input-limits policy (:class:`~graphmem.serve.http_limits.BodyLimits`)
    before the SDK sees it.

    Args:
        admin: Where tokens are looked up.
        clients: Each principal's client.
        defaults: The code root (``index_code`` is offered only with one).
        data_dir: The data directory (hook events go to its spool).
        host: The host it is served on (on loopback, Host and Origin headers are
            checked against it, against DNS rebinding).
        local: (token, principal) of a local server (``graphmem serve --local``): that
            token is taken too, for that principal.
        injection: What hook answers inject (None: capture only, no context).
    """
    memory = MemoryServer(clients.get, principal_of_request, defaults)
    app = memory.server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    injector = Injector(clients.get, injection, defaults.ceiling) if injection is not None else None
    routes = HookRoutes(BodyLimits(app, MCP_PATH), data_dir, principal_of_scope, injector)
    return BearerAuth(routes, _with_local(admin.principal_of_token, local))


def _with_local(tokens: Authenticate, local: tuple[str, str] | None) -> Authenticate:
    """``tokens``, and the local token for its principal (compared in constant time)."""
    if local is None:
        return tokens
    local_token, local_principal = local

    def principal_of(token: str) -> str | None:
        if hmac.compare_digest(token.encode(), local_token.encode()):
            return local_principal
        return tokens(token)

    return principal_of
