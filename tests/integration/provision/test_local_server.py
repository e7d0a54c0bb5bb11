"""`graphmem neo4j start|status|stop` on the no-Docker route, on private ports."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.provision.docker import docker_engine_answers
from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port

runner = CliRunner()
CLEAN_ENV = {
    "GRAPHMEM_NEO4J_URI": None,
    "NEO4J_URI": None,
    "GRAPHMEM_NEO4J_PASSWORD": None,
    "NEO4J_PASSWORD": None,
}


def _neo4j(data_dir: Path, *args: str) -> tuple[int, dict[str, object]]:
    result = runner.invoke(
        app, ["neo4j", *args, "--data-dir", str(data_dir), "--json"], env=CLEAN_ENV
    )
    return result.exit_code, json.loads(result.stdout) if result.stdout else {}


@pytest.mark.slow
def test_start_twice_browser_answers_stop_leaves_no_process(tmp_path: Path) -> None:
    route = "docker" if docker_engine_answers() else "local"
    bolt, http = str(free_port()), str(free_port())
    code, first = _neo4j(tmp_path, "start", "--bolt-port", bolt, "--http-port", http)
    try:
        assert code == 0, first
        assert first["already_running"] is False and first["route"] == route
        assert first["bolt_uri"] == f"bolt://127.0.0.1:{bolt}"
        code, second = _neo4j(tmp_path, "start", "--bolt-port", bolt, "--http-port", http)
        assert code == 0 and second["already_running"] is True

        with urllib.request.urlopen(str(first["browser_url"]), timeout=10) as response:
            assert response.status == 200
            assert b"Neo4j Browser" in response.read()
        password_file = Path(str(first["password_file"]))
        assert password_file.stat().st_mode & 0o777 == 0o600

        code, status = _neo4j(tmp_path, "status")
        assert code == 0 and status["running"] is True
    finally:
        code, stopped = _neo4j(tmp_path, "stop")
    assert code == 0 and stopped == {"stopped": True}
    assert LocalServer(tmp_path / "neo4j").pid() is None
    assert not _java_processes_under(tmp_path)
    code, status = _neo4j(tmp_path, "status")
    assert status["running"] is False


def _java_processes_under(home: Path) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(home) in cmdline and "java" in cmdline:
            found.append(int(proc.name))
    return found
