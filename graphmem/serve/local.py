"""``graphmem serve --local``: the hooks' own server for one data directory and principal.

Started in the background by ``graphmem hook HOST`` when no server answers
(:func:`graphmem.capture.local_server.start`), so hooks inject context with no set-up
beyond graphmem's own environment. It listens on loopback on a free port, takes the
principal's local token (and any token of ``graphmem token``), warms the recall engine,
and only then writes where it listens (``hooks/<principal>/server``), which it removes
when it stops. A second one for the same principal exits at once. It stops on its own
after :data:`IDLE_SECONDS` without a request; the next hook starts it again.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.admin import Admin
from graphmem.capture import local_server
from graphmem.provision.probe import free_port
from graphmem.serve.clients import ClientPool
from graphmem.serve.http import http_app
from graphmem.serve.tools import Defaults
from graphmem.settings import make_private_dir, private_file, resolve_injection, resolve_principal
from graphmem.trust.sensitivity import Sensitivity

HOST = "127.0.0.1"

IDLE_SECONDS = 3600.0
"""How long the local server waits without a request before it stops."""


def serve_local(data_dir: Path, ceiling: Sensitivity) -> None:
    """Serves until stopped (SIGTERM, SIGINT); returns at once if one already runs.

    Raises:
        ConfigError: No principal is set.
        DatabaseUnavailable: Neo4j cannot be reached.
    """
    principal = resolve_principal()
    data = str(data_dir)
    if local_server.running(data, principal) is not None:
        return
    token = local_server.ensure_token(data, principal)
    port = free_port()
    with Admin(data_dir=data_dir) as admin:
        pool = ClientPool(admin.settings, data_dir)
        try:
            pool.get(principal).warm()
            app = http_app(
                admin,
                pool,
                Defaults(ceiling=ceiling),
                data_dir,
                host=HOST,
                local=(token, principal),
                injection=resolve_injection(),
            )
            idle = _IdleWatch(app)
            server = uvicorn.Server(uvicorn.Config(idle, host=HOST, port=port, log_level="warning"))
            for work, arguments in (
                (_announce, (server, data, principal, port)),
                (idle.stop_when_idle, (server, IDLE_SECONDS)),
            ):
                threading.Thread(target=work, args=arguments, daemon=True).start()
            server.run()
        finally:
            _withdraw(data, principal)
            pool.close()


class _IdleWatch:
    """ASGI middleware that notes when the last request came, to stop an idle server."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self.last = time.monotonic()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.last = time.monotonic()
        await self._app(scope, receive, send)

    def stop_when_idle(self, server: uvicorn.Server, seconds: float) -> None:
        """Asks ``server`` to stop once no request came for ``seconds``."""
        while not server.should_exit:
            left = self.last + seconds - time.monotonic()
            if left <= 0:
                server.should_exit = True
                return
            time.sleep(min(left, 5.0))


def _announce(server: uvicorn.Server, data: str, principal: str, port: int) -> None:
    """Writes where the server listens once it does (then the hooks may post to it)."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.01)
    path = Path(local_server.server_path(data, principal))
    make_private_dir(path.parent)
    with private_file(path) as out:
        out.write(f"http://{HOST}:{port} {os.getpid()}\n")
    with contextlib.suppress(OSError):
        os.unlink(local_server.starting_path(data, principal))


def _withdraw(data: str, principal: str) -> None:
    """Removes the server file if it is this process's."""
    found = local_server.running(data, principal)
    if found is not None and found[1] == os.getpid():
        with contextlib.suppress(OSError):
            os.unlink(local_server.server_path(data, principal))
