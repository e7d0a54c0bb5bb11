"""The bench's CPU accounting: /proc reads, a window of a process's CPU, the server's pid."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.bench.cpu import (
    CpuWindow,
    local_server_pid,
    per_operation_ms,
    process_cpu_seconds,
)
from graphmem.provision.info import ServerInfo, loopback_bolt_uri, write_connection_record
from graphmem.settings import ConnectionSettings


def _burn(seconds: float) -> None:
    """Keeps this thread on the CPU for about ``seconds``."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_process_cpu_seconds_reads_a_process_and_grows_with_its_work() -> None:
    before = process_cpu_seconds(os.getpid())
    assert before is not None
    _burn(0.2)
    after = process_cpu_seconds(os.getpid())
    assert after is not None and after - before >= 0.1


def test_process_cpu_seconds_of_no_process_is_none() -> None:
    assert process_cpu_seconds(0) is None  # /proc/0 never exists


def test_a_cpu_window_counts_only_what_its_time_covers() -> None:
    window = CpuWindow(os.getpid(), 0.3)
    window.open()
    _burn(0.15)  # inside the window
    time.sleep(0.3)  # the window closes meanwhile
    _burn(0.3)  # after it: not counted
    used = window.used()
    assert used is not None and 0.1 <= used < 0.3


def test_a_cpu_window_without_a_process_is_none() -> None:
    window = CpuWindow(None, 0.01)
    window.open()
    assert window.used() is None


def test_per_operation_ms() -> None:
    assert per_operation_ms(1.5, 300) == 5.0
    assert per_operation_ms(None, 300) is None
    assert per_operation_ms(1.5, 0) is None


def _settings(uri: str) -> ConnectionSettings:
    return ConnectionSettings(uri=uri, user="neo4j", password="x", source="test")


@pytest.fixture
def fake_local_server(tmp_path: Path) -> Iterator[tuple[Path, int, int]]:
    """A data dir whose managed local server is a sleeping process that looks like one.

    Yields the data directory, the server's Bolt port and its pid.
    """
    data_dir = tmp_path / "data"
    home = data_dir / "neo4j"
    (home / "run").mkdir(parents=True)
    port = 17687
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", str(home), "neo4j-local"]
    )
    try:
        state = {"pid": process.pid, "bolt_port": port, "http_port": 17474}
        (home / "run" / "graphmem-server.json").write_text(json.dumps(state))
        info = ServerInfo.managed("local", port, 17474, home / "password", pid=process.pid)
        write_connection_record(data_dir, info)
        yield data_dir, port, process.pid
    finally:
        process.kill()
        process.wait()


def test_the_local_server_pid_is_that_of_the_server_the_bench_talks_to(
    fake_local_server: tuple[Path, int, int],
) -> None:
    data_dir, port, pid = fake_local_server
    assert local_server_pid(_settings(loopback_bolt_uri(port)), data_dir) == pid
    # Another server (one of your own on another port) is not this machine's to read.
    assert local_server_pid(_settings(loopback_bolt_uri(port + 1)), data_dir) is None


def test_no_local_server_pid_without_a_managed_server(tmp_path: Path) -> None:
    assert local_server_pid(_settings("bolt://127.0.0.1:7687"), tmp_path) is None
