"""Settings precedence: argument, then environment, then local record, then an error."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from graphmem.errors import ConfigError, DatabaseUnavailable
from graphmem.provision.info import ServerInfo, write_connection_record
from graphmem.settings import (
    private_file,
    resolve_cache_dir,
    resolve_connection,
    resolve_data_dir,
    resolve_principal,
)

ENV = (
    "GRAPHMEM_NEO4J_URI",
    "NEO4J_URI",
    "GRAPHMEM_NEO4J_PASSWORD",
    "NEO4J_PASSWORD",
    "GRAPHMEM_NEO4J_USER",
    "NEO4J_USERNAME",
    "GRAPHMEM_PRINCIPAL",
    "GRAPHMEM_DATA_DIR",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


def test_argument_beats_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "bolt://env:7687")
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "env-pw")
    assert resolve_connection(uri="bolt://arg:7687", password="arg-pw").uri == "bolt://arg:7687"
    env = resolve_connection()
    assert (env.uri, env.password, env.user, env.source) == (
        "bolt://env:7687",
        "env-pw",
        "neo4j",
        "environment",
    )


def test_standard_neo4j_variables_are_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://std:7687")
    monkeypatch.setenv("NEO4J_USERNAME", "std-user")
    monkeypatch.setenv("NEO4J_PASSWORD", "std-pw")
    settings = resolve_connection(data_dir="/nonexistent")
    assert (settings.uri, settings.user, settings.password) == (
        "bolt://std:7687",
        "std-user",
        "std-pw",
    )


def test_local_server_record_is_used_last(tmp_path: Path) -> None:
    password_file = tmp_path / "neo4j" / "password"
    password_file.parent.mkdir()
    password_file.write_text("local-pw\n")
    write_connection_record(
        tmp_path, ServerInfo("local", "bolt://127.0.0.1:7687", None, password_file=password_file)
    )
    settings = resolve_connection(data_dir=tmp_path)
    assert (settings.uri, settings.password) == ("bolt://127.0.0.1:7687", "local-pw")
    assert (tmp_path / "neo4j" / "connection.json").stat().st_mode & 0o777 == 0o600
    (tmp_path / "neo4j" / "connection.json").write_text("{broken")
    with pytest.raises(ConfigError) as caught:
        resolve_connection(data_dir=tmp_path)
    assert "damaged" in str(caught.value)


def test_nothing_configured_says_how_to_start_a_server(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnavailable) as caught:
        resolve_connection(data_dir=tmp_path)
    assert "graphmem neo4j start" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        resolve_connection(uri="bolt://x:7687")
    assert caught.value.details["field"] == "password"


def test_principal_precedence_and_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_principal()
    assert "GRAPHMEM_PRINCIPAL" in str(caught.value)
    monkeypatch.setenv("GRAPHMEM_PRINCIPAL", "env-agent")
    assert resolve_principal() == "env-agent"
    assert resolve_principal("arg-agent") == "arg-agent"
    with pytest.raises(ConfigError):
        resolve_principal("bad principal!")


def test_data_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert resolve_data_dir() == tmp_path / "xdg" / "graphmem"
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "env"))
    assert resolve_data_dir() == tmp_path / "env"
    assert resolve_data_dir(tmp_path / "arg") == tmp_path / "arg"


def test_the_cache_dir_follows_xdg_and_not_the_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert resolve_cache_dir() == tmp_path / "cache" / "graphmem"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert resolve_cache_dir() == Path.home() / ".cache" / "graphmem"


def test_a_private_file_replaces_its_target_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("before\n")
    with pytest.raises(RuntimeError), private_file(target) as stream:
        stream.write("half of it")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "before\n"
    assert [path.name for path in tmp_path.iterdir()] == ["out.jsonl"]
    with private_file(target, "wb") as stream:
        stream.write(b"after\n")
    assert target.read_bytes() == b"after\n" and target.stat().st_mode & 0o777 == 0o600


def test_a_private_file_writes_a_fifo_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    with private_file(fifo) as stream:
        stream.write("streamed\n")
    reader.join(timeout=10)
    assert received == ["streamed\n"] and stat.S_ISFIFO(fifo.stat().st_mode)
