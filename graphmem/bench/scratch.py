"""A throwaway principal for benchmarks: everything it wrote is deleted afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from graphmem.admin import Admin
from graphmem.client import GraphMem
from graphmem.settings import resolve_data_dir
from graphmem.store.ids import new_id
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.views import remove_views


@contextmanager
def scratch_memory(embedder: Embedder | None = None) -> Iterator[GraphMem]:
    """Yields a client for a fresh ``bench-...`` principal, deleted on exit.

    Both its graph data and its semantic views under the default data directory go,
    once the client is closed (a trace written after the delete would be left behind).

    Args:
        embedder: The client's embedder (None: the default MiniLM).
    """
    memory = GraphMem(f"bench-{new_id()}", embedder=embedder)
    try:
        with memory:  # closed first: it writes its pending recall traces then
            yield memory
    finally:
        settings = memory.settings
        try:
            with Admin(
                uri=settings.uri,
                user=settings.user,
                password=settings.password,
                database=settings.database,
                migrate=False,
            ) as admin:
                admin.delete_principal(memory.principal)
        finally:
            remove_views(resolve_data_dir() / "views", memory.principal)
