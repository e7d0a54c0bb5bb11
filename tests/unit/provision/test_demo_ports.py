"""`graphmem demo` starts Neo4j on the ports `graphmem neo4j start` would use."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.cli import demo as demo_command
from graphmem.errors import ServerError
from graphmem.provision.local import DEFAULT_BOLT_PORT, DEFAULT_HTTP_PORT


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The ports each start was asked for (the start itself fails at once)."""
    ports: list[tuple[int, int]] = []

    def start_server(directory: Path, bolt_port: int, http_port: int) -> None:
        ports.append((bolt_port, http_port))
        raise ServerError("not started in this test")

    monkeypatch.setattr(demo_command, "start_server", start_server)
    return ports


def test_demo_honours_the_port_variables(asked: list[tuple[int, int]], tmp_path: Path) -> None:
    env = {
        "GRAPHMEM_DATA_DIR": str(tmp_path),
        "GRAPHMEM_NEO4J_BOLT_PORT": "17687",
        "GRAPHMEM_NEO4J_HTTP_PORT": "17474",
    }
    result = CliRunner().invoke(app, ["demo"], env=env)
    assert result.exit_code == ServerError.exit_code
    assert asked == [(17687, 17474)]


def test_demo_options_and_defaults(asked: list[tuple[int, int]], tmp_path: Path) -> None:
    env: dict[str, str | None] = {
        "GRAPHMEM_DATA_DIR": str(tmp_path),
        "GRAPHMEM_NEO4J_BOLT_PORT": None,  # unset
        "GRAPHMEM_NEO4J_HTTP_PORT": None,
    }
    CliRunner().invoke(app, ["demo", "--bolt-port", "27687", "--http-port", "27474"], env=env)
    CliRunner().invoke(app, ["demo"], env=env)
    assert asked == [(27687, 27474), (DEFAULT_BOLT_PORT, DEFAULT_HTTP_PORT)]
