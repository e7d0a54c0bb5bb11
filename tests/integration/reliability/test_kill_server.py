"""kill -9 of the Neo4j process while a writer streams keyed writes, then a restart:
every acknowledged write is there, and retried keys never duplicate."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port, wait_until
from graphmem.settings import ConnectionSettings
from graphmem.store.database import Database
from graphmem.store.migrations import apply_migrations

ROOT = Path(__file__).resolve().parents[3]
WRITES = 400


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    """A private managed server this test may kill."""
    local = LocalServer(tmp_path / "neo4j", bolt_port=free_port(), http_port=free_port())
    local.start()
    yield local
    local.stop()


def _settings(server: LocalServer) -> ConnectionSettings:
    password = server.password_file.read_text(encoding="utf-8").strip()
    return ConnectionSettings(server.info().bolt_uri, "neo4j", password, source="test")


def _keys(settings: ConnectionSettings, principal: str) -> list[str]:
    with GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password)) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (b:Belief {principal: $p}) RETURN b.idempotency_key AS key", p=principal
        )
    return [record["key"] for record in records]


def test_acknowledged_writes_survive_a_server_kill(server: LocalServer) -> None:
    settings = _settings(server)
    db = Database(settings)
    apply_migrations(db)
    db.close()
    principal = "reliability-kill"
    env = {
        **os.environ,
        "GRAPHMEM_NEO4J_URI": settings.uri,
        "GRAPHMEM_NEO4J_USER": settings.user,
        "GRAPHMEM_NEO4J_PASSWORD": settings.password,
    }
    writer = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.integration.reliability.writer",
            "stream",
            principal,
            str(WRITES),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert writer.stdout is not None
    acknowledged: list[str] = []
    while len(acknowledged) < WRITES // 4:  # well into the stream
        acknowledged.append(writer.stdout.readline().split()[1])
    pid = server.pid()
    assert pid is not None
    os.killpg(pid, signal.SIGKILL)  # the JVM and its launcher, no shutdown at all
    assert wait_until(lambda: server.pid() is None, 30)
    time.sleep(1.0)  # the writer keeps retrying against a dead server
    server.start()
    for line in writer.stdout:  # the writer resumes and finishes
        acknowledged.append(line.split()[1])
    assert writer.wait(timeout=300) == 0
    stored = _keys(settings, principal)
    assert len(acknowledged) == WRITES
    assert sorted(stored) == sorted(set(stored))  # 0 duplicates
    assert set(acknowledged) <= set(stored)  # every acknowledged write is there
