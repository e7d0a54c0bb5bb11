"""Real MCP transports for the serving tests: `graphmem mcp` over stdio and
`graphmem serve` over streamable HTTP, each a subprocess, driven by the SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from graphmem.provision.probe import free_port, port_is_free, wait_until

INITIALIZE: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "graphmem-tests", "version": "1"},
    },
}
"""A raw MCP initialize request (it opens a session over streamable HTTP)."""

WORK_TREE_FILES = {
    "billing/invoice.py": "class Invoice:\n    def total(self):\n        return 1\n",
    "billing/tax.py": "def vat(cents):\n    return cents * 20 // 100\n",
}


@pytest.fixture
def work_tree(tmp_path: Path) -> Path:
    """A small git work tree named `shop` (the stdio server's default project)."""
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    for path, text in WORK_TREE_FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


@asynccontextmanager
async def stdio_client(env: dict[str, str], cwd: Path, *args: str) -> AsyncIterator[Client]:
    """An SDK client attached to `graphmem mcp` run as a child process."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem", "mcp", *args],
        cwd=str(cwd),
        env={**env, "PATH": os.environ.get("PATH", "")},
    )
    async with Client(params) as client:
        yield client


@dataclass
class HttpServer:
    """A running `graphmem serve`."""

    url: str
    process: subprocess.Popen[bytes]

    @asynccontextmanager
    async def client(self, token: str) -> AsyncIterator[Client]:
        """An SDK client whose every request carries ``token``."""
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(self.url, http_client=http)) as client,
        ):
            yield client

    def post(
        self, token: str | None, body: dict[str, Any], session: str | None = None
    ) -> httpx2.Response:
        """One raw JSON-RPC POST, in MCP session ``session`` if given (to see the status)."""
        headers = _headers(token, session)
        return httpx2.post(self.url, json=body, headers=headers, timeout=30)

    def delete(self, token: str, session: str) -> httpx2.Response:
        """A raw DELETE of MCP session ``session`` (the client ending it)."""
        return httpx2.delete(self.url, headers=_headers(token, session), timeout=30)


def _headers(token: str | None, session: str | None) -> dict[str, str]:
    headers = {"Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if session is not None:
        headers["mcp-session-id"] = session
    return headers


@pytest.fixture
def http_server(neo4j_env: dict[str, str], tmp_path: Path) -> Iterator[HttpServer]:
    """`graphmem serve` on a free port, stopped afterwards."""
    port = free_port()
    env = {key: value for key, value in {**os.environ, **neo4j_env}.items()}
    env.pop("GRAPHMEM_PRINCIPAL")  # the server has no principal of its own
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        if not wait_until(lambda: not port_is_free(port) or process.poll() is not None, 60, 0.1):
            pytest.fail("graphmem serve did not start listening")
        if process.poll() is not None:
            pytest.fail(f"graphmem serve exited: {(tmp_path / 'serve.log').read_text()}")
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", process)
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
