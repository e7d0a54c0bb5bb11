"""Chooses how to run Neo4j: an existing server, Docker, or the Maven jars (docs/neo4j.md)."""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import DatabaseUnavailable
from graphmem.provision.docker import DockerServer, docker_engine_answers
from graphmem.provision.info import ServerInfo, write_connection_record
from graphmem.provision.local import START_TIMEOUT_S, LocalServer
from graphmem.settings import configured_connection, make_private_dir, read_connection_record
from graphmem.store.database import bolt_answers


def managed_home(data_dir: Path) -> Path:
    """Where the managed server keeps its files."""
    return data_dir / "neo4j"


def start_server(
    data_dir: Path, bolt_port: int, http_port: int, timeout: float = START_TIMEOUT_S
) -> ServerInfo:
    """Makes sure a Neo4j server runs, in the order docs/neo4j.md gives.

    1. a server named by the settings (GRAPHMEM_NEO4J_URI ...) that answers;
    2. the managed server, if it already runs;
    3. Docker (``docker/docker-compose.yml``) when an engine answers;
    4. the Maven jars route (``docker/neo4j-local``).

    Raises:
        DatabaseUnavailable: The settings name a server that does not answer.
        ServerError: The managed server could not be started (the subclass says why).
    """
    configured = configured_connection()
    if configured is not None:
        if bolt_answers(configured.uri, configured.user, configured.password):
            return ServerInfo(
                route="settings",
                bolt_uri=configured.uri,
                browser_url=None,
                user=configured.user,
                already_running=True,
            )
        raise DatabaseUnavailable(
            f"{configured.uri} is configured ({configured.source}) but does not answer. Start "
            "that server, or unset GRAPHMEM_NEO4J_URI/NEO4J_URI to let graphmem run its own.",
            uri=configured.uri,
        )
    make_private_dir(data_dir)  # everything graphmem keeps there is its user's only
    home = managed_home(data_dir)
    local = LocalServer(home, bolt_port, http_port)
    if local.pid() is not None:
        return local.info(already_running=True)
    if docker_engine_answers():
        info = DockerServer(home, bolt_port, http_port).start(timeout)
    else:
        info = local.start(timeout)
    write_connection_record(data_dir, info)
    return info


def stop_server(data_dir: Path) -> bool:
    """Stops the managed server, whichever route runs it. True when one was running."""
    home = managed_home(data_dir)
    record = read_connection_record(data_dir) or {}
    if record.get("route") == "docker":
        return DockerServer(home, 0, 0).stop()
    return LocalServer(home).stop()


def server_status(data_dir: Path) -> tuple[ServerInfo | None, bool]:
    """Returns the managed server's info (None if never started) and whether Bolt answers."""
    record = read_connection_record(data_dir)
    if record is None:
        return None, False
    pid = LocalServer(managed_home(data_dir)).pid() if record["route"] == "local" else None
    info = ServerInfo(
        route=record["route"],
        bolt_uri=record["uri"],
        browser_url=record["http_url"],
        user=record["user"],
        password_file=Path(record["password_file"]),
        pid=pid,
    )
    password = Path(record["password_file"]).read_text(encoding="utf-8").strip()
    return info, bolt_answers(info.bolt_uri, info.user, password)


def server_logs(data_dir: Path, lines: int) -> str:
    """Returns the managed server's last log lines."""
    home = managed_home(data_dir)
    record = read_connection_record(data_dir) or {}
    if record.get("route") == "docker":
        return DockerServer(home, 0, 0).logs(lines)
    return LocalServer(home).logs(lines)
