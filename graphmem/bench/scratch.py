"""A throwaway principal for benchmarks: everything it wrote is deleted afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.admin import Admin
from graphmem.client import GraphMem
from graphmem.settings import resolve_connection, resolve_data_dir
from graphmem.store.ids import new_id
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.views import remove_views


@contextmanager
def scratch_memory(
    embedder: Embedder | None = None, data_dir: Path | None = None
) -> Iterator[GraphMem]:
    """Yields a client for a fresh ``bench-...`` principal, deleted on exit.

    Both its graph data and its semantic views go, once the client is closed (a trace
    written after the delete would be left behind).

    Args:
        embedder: The client's embedder (None: the default MiniLM).
        data_dir: Where its views (and a spool) live (None: the default data
            directory); the database is the default one either way.
    """
    settings = resolve_connection()
    memory = GraphMem(
        f"bench-{new_id()}",
        uri=settings.uri,
        user=settings.user,
        password=settings.password,
        database=settings.database,
        data_dir=data_dir,
        embedder=embedder,
    )
    try:
        with memory:  # closed first: it writes its pending recall traces then
            yield memory
    finally:
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
            remove_views(resolve_data_dir(data_dir) / "views", memory.principal)
