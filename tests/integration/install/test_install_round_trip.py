"""`graphmem install claude-code`, `uninstall` and `doctor`, run as a person runs them.

Each test has its own HOME (holding settings with other hooks and other MCP servers),
its own data directory and a fresh principal; the CLI runs in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.install.files import BACKUP_INFIX
from graphmem.provision.probe import free_port
from tests.integration.serve.conftest import HttpServer

SETTINGS = """{
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "ruff format -q"}]}
    ]
  },
  "statusLine": {"type": "command", "command": "echo hi"}
}
"""
CLAUDE_JSON = """{
  "numStartups": 4,
  "mcpServers": {
    "github": {"type": "http", "url": "https://api.example.com/mcp"}
  },
  "tipsHistory": {"memory": 2}
}
"""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(SETTINGS)
    (home / ".claude.json").write_text(CLAUDE_JSON)
    return home


@pytest.fixture
def shop(work_tree: Path) -> Path:
    return work_tree


@pytest.fixture
def env(neo4j_env: dict[str, str], home: Path) -> dict[str, str]:
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GRAPHMEM_", "NEO4J_")) and key != "XDG_DATA_HOME"
    }
    return {**base, **neo4j_env, "HOME": str(home)}


def _graphmem(
    shop: Path, env: dict[str, str], *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "graphmem", *args],
        cwd=shop,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def _files(home: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in sorted(home.rglob("*"))
        if path.is_file() and BACKUP_INFIX not in path.name
    }


def _problems(shop: Path, env: dict[str, str]) -> dict[str, str]:
    done = _graphmem(shop, env, "doctor", "claude-code", "--json", check=False)
    checks = json.loads(done.stdout)
    problems = {check["check"]: check["message"] for check in checks if not check["ok"]}
    assert done.returncode == (1 if problems else 0), done.stdout + done.stderr
    return problems


def test_install_twice_then_uninstall_gives_the_original_bytes(
    home: Path, shop: Path, env: dict[str, str]
) -> None:
    original = _files(home)
    _graphmem(shop, env, "install", "claude-code")
    installed = _files(home)
    settings = json.loads(installed[".claude/settings.json"])
    assert settings["hooks"]["PostToolUse"][0]["matcher"] == "Edit|Write"
    assert len(settings["hooks"]) == 8
    command = settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
    assert f"GRAPHMEM_PRINCIPAL={env['GRAPHMEM_PRINCIPAL']}" in command
    assert env["GRAPHMEM_NEO4J_PASSWORD"] not in installed[".claude/settings.json"].decode()
    servers = json.loads(installed[".claude.json"])["mcpServers"]
    assert list(servers) == ["github", "graphmem"]
    backups = sorted(p.name for p in home.rglob("*") if BACKUP_INFIX in p.name)
    assert len(backups) == 2

    again = _graphmem(shop, env, "install", "claude-code")
    assert "unchanged" in again.stdout
    assert _files(home) == installed
    assert sorted(p.name for p in home.rglob("*") if BACKUP_INFIX in p.name) == backups

    assert _problems(shop, env) == {}

    _graphmem(shop, env, "uninstall", "claude-code")
    assert _files(home) == original


def test_doctor_names_the_missing_piece(home: Path, shop: Path, env: dict[str, str]) -> None:
    _graphmem(shop, env, "install", "claude-code")
    settings = home / ".claude" / "settings.json"
    installed = settings.read_text()
    assert _problems(shop, env) == {}

    settings.unlink()
    problems = _problems(shop, env)
    assert set(problems) == {"settings"} and "does not exist" in problems["settings"]
    settings.write_text(installed)

    executable = json.loads(installed)["hooks"]["Stop"][-1]["hooks"][0]["command"].split()[-3]
    settings.write_text(installed.replace(executable, str(shop / "gone" / "graphmem")))
    problems = _problems(shop, env)
    assert set(problems) == {"hook_command"} and "gone/graphmem" in problems["hook_command"]
    settings.write_text(installed)

    dead = {**env, "GRAPHMEM_NEO4J_URI": f"bolt://127.0.0.1:{free_port()}"}
    problems = _problems(shop, dead)
    assert set(problems) == {"neo4j"} and "does not answer" in problems["neo4j"]

    (shop / ".graphmem.toml").write_text("capture = false\n")
    problems = _problems(shop, env)
    assert set(problems) == {"capture"} and "opted out" in problems["capture"]
    (shop / ".graphmem.toml").unlink()

    assert _problems(shop, env) == {}


def test_doctor_checks_the_token_of_a_configured_server(
    home: Path, shop: Path, env: dict[str, str], http_server: HttpServer
) -> None:
    base = http_server.url.removesuffix("/mcp")
    _graphmem(shop, env, "install", "claude-code", "--http", base)
    created = _graphmem(
        shop, env, "token", "create", "--principal", env["GRAPHMEM_PRINCIPAL"], "--json"
    )
    token = json.loads(created.stdout)["token"]

    problems = _problems(shop, {**env, "GRAPHMEM_HOOK_TOKEN": "gm_not-a-token"})
    assert set(problems) == {"token"} and "401" in problems["token"]
    assert "gm_not-a-token" not in problems["token"]

    problems = _problems(shop, env)
    assert set(problems) == {"token"} and "no token" in problems["token"]

    assert _problems(shop, {**env, "GRAPHMEM_HOOK_TOKEN": token}) == {}

    http_server.process.terminate()
    http_server.process.wait(timeout=30)
    problems = _problems(shop, {**env, "GRAPHMEM_HOOK_TOKEN": token})
    assert set(problems) == {"server"} and base in problems["server"]
