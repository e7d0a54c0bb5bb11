"""One client per principal, for a server that acts for many."""

from __future__ import annotations

import threading
from pathlib import Path

from graphmem.client import GraphMem
from graphmem.settings import ConnectionSettings


class ClientPool:
    """Opens each principal's client on first use and keeps it until :meth:`close`.

    The set of principals is the set of token holders, which the operator controls,
    so clients are kept rather than evicted (a call in flight never loses its client).
    """

    def __init__(self, settings: ConnectionSettings, data_dir: Path) -> None:
        self._settings = settings
        self._data_dir = data_dir
        self._clients: dict[str, GraphMem] = {}
        self._lock = threading.Lock()

    def get(self, principal: str) -> GraphMem:
        """The principal's client (opened now if it is the first call)."""
        with self._lock:
            client = self._clients.get(principal)
            if client is None:
                client = GraphMem(
                    principal,
                    uri=self._settings.uri,
                    user=self._settings.user,
                    password=self._settings.password,
                    database=self._settings.database,
                    data_dir=self._data_dir,
                    migrate=False,  # the server applied them at start
                )
                self._clients[principal] = client
            return client

    def close(self) -> None:
        """Closes every client (pending traces are written first)."""
        with self._lock:
            clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            client.close()
