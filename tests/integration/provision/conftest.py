"""One managed Neo4j (the Maven jars route) in a fresh data directory, for this package.

It is started by ``graphmem neo4j start`` while a thread samples every process's
command line, so tests can check that no secret ever appeared on one.
"""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port

CLEAN_ENV: dict[str, str | None] = {
    "GRAPHMEM_NEO4J_URI": None,
    "NEO4J_URI": None,
    "GRAPHMEM_NEO4J_USER": None,
    "GRAPHMEM_NEO4J_PASSWORD": None,
    "NEO4J_PASSWORD": None,
}
"""The managed server is found through its connection record, not the environment."""


@dataclass(frozen=True)
class Managed:
    """The managed server under test and what was seen while it started."""

    data_dir: Path
    server: LocalServer
    bolt_uri: str
    password: str
    command_lines: frozenset[bytes]
    """Every distinct /proc/*/cmdline sampled while it started."""

    def client(self, principal: str) -> GraphMem:
        """A client of ``principal`` on this server, with views under this data directory."""
        return GraphMem(
            principal,
            uri=self.bolt_uri,
            user="neo4j",
            password=self.password,
            data_dir=self.data_dir,
        )

    def env(self, principal: str) -> dict[str, str | None]:
        """Environment for the CLI: this data directory, this principal, no overrides."""
        return {
            **CLEAN_ENV,
            "GRAPHMEM_DATA_DIR": str(self.data_dir),
            "GRAPHMEM_PRINCIPAL": principal,
        }


class CommandLineSampler(threading.Thread):
    """Reads every process's command line, again and again, until stopped."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: set[bytes] = set()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for path in Path("/proc").glob("[0-9]*/cmdline"):
                try:
                    self.seen.add(path.read_bytes())
                except OSError:
                    continue  # the process ended meanwhile
            self.done.wait(0.005)


@contextmanager
def managed_server(data_dir: Path) -> Iterator[Managed]:
    """A fresh managed server in ``data_dir`` (created by graphmem), on free ports.

    Started by ``graphmem neo4j start`` while every command line is sampled; stopped
    when the block ends.
    """
    ports = ["--bolt-port", str(free_port()), "--http-port", str(free_port())]
    sampler = CommandLineSampler()
    sampler.start()
    try:
        result = CliRunner().invoke(
            app,
            ["neo4j", "start", *ports, "--data-dir", str(data_dir), "--json"],
            env=CLEAN_ENV,
        )
    finally:
        sampler.done.set()
        sampler.join()
    server = LocalServer(data_dir / "neo4j")
    try:
        assert result.exit_code == 0, result.output
        info = json.loads(result.stdout)
        yield Managed(
            data_dir=data_dir,
            server=server,
            bolt_uri=info["bolt_uri"],
            password=server.password_file.read_text(encoding="utf-8").strip(),
            command_lines=frozenset(sampler.seen),
        )
    finally:
        LocalServer(data_dir / "neo4j").stop()


@pytest.fixture(scope="session")
def managed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Managed]:
    """A fresh managed server on free ports (stopped at the end of the session)."""
    with managed_server(tmp_path_factory.mktemp("managed") / "graphmem-data") as server:
        yield server


def not_private(root: Path) -> list[str]:
    """Every path under ``root`` (and root) that is not 0700 (directories) / 0600 (files)."""
    offenders = []
    for path in [root, *sorted(root.rglob("*"))]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_symlink():
            offenders.append(f"{path} is a symlink")
        elif path.is_dir() and mode != 0o700:
            offenders.append(f"{oct(mode)} {path}/")
        elif path.is_file() and mode != 0o600:
            offenders.append(f"{oct(mode)} {path}")
    return offenders
