"""Where a bench's CPU goes: its processes', their embedder's, and the local server's.

When agents and Neo4j share one machine, throughput and tail latency are a CPU budget:
a closed loop of N agents waits N / (operations per second) per operation on average.
``bench agents`` divides each part of that budget by the operations done, so a run says
what an operation costs and where, without a profiler beside it (the embedder's part is
counted by :class:`~graphmem.vectors.counting.CountingEmbedder`).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from graphmem.errors import ConfigError
from graphmem.provision.backup import managed_local_server
from graphmem.provision.info import loopback_bolt_uri
from graphmem.settings import ConnectionSettings


def process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds process ``pid`` has used so far (None: unreadable).

    Read from ``/proc``: on a machine without it, or for a process gone, None.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    # After the command name in parentheses (which may hold spaces): state is field 3,
    # utime and stime are fields 14 and 15.
    fields = stat[stat.rfind(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuWindow:
    """The CPU seconds a process uses from :meth:`open` until ``seconds`` later.

    Both ends are read from ``/proc``; the end on a timer thread, so that it is taken on
    time while the caller waits for something else (the agents' outcomes).
    """

    def __init__(self, pid: int | None, seconds: float) -> None:
        self._pid = pid
        self._seconds = seconds
        self._first: float | None = None
        self._last: float | None = None
        self._timer: threading.Timer | None = None

    def open(self) -> None:
        """Reads the process's CPU now and starts the timer for the end."""
        if self._pid is None:
            return
        self._first = process_cpu_seconds(self._pid)
        self._timer = threading.Timer(self._seconds, self._close)
        self._timer.daemon = True
        self._timer.start()

    def _close(self) -> None:
        if self._pid is not None:
            self._last = process_cpu_seconds(self._pid)

    def used(self) -> float | None:
        """CPU seconds used in the window (waits for its end); None when not read."""
        if self._timer is None:
            return None
        self._timer.join()
        if self._first is None or self._last is None:
            return None
        return self._last - self._first


def local_server_pid(settings: ConnectionSettings, data_dir: Path) -> int | None:
    """The pid of the server ``settings`` reach, when graphmem runs it here from the jars.

    None for any other server (one of your own, Docker, another data directory's):
    its CPU is not this machine's to read.
    """
    try:
        server = managed_local_server(data_dir)
    except ConfigError:
        return None
    if settings.uri != loopback_bolt_uri(server.bolt_port):
        return None
    return server.pid()


def per_operation_ms(seconds: float | None, operations: int) -> float | None:
    """CPU milliseconds per operation, rounded (None when unknown or nothing was done)."""
    if seconds is None or operations <= 0:
        return None
    return round(seconds * 1000 / operations, 2)
