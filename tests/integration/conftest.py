"""A real Neo4j for the integration tests, found or started in the order of design §7.

1. A server named by GRAPHMEM_NEO4J_URI (or NEO4J_URI) that answers.
2. testcontainers' Neo4j module, when a Docker engine answers.
3. The Maven jars route: a private server on free ports under a temporary directory.

If none can be had the tests fail (never skip): integration tests always use Neo4j.
Each test gets a fresh principal, so tests share the server but never each other's data.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase

from graphmem import GraphMem
from graphmem.admin import Admin
from graphmem.provision.docker import docker_engine_answers
from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port
from graphmem.settings import ConnectionSettings, configured_connection
from graphmem.store.database import Database, bolt_answers
from graphmem.store.ids import new_id
from graphmem.store.migrations import apply_migrations


def _from_testcontainers() -> Iterator[ConnectionSettings]:
    from testcontainers.neo4j import Neo4jContainer

    password = new_id()
    with Neo4jContainer("neo4j:5.26-community", password=password) as container:
        yield ConnectionSettings(
            container.get_connection_url(), "neo4j", password, source="testcontainers"
        )


def _from_maven_jars(home: Path) -> Iterator[ConnectionSettings]:
    server = LocalServer(home, bolt_port=free_port(), http_port=free_port())
    info = server.start()
    try:
        yield ConnectionSettings(
            info.bolt_uri, info.user, server.password_file.read_text().strip(), source="maven"
        )
    finally:
        server.stop()


@pytest.fixture(scope="session")
def neo4j_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConnectionSettings]:
    """How to reach the test server (started here when needed, stopped at the end)."""
    configured = configured_connection()
    if configured is not None:
        if not bolt_answers(configured.uri, configured.user, configured.password):
            pytest.fail(f"{configured.uri} is configured for the tests but does not answer")
        source: Iterator[ConnectionSettings] = iter([configured])
    elif docker_engine_answers():
        source = _from_testcontainers()
    else:
        source = _from_maven_jars(tmp_path_factory.mktemp("neo4j-home"))
    settings = next(source)
    db = Database(settings)
    try:
        apply_migrations(db)
    finally:
        db.close()
    yield settings
    for _ in source:  # run the generator's cleanup
        pass


@pytest.fixture
def admin(neo4j_settings: ConnectionSettings) -> Iterator[Admin]:
    """The operator's handle on the test server (schema, tokens, principals)."""
    handle = Admin(
        uri=neo4j_settings.uri,
        user=neo4j_settings.user,
        password=neo4j_settings.password,
        migrate=False,
    )
    yield handle
    handle.close()


@pytest.fixture
def database(neo4j_settings: ConnectionSettings) -> Iterator[Database]:
    """graphmem's own database handle on the test server."""
    db = Database(neo4j_settings)
    yield db
    db.close()


class Graph:
    """Raw Cypher for assertions the client does not offer (tests only)."""

    def __init__(self, settings: ConnectionSettings) -> None:
        self.settings = settings
        self.driver = GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password))

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        records, _, _ = self.driver.execute_query(cypher, params, database_="neo4j")
        return [record.data() for record in records]

    def count(self, principal: str, label: str) -> int:
        rows = self.query(
            "MATCH (n) WHERE n.principal = $principal AND $label IN labels(n) RETURN count(n) AS c",
            principal=principal,
            label=label,
        )
        return int(rows[0]["c"])


@pytest.fixture
def graph(neo4j_settings: ConnectionSettings) -> Iterator[Graph]:
    """Raw Cypher access to the test server."""
    handle = Graph(neo4j_settings)
    yield handle
    handle.driver.close()


@pytest.fixture
def make_memory(
    neo4j_settings: ConnectionSettings, tmp_path: Path
) -> Iterator[Callable[..., GraphMem]]:
    """Opens clients for fresh (or given) principals; closes them afterwards.

    Each client keeps its derived views (FAISS files) in a data directory of its own,
    as two processes on two machines would.
    """
    opened: list[GraphMem] = []

    def make(principal: str | None = None) -> GraphMem:
        client = GraphMem(
            principal or f"test-{new_id()}",
            uri=neo4j_settings.uri,
            user=neo4j_settings.user,
            password=neo4j_settings.password,
            data_dir=tmp_path / f"client-{len(opened)}",
        )
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()


@pytest.fixture
def memory(make_memory: Callable[..., GraphMem]) -> GraphMem:
    """A client for a fresh principal."""
    return make_memory()


@pytest.fixture
def neo4j_env(neo4j_settings: ConnectionSettings, tmp_path: Path) -> dict[str, str]:
    """Environment that points the CLI at the test server and a private data dir."""
    return {
        "GRAPHMEM_DATA_DIR": str(tmp_path / "graphmem-data"),
        "GRAPHMEM_NEO4J_URI": neo4j_settings.uri,
        "GRAPHMEM_NEO4J_USER": neo4j_settings.user,
        "GRAPHMEM_NEO4J_PASSWORD": neo4j_settings.password,
        "GRAPHMEM_PRINCIPAL": f"test-{new_id()}",
    }


def race(
    target: Callable[..., None], worker_args: Sequence[tuple[Any, ...]], timeout: float
) -> list[Any]:
    """Runs ``target`` once per ``worker_args``, each in a spawned process, all at once.

    Each process gets its arguments, then a barrier that lets the processes go together
    and a queue to put its one result on; every process must exit with 0.

    Returns:
        The results in the order they arrived, each within ``timeout`` seconds.
    """
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(len(worker_args)), context.Queue()
    workers = [context.Process(target=target, args=(*args, start, results)) for args in worker_args]
    for process in workers:
        process.start()
    reported = [results.get(timeout=timeout) for _ in workers]
    for process in workers:
        process.join(timeout=60)
        assert process.exitcode == 0
    return reported
