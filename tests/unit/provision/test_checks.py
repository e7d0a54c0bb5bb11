"""Local server pre-flight checks: Java version and ports (no database)."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.errors import JavaNotFound, PortInUse
from graphmem.provision.info import ensure_password
from graphmem.provision.java import find_java, parse_java_major
from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port


@pytest.mark.parametrize(
    ("output", "major"),
    [
        ('openjdk version "17.0.15" 2025-04-15', 17),
        ('java version "1.8.0_381"', 8),
        ('openjdk version "21" 2023-09-19', 21),
        ("garbage", None),
    ],
)
def test_parse_java_major(output: str, major: int | None) -> None:
    assert parse_java_major(output) == major


def _fake_java(tmp_path: Path, version: str) -> Path:
    java_home = tmp_path / "jdk"
    (java_home / "bin").mkdir(parents=True)
    java = java_home / "bin" / "java"
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\"' >&2\n")
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    return java_home


def test_too_old_java_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, "11.0.2")))
    with pytest.raises(JavaNotFound) as caught:
        find_java()
    assert "Java 17 or 21" in str(caught.value) and "JAVA_HOME" in str(caught.value)


def test_missing_java_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(JavaNotFound) as caught:
        find_java()
    assert "install" in str(caught.value).lower()


def test_port_in_use_is_a_clear_error_and_exit_1(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(PortInUse) as caught:
            LocalServer(tmp_path, bolt_port=port, http_port=free_port()).start(timeout=5)
        assert str(port) in str(caught.value) and "--bolt-port" in str(caught.value)
        result = CliRunner().invoke(
            app,
            ["neo4j", "start", "--bolt-port", str(port), "--data-dir", str(tmp_path)],
            env={"GRAPHMEM_NEO4J_URI": None, "NEO4J_URI": None},
        )
    assert result.exit_code == 8  # ServerError
    assert "already in use" in result.stderr


def test_missing_principal_exits_7_before_touching_a_database() -> None:
    result = CliRunner().invoke(
        app, ["beliefs", "--all-projects"], env={"GRAPHMEM_PRINCIPAL": None}
    )
    assert result.exit_code == 7 and "GRAPHMEM_PRINCIPAL" in result.stderr


def test_generated_passwords_never_look_like_an_option(tmp_path: Path) -> None:
    # neo4j-admin read a password starting with "-" as an option and refused it.
    passwords = [ensure_password(tmp_path / f"p{n}" / "password") for n in range(300)]
    assert all(not p.startswith("-") and len(p) == 48 for p in passwords)
    assert len(set(passwords)) == 300
    assert ensure_password(tmp_path / "p0" / "password") == passwords[0]  # kept, not new
    mode = (tmp_path / "p0" / "password").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
