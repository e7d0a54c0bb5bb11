"""Where a data directory's local hook server listens, and who may start one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from graphmem.capture import local_server


def test_a_token_is_made_once_and_kept_private(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    token = local_server.ensure_token(data, "alice")
    assert len(token) == 64 and local_server.ensure_token(data, "alice") == token
    assert stat.S_IMODE(os.stat(local_server.token_path(data, "alice")).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(local_server.directory(data, "alice")).st_mode) == 0o700
    assert local_server.ensure_token(data, "bob") != token


def test_only_a_live_process_counts_as_running(tmp_path: Path) -> None:
    data = str(tmp_path)
    path = Path(local_server.server_path(data, "alice"))
    assert local_server.running(data, "alice") is None
    path.parent.mkdir(parents=True)
    path.write_text(f"http://127.0.0.1:4711 {os.getpid()}\n")
    assert local_server.running(data, "alice") == ("http://127.0.0.1:4711", os.getpid())
    path.write_text("http://127.0.0.1:4711 999999999\n")
    assert local_server.running(data, "alice") is None
    path.write_text("garbage")
    assert local_server.running(data, "alice") is None


def test_a_start_mark_holds_for_its_window(tmp_path: Path) -> None:
    data = str(tmp_path)
    mark = Path(local_server.starting_path(data, "alice"))
    mark.parent.mkdir(parents=True)
    mark.touch()
    os.utime(mark, (1000.0, 1000.0))
    assert local_server.starting(data, "alice", 1000.0 + local_server.STARTING_SECONDS - 1)
    assert not local_server.starting(data, "alice", 1000.0 + local_server.STARTING_SECONDS + 1)
    assert not local_server.start(data, "alice", 1001.0)  # one is starting: none started


def test_the_data_directory_is_found_as_the_settings_find_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graphmem.settings import resolve_data_dir

    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "d"))
    assert local_server.data_dir() == str(resolve_data_dir())
    monkeypatch.delenv("GRAPHMEM_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert local_server.data_dir() == str(resolve_data_dir())


def test_hooks_may_be_kept_from_local_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_HOOK_LOCAL", "off")
    assert not local_server.enabled()
    monkeypatch.setenv("GRAPHMEM_HOOK_LOCAL", "on")
    assert local_server.enabled()
