"""What graphmem writes into each agent host's settings, and where (docs/serving-agents.md).

Per host: the settings file of its hooks and the events hooked (the names its adapter in
:mod:`graphmem.capture.hosts` reads), the shape of a hook handler, and the file and
shape of its MCP server entry, named ``graphmem``. Sources: Claude Code's hooks and MCP
references; ``openai/codex`` ``codex-rs/config/src/hook_config.rs`` (hooks.json: the
Claude Code shape, timeouts in seconds) and its ``[mcp_servers.NAME]`` tables; Gemini
CLI's ``docs/hooks/reference.md`` (timeouts in milliseconds) and ``mcpServers``; Cursor's
``hooks.json`` (``{"version": 1, "hooks": {...}}``, flat handlers) and ``mcp.json``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from graphmem.install.command import Launch
from graphmem.install.jsonc import JsonValue

Scope = Literal["user", "project"]
Format = Literal["json", "jsonc", "toml"]

HOSTS = ("claude-code", "codex", "gemini", "cursor")
"""The hosts graphmem installs into."""

MCP_NAME = "graphmem"
"""The MCP server entry's name in every host."""

TIMEOUT_SECONDS = 10
"""Each hook's time limit (the hook itself exits within 1 s)."""

TOKEN_VARIABLE = "GRAPHMEM_HOOK_TOKEN"
"""The environment variable a host reads the bearer token from, for http entries."""

ANY_TOOL = "*"


@dataclass(frozen=True)
class SettingsFile:
    """One file graphmem edits.

    Attributes:
        path: Where it is.
        format: ``json``, ``jsonc`` (comments allowed) or ``toml``.
        new_text: What graphmem starts a file from when there is none.
    """

    path: Path
    format: Format
    new_text: str


@dataclass(frozen=True)
class Host:
    """How graphmem attaches to one agent host.

    Attributes:
        name: The host (``claude-code``).
        events: The events hooked, each with its tool matcher (None: no matcher).
        grouped: Whether an event holds matcher groups (``{"matcher", "hooks": [...]}``)
            rather than handlers themselves (Cursor).
        http_hooks: Whether the host posts hook events itself (``"type": "http"``).
        hooks_keys: Where the events object is in the hooks file.
        mcp_keys: Where the MCP servers object is in the MCP file.
        handler: A command handler for a command line.
        mcp_stdio: The MCP entry that starts ``graphmem mcp``.
        mcp_http: The MCP entry for a server's ``/mcp`` URL.
    """

    name: str
    events: tuple[tuple[str, str | None], ...]
    grouped: bool
    http_hooks: bool
    hooks_keys: tuple[str, ...]
    mcp_keys: tuple[str, ...]
    handler: Callable[[str], dict[str, JsonValue]]
    mcp_stdio: Callable[[Launch], dict[str, JsonValue]]
    mcp_http: Callable[[str], dict[str, JsonValue]]

    def files(self, scope: Scope, home: Path, project: Path) -> tuple[SettingsFile, SettingsFile]:
        """The hooks file and the MCP file (the same file for Gemini)."""
        return _FILES[self.name](scope, home, project)

    def group(self, handler: dict[str, JsonValue], matcher: str | None) -> JsonValue:
        """An event's entry holding ``handler``."""
        if not self.grouped:
            return handler
        group: dict[str, JsonValue] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [handler]
        return group

    def is_ours(self, handler: object) -> bool:
        """Whether a hook handler is graphmem's.

        It runs ``graphmem hook HOST``, or posts to ``/hooks/HOST``.
        """
        if not isinstance(handler, dict):
            return False
        command, url = handler.get("command"), handler.get("url")
        if isinstance(command, str) and _runs_hook(command, self.name):
            return True
        return isinstance(url, str) and url.rstrip("/").endswith("/hooks/" + self.name)


def http_handler(url: str) -> dict[str, JsonValue]:
    """Claude Code's http handler posting to graphmem's ``/hooks/claude-code``."""
    return {
        "type": "http",
        "url": url.rstrip("/") + "/hooks/claude-code",
        "headers": {"Authorization": f"Bearer ${TOKEN_VARIABLE}"},
        "allowedEnvVars": [TOKEN_VARIABLE],
        "timeout": TIMEOUT_SECONDS,
    }


def _runs_hook(command: str, host: str) -> bool:
    return re.search(rf"graphmem['\"]?\s+hook\s+{re.escape(host)}(\s|$)", command) is not None


def _stdio(launch: Launch) -> dict[str, JsonValue]:
    entry: dict[str, JsonValue] = {"command": launch.executable, "args": ["mcp"]}
    if launch.env:
        entry["env"] = {name: value for name, value in launch.env}
    return entry


def _command_handler(command: str) -> dict[str, JsonValue]:
    return {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}


def _bearer_http(kind: str, url_key: str, variable: str) -> Callable[[str], dict[str, JsonValue]]:
    def entry(url: str) -> dict[str, JsonValue]:
        made: dict[str, JsonValue] = {"type": kind} if kind else {}
        made[url_key] = url.rstrip("/") + "/mcp"
        made["headers"] = {"Authorization": f"Bearer {variable}"}
        return made

    return entry


def _codex_http(url: str) -> dict[str, JsonValue]:
    return {"url": url.rstrip("/") + "/mcp", "bearer_token_env_var": TOKEN_VARIABLE}


def _claude_files(scope: Scope, home: Path, project: Path) -> tuple[SettingsFile, SettingsFile]:
    if scope == "user":
        return (
            SettingsFile(home / ".claude" / "settings.json", "json", "{}\n"),
            SettingsFile(home / ".claude.json", "json", "{}\n"),
        )
    return (
        SettingsFile(project / ".claude" / "settings.json", "json", "{}\n"),
        SettingsFile(project / ".mcp.json", "json", "{}\n"),
    )


def _codex_files(scope: Scope, home: Path, project: Path) -> tuple[SettingsFile, SettingsFile]:
    codex_home = os.environ.get("CODEX_HOME", "").strip()
    if scope == "project":
        base = project / ".codex"
    else:
        base = Path(codex_home) if codex_home else home / ".codex"
    return (
        SettingsFile(base / "hooks.json", "json", "{}\n"),
        SettingsFile(base / "config.toml", "toml", ""),
    )


def _gemini_files(scope: Scope, home: Path, project: Path) -> tuple[SettingsFile, SettingsFile]:
    base = home if scope == "user" else project
    settings = SettingsFile(base / ".gemini" / "settings.json", "jsonc", "{}\n")
    return settings, settings


def _cursor_files(scope: Scope, home: Path, project: Path) -> tuple[SettingsFile, SettingsFile]:
    base = (home if scope == "user" else project) / ".cursor"
    return (
        SettingsFile(base / "hooks.json", "json", '{\n  "version": 1\n}\n'),
        SettingsFile(base / "mcp.json", "json", "{}\n"),
    )


_FILES = {
    "claude-code": _claude_files,
    "codex": _codex_files,
    "gemini": _gemini_files,
    "cursor": _cursor_files,
}

HOST_SPECS: dict[str, Host] = {
    "claude-code": Host(
        name="claude-code",
        events=(
            ("SessionStart", None),
            ("UserPromptSubmit", None),
            ("PreToolUse", ANY_TOOL),
            ("PostToolUse", ANY_TOOL),
            ("PostToolUseFailure", ANY_TOOL),
            ("PreCompact", None),
            ("Stop", None),
            ("SessionEnd", None),
        ),
        grouped=True,
        http_hooks=True,
        hooks_keys=("hooks",),
        mcp_keys=("mcpServers",),
        handler=_command_handler,
        mcp_stdio=_stdio,
        mcp_http=_bearer_http("http", "url", "${GRAPHMEM_HOOK_TOKEN}"),
    ),
    # Codex's hooks config reads these (no SessionEnd, no PostToolUseFailure there).
    "codex": Host(
        name="codex",
        events=(
            ("SessionStart", None),
            ("UserPromptSubmit", None),
            ("PreToolUse", ANY_TOOL),
            ("PostToolUse", ANY_TOOL),
            ("PreCompact", None),
            ("Stop", None),
        ),
        grouped=True,
        http_hooks=False,
        hooks_keys=("hooks",),
        mcp_keys=("mcp_servers",),
        handler=_command_handler,
        mcp_stdio=_stdio,
        mcp_http=_codex_http,
    ),
    "gemini": Host(
        name="gemini",
        events=(
            ("SessionStart", None),
            ("BeforeAgent", None),
            ("BeforeTool", None),
            ("AfterTool", None),
            ("AfterAgent", None),
            ("PreCompress", None),
            ("SessionEnd", None),
        ),
        grouped=True,
        http_hooks=False,
        hooks_keys=("hooks",),
        mcp_keys=("mcpServers",),
        handler=lambda command: {
            "name": "graphmem",
            "type": "command",
            "command": command,
            "timeout": TIMEOUT_SECONDS * 1000,  # Gemini CLI counts milliseconds
        },
        mcp_stdio=_stdio,
        mcp_http=_bearer_http("", "httpUrl", "${GRAPHMEM_HOOK_TOKEN}"),
    ),
    "cursor": Host(
        name="cursor",
        events=(
            ("sessionStart", None),
            ("beforeSubmitPrompt", None),
            ("preToolUse", None),
            ("postToolUse", None),
            ("postToolUseFailure", None),
            ("preCompact", None),
            ("stop", None),
            ("sessionEnd", None),
        ),
        grouped=False,
        http_hooks=False,
        hooks_keys=("hooks",),
        mcp_keys=("mcpServers",),
        handler=lambda command: {"command": command, "timeout": TIMEOUT_SECONDS},
        mcp_stdio=_stdio,
        mcp_http=_bearer_http("", "url", "${env:GRAPHMEM_HOOK_TOKEN}"),
    ),
}
"""Every host graphmem installs into, by name."""
