"""A client that fails to open leaves nothing running; one that does not migrate checks."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.errors import DatabaseUnavailable
from graphmem.provision.probe import free_port
from graphmem.settings import ConnectionSettings
from graphmem.store.ids import new_id


def _graphmem_threads() -> int:
    return sum(thread.name.startswith("graphmem-") for thread in threading.enumerate())


def test_failed_constructions_leave_no_thread_behind(tmp_path: Path) -> None:
    # Nothing listens there. (A wrong password would trip Neo4j's rate limit on failed
    # logins, and every later test of the suite would be refused.)
    nobody = f"bolt://127.0.0.1:{free_port()}"
    before = _graphmem_threads()
    for _ in range(3):
        with pytest.raises(DatabaseUnavailable):
            GraphMem(f"test-{new_id()}", uri=nobody, password="x", data_dir=tmp_path)
    assert _graphmem_threads() == before


def test_a_client_that_does_not_migrate_opens_on_a_current_schema(
    neo4j_settings: ConnectionSettings, tmp_path: Path
) -> None:
    with GraphMem(
        f"test-{new_id()}",
        uri=neo4j_settings.uri,
        password=neo4j_settings.password,
        data_dir=tmp_path,
        migrate=False,
    ) as memory:
        assert memory.projects() == []
