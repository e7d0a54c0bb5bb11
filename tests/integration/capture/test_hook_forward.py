"""`graphmem hook claude-code` forwarding to a real `graphmem serve`, and falling back.

The hook runs as the host runs it (one process per event). Delivered events land in the
server's spool under the token's principal; a dead server or a refused token leaves the
event in the hook's own spool instead. Whatever happens: exit 0, nothing on stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.admin import Admin
from graphmem.capture import spool
from graphmem.provision.probe import free_port
from graphmem.store.ids import new_id
from tests.integration.serve.conftest import HttpServer


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    (tmp_path / "shop" / ".git").mkdir(parents=True)
    return tmp_path / "shop"


def _token_file(tmp_path: Path, token: str) -> Path:
    path = tmp_path / "token"
    path.write_text(token + "\n")
    path.chmod(0o600)
    return path


def _hook(tmp_path: Path, shop: Path, url: str, token_file: Path, marker: str) -> Path:
    """Runs the hook once; returns its own (fallback) data directory."""
    local = tmp_path / "local-data"
    payload = {
        "session_id": "fwd-1",
        "transcript_path": "/t.jsonl",
        "cwd": str(shop),
        "hook_event_name": "UserPromptSubmit",
        "prompt": f"{marker}: always run ruff before committing",
    }
    environment = {
        **os.environ,
        "GRAPHMEM_DATA_DIR": str(local),
        "GRAPHMEM_PRINCIPAL": "local",
        "GRAPHMEM_HOOK_URL": url,
        "GRAPHMEM_HOOK_TOKEN_FILE": str(token_file),
    }
    done = subprocess.run(
        [sys.executable, "-m", "graphmem", "hook", "claude-code"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=environment,
        timeout=30,
    )
    assert (done.returncode, done.stdout) == (0, b""), done.stderr[-500:]
    return local


def _prompts(data_dir: Path, principal: str) -> list[str]:
    path = spool.spool_file(data_dir, principal, "fwd-1")
    return [record.event.prompt or "" for record in spool.read(path)]


def _base_url(server: HttpServer) -> str:
    return server.url.removesuffix("/mcp")


def test_the_event_reaches_the_servers_spool(
    tmp_path: Path,
    shop: Path,
    http_server: HttpServer,
    admin: Admin,
    neo4j_env: dict[str, str],
) -> None:
    principal = f"test-{new_id()}"
    token_file = _token_file(tmp_path, admin.create_token(principal).secret)
    local = _hook(tmp_path, shop, _base_url(http_server), token_file, "forwarded")
    served = Path(neo4j_env["GRAPHMEM_DATA_DIR"])
    assert _prompts(served, principal) == ["forwarded: always run ruff before committing"]
    assert _prompts(local, "local") == []
    assert not (local / "hooks.log").exists()


def test_a_dead_server_falls_back_to_the_local_spool(tmp_path: Path, shop: Path) -> None:
    token_file = _token_file(tmp_path, "gm_not-asked")
    dead = f"http://127.0.0.1:{free_port()}"
    local = _hook(tmp_path, shop, dead, token_file, "no server")
    assert _prompts(local, "local") == ["no server: always run ruff before committing"]
    assert not (local / "hooks.log").exists()  # no answer is no failure: captured here


def test_a_wrong_token_falls_back_and_is_logged(
    tmp_path: Path, shop: Path, http_server: HttpServer, neo4j_env: dict[str, str]
) -> None:
    token_file = _token_file(tmp_path, "gm_wrong-token-for-this-server")
    local = _hook(tmp_path, shop, _base_url(http_server), token_file, "refused")
    assert _prompts(local, "local") == ["refused: always run ruff before committing"]
    (line,) = (local / "hooks.log").read_text().splitlines()
    logged = json.loads(line)
    assert (logged["error"], logged["message"]) == ("ForwardRefused", "HTTP 401")
    assert "gm_wrong" not in line


def test_an_unreadable_token_file_falls_back_and_is_logged(tmp_path: Path, shop: Path) -> None:
    missing = tmp_path / "no-such-token"
    local = _hook(tmp_path, shop, f"http://127.0.0.1:{free_port()}", missing, "no token")
    assert _prompts(local, "local") == ["no token: always run ruff before committing"]
    assert "ForwardRefused" in (local / "hooks.log").read_text()
