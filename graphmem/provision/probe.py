"""Checks whether ports are free and whether HTTP answers (Bolt: store.database)."""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable

from graphmem.errors import PortInUse


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when nothing listens on ``host:port`` and it can be bound."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def ensure_ports_free(ports: dict[str, int]) -> None:
    """Raises PortInUse for the first of ``{what: port}`` that is taken."""
    for what, port in ports.items():
        if not port_is_free(port):
            raise PortInUse(
                f"Port {port} on 127.0.0.1 is already in use, so Neo4j cannot take it for "
                f"{what}. Stop whatever listens there (`ss -ltnp 'sport = :{port}'`), or "
                "pick free ports: `graphmem neo4j start --bolt-port N --http-port M`.",
                port=port,
                rule="port_free",
            )


def free_port() -> int:
    """Returns a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def http_answers(url: str, timeout: float = 3.0) -> bool:
    """True when ``url`` answers HTTP 200."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_until(check: Callable[[], bool], timeout: float, interval: float = 0.5) -> bool:
    """Calls ``check()`` until it is true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(interval)
    return False
