"""`graphmem install|uninstall`'s edits of host settings: byte-exact, idempotent, safe."""

from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.install import plan
from graphmem.install.errors import SettingsFileError
from graphmem.install.files import BACKUP_INFIX
from graphmem.install.hosts import Scope

CLAUDE_SETTINGS = """{
    "env": {"FOO": "bar"},
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "Stop": [
            {"hooks": [{"type": "command", "command": "notify-send done"}]}
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]
            }
        ]
    },
    "unknownKey": {"nested": [1, 2.5, null, true]}
}
"""
CLAUDE_JSON = (
    '{"numStartups": 12, "mcpServers": {"github": {"command": "gh-mcp", "args": []}},'
    ' "projects": {"/x": {"allowedTools": []}}}'
)
GEMINI_SETTINGS = """// Gemini CLI settings
{
  "theme": "GitHub", // the colours
  /* hooks already here */
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "lint", "timeout": 5000}]},
    ],
  },
  "mcpServers": {
    "files": {"command": "npx", "args": ["-y", "files-mcp"]}, // trailing comma next
  },
}
"""
CODEX_TOML = """model = "o4-mini"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]
"""
CURSOR_HOOKS = """{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{"command": "./format.sh"}]
  }
}
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in (
        "GRAPHMEM_DATA_DIR",
        "GRAPHMEM_PRINCIPAL",
        "GRAPHMEM_HOOK_TOKEN_FILE",
        "CODEX_HOME",
    ):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    return root


def _install(
    host: str, home: Path, project: Path, url: str | None = None, scope: Scope = "user"
) -> None:
    spec = plan.host_spec(host)
    plan.apply(plan.install(plan.wanted(spec, url), scope, home, project))


def _uninstall(host: str, home: Path, project: Path, scope: Scope = "user") -> None:
    plan.apply(plan.uninstall(plan.host_spec(host), scope, home, project))


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and BACKUP_INFIX not in path.name
    }


def _backups(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*") if BACKUP_INFIX in path.name)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


HOST_FILES = {
    "claude-code": {".claude/settings.json": CLAUDE_SETTINGS, ".claude.json": CLAUDE_JSON},
    "codex": {".codex/config.toml": CODEX_TOML},
    "gemini": {".gemini/settings.json": GEMINI_SETTINGS},
    "cursor": {".cursor/hooks.json": CURSOR_HOOKS, ".cursor/mcp.json": "{}"},
}


@pytest.mark.parametrize("url", [None, "http://127.0.0.1:8765"])
@pytest.mark.parametrize("host", sorted(HOST_FILES))
def test_install_twice_then_uninstall_gives_the_original_bytes(
    host: str, url: str | None, home: Path, project: Path
) -> None:
    for name, text in HOST_FILES[host].items():
        _write(home / name, text)
    original = _snapshot(home)
    _install(host, home, project, url)
    installed = _snapshot(home)
    assert installed != original
    backups = _backups(home)
    assert backups and all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in backups)
    _install(host, home, project, url)
    assert _snapshot(home) == installed
    assert _backups(home) == backups  # nothing changed: no new backup
    _uninstall(host, home, project)
    assert _snapshot(home) == original


@pytest.mark.parametrize("host", sorted(HOST_FILES))
def test_files_that_did_not_exist_are_removed_again(host: str, home: Path, project: Path) -> None:
    _install(host, home, project)
    assert _snapshot(home)
    assert _backups(home) == []
    _uninstall(host, home, project)
    assert _snapshot(home) == {}


def test_claude_code_entries_are_the_documented_ones(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", "/data dir/graphmem")
    monkeypatch.setenv("GRAPHMEM_PRINCIPAL", "alice")
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "sekrit-password")
    _write(home / ".claude" / "settings.json", CLAUDE_SETTINGS)
    _write(home / ".claude.json", CLAUDE_JSON)
    _install("claude-code", home, project)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["env"] == {"FOO": "bar"} and settings["unknownKey"]["nested"][1] == 2.5
    hooks = settings["hooks"]
    assert list(hooks) == [
        "Stop",
        "PreToolUse",
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PostToolUseFailure",
        "PreCompact",
        "SessionEnd",
    ]
    ours = hooks["PreToolUse"][-1]
    assert ours["matcher"] == "*"
    (handler,) = ours["hooks"]
    assert handler["type"] == "command" and handler["timeout"] == 10
    command = handler["command"]
    assert command.startswith("GRAPHMEM_DATA_DIR='/data dir/graphmem' GRAPHMEM_PRINCIPAL=alice /")
    assert command.endswith("/graphmem hook claude-code")
    assert "sekrit" not in (home / ".claude" / "settings.json").read_text()
    assert "matcher" not in hooks["SessionStart"][0]
    servers = json.loads((home / ".claude.json").read_text())["mcpServers"]
    assert list(servers) == ["github", "graphmem"]
    assert servers["graphmem"]["args"] == ["mcp"]
    assert servers["graphmem"]["env"] == {
        "GRAPHMEM_DATA_DIR": "/data dir/graphmem",
        "GRAPHMEM_PRINCIPAL": "alice",
    }


def test_claude_code_http_entries(home: Path, project: Path) -> None:
    _install("claude-code", home, project, "http://127.0.0.1:8765/")
    handler = json.loads((home / ".claude" / "settings.json").read_text())["hooks"]["Stop"][0][
        "hooks"
    ][0]
    assert handler == {
        "type": "http",
        "url": "http://127.0.0.1:8765/hooks/claude-code",
        "headers": {"Authorization": "Bearer $GRAPHMEM_HOOK_TOKEN"},
        "allowedEnvVars": ["GRAPHMEM_HOOK_TOKEN"],
        "timeout": 10,
    }
    server = json.loads((home / ".claude.json").read_text())["mcpServers"]["graphmem"]
    assert server == {
        "type": "http",
        "url": "http://127.0.0.1:8765/mcp",
        "headers": {"Authorization": "Bearer ${GRAPHMEM_HOOK_TOKEN}"},
    }


def test_switching_to_http_replaces_graphmems_entries_and_uninstall_still_restores(
    home: Path, project: Path
) -> None:
    _write(home / ".claude" / "settings.json", CLAUDE_SETTINGS)
    original = _snapshot(home)
    _install("claude-code", home, project)
    _install("claude-code", home, project, "http://127.0.0.1:8765")
    text = (home / ".claude" / "settings.json").read_text()
    assert " hook claude-code" not in text and text.count("/hooks/claude-code") == 8
    _uninstall("claude-code", home, project)
    assert _snapshot(home) == original


def test_project_scope_writes_the_projects_files(home: Path, project: Path) -> None:
    _install("claude-code", home, project, scope="project")
    assert (project / ".claude" / "settings.json").is_file()
    assert "graphmem" in json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert _snapshot(home) == {}
    _uninstall("claude-code", home, project, scope="project")
    assert not (project / ".mcp.json").exists()


def test_gemini_keeps_comments_and_counts_milliseconds(home: Path, project: Path) -> None:
    _write(home / ".gemini" / "settings.json", GEMINI_SETTINGS)
    _install("gemini", home, project)
    text = (home / ".gemini" / "settings.json").read_text()
    assert text.startswith("// Gemini CLI settings\n{") and "/* hooks already here */" in text
    assert '"timeout": 10000' in text and '"BeforeAgent"' in text and '"AfterTool"' in text


def test_codex_writes_hooks_json_and_an_mcp_table(home: Path, project: Path) -> None:
    _write(home / ".codex" / "config.toml", CODEX_TOML)
    _install("codex", home, project)
    config = tomllib.loads((home / ".codex" / "config.toml").read_text())
    assert set(config["mcp_servers"]) == {"docs", "graphmem"}
    assert config["mcp_servers"]["graphmem"]["args"] == ["mcp"]
    hooks = json.loads((home / ".codex" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PreCompact",
        "Stop",
    }


def test_a_toml_file_without_a_final_newline_comes_back_exactly(home: Path, project: Path) -> None:
    _write(home / ".codex" / "config.toml", CODEX_TOML.rstrip("\n"))
    original = _snapshot(home)
    _install("codex", home, project, "http://127.0.0.1:8765")
    server = tomllib.loads((home / ".codex" / "config.toml").read_text())["mcp_servers"]["graphmem"]
    assert server == {
        "url": "http://127.0.0.1:8765/mcp",
        "bearer_token_env_var": "GRAPHMEM_HOOK_TOKEN",
    }
    _uninstall("codex", home, project)
    assert _snapshot(home) == original


def test_cursor_hooks_are_flat_and_the_version_stays(home: Path, project: Path) -> None:
    _write(home / ".cursor" / "hooks.json", CURSOR_HOOKS)
    _install("cursor", home, project)
    data = json.loads((home / ".cursor" / "hooks.json").read_text())
    assert data["version"] == 1
    assert data["hooks"]["afterFileEdit"] == [{"command": "./format.sh"}]
    assert data["hooks"]["postToolUseFailure"][0]["command"].endswith("graphmem hook cursor")


@pytest.mark.parametrize(
    ("text", "line"),
    [('{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n', 3), ('{"a": 1,\n}\n', 2), ("[1, 2]\n", 1)],
)
def test_invalid_json_is_refused_and_left_untouched(
    text: str, line: int, home: Path, project: Path
) -> None:
    path = home / ".claude" / "settings.json"
    _write(path, text)
    with pytest.raises(SettingsFileError) as raised:
        plan.install(plan.wanted(plan.host_spec("claude-code"), None), "user", home, project)
    assert raised.value.line == line and str(path) in raised.value.message
    assert path.read_text() == text and _backups(home) == []
    assert not (home / ".claude.json").exists()


def test_the_cli_refuses_invalid_json_naming_file_and_line(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(home / ".claude.json", '{"mcpServers": {\n  "x": 1\n  "y": 2}}')
    monkeypatch.chdir(project)
    result = CliRunner().invoke(app, ["install", "claude-code"])
    assert result.exit_code == 7
    assert f"{home / '.claude.json'}, line 3" in result.output
    assert not (home / ".claude" / "settings.json").exists()


def test_dry_run_prints_a_diff_and_writes_nothing(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(home / ".claude" / "settings.json", CLAUDE_SETTINGS)
    original = _snapshot(home)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(app, ["install", "claude-code", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert f"+++ {home / '.claude' / 'settings.json'}" in result.output
    assert "+++ " + str(home / ".claude.json") in result.output
    assert '"matcher": "*",' in result.output
    assert _snapshot(home) == original and _backups(home) == []


def test_an_unknown_host_is_named(home: Path, project: Path) -> None:
    result = CliRunner().invoke(app, ["install", "vim"])
    assert result.exit_code == 1
    assert "claude-code, codex, gemini, cursor" in result.output
