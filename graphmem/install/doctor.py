"""``graphmem doctor``: whether an installation works end to end, one check at a time.

Per host: the settings hold graphmem's hooks and MCP server, and the hook command's
executable runs. Then the hook server, when one is configured (``--http``'s, or
``GRAPHMEM_HOOK_URL``, or a running local server): it answers, and ``GET
/hooks/health`` takes the token (200; 401 means the token is not valid). Then Neo4j
answers, and the current directory's project has not opted out of capture. Nothing
here writes a spool, a log or a setting.
"""

from __future__ import annotations

import os
import shutil
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.capture import local_server
from graphmem.capture.project import CONFIG_FILE, project_of
from graphmem.errors import GraphMemError
from graphmem.install import edits, files
from graphmem.install.command import split_command
from graphmem.install.hosts import HOST_SPECS, HOSTS, TOKEN_VARIABLE, Host, Scope
from graphmem.install.json_edit import JsonDocument

HEALTH_PATH = "/hooks/health"
HEALTH_SECONDS = 3.0


@dataclass(frozen=True)
class Check:
    """One check's outcome.

    Attributes:
        check: What was checked (``settings``, ``mcp``, ``hook_command``, ``server``,
            ``token``, ``neo4j``, ``capture``).
        ok: Whether it passed.
        message: One sentence: what was found, and for a problem what to do.
    """

    check: str
    ok: bool
    message: str

    def to_dict(self) -> dict[str, str | bool]:
        """The check as JSON."""
        return {"check": self.check, "ok": self.ok, "message": self.message}


@dataclass
class _Hooked:
    """What one host's installed hooks say about how they run."""

    commands: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)


def diagnose(hosts: list[str], scope: Scope, home: Path, cwd: Path) -> list[Check]:
    """Every check for ``hosts`` (all installed ones when empty), in order.

    Args:
        hosts: The hosts to check; empty: every host graphmem is installed for.
        scope: ``user`` or ``project`` settings.
        home: The home directory.
        cwd: The current directory (the project of ``--scope project`` and of capture).
    """
    chosen = [HOST_SPECS[name] for name in hosts] or _installed(scope, home, cwd)
    checks: list[Check] = []
    if not chosen:
        checks.append(
            Check(
                "settings",
                False,
                f"graphmem is installed for no agent host ({scope} scope): "
                "run `graphmem install claude-code` (or codex, gemini, cursor)",
            )
        )
    pinned: dict[str, str] = {}
    for host in chosen:
        hooked = _host_checks(host, scope, home, cwd, checks)
        for command in hooked.commands:
            pinned = {**split_command(command)[0], **pinned}
        checks.extend(_server_checks(host, hooked, pinned))
    checks.append(_neo4j_check(pinned.get("GRAPHMEM_DATA_DIR")))
    checks.append(_capture_check(cwd))
    return checks


def _installed(scope: Scope, home: Path, cwd: Path) -> list[Host]:
    found = []
    for name in HOSTS:
        host = HOST_SPECS[name]
        hooks_file = host.files(scope, home, cwd)[0]
        try:
            text = files.read(hooks_file.path)
            if text is None:
                continue
            doc = JsonDocument(hooks_file.path, text, comments=hooks_file.format == "jsonc")
            if edits.hooked_events(doc, host):
                found.append(host)
        except GraphMemError:
            found.append(host)  # the settings check says what is wrong with it
    return found


def _host_checks(host: Host, scope: Scope, home: Path, cwd: Path, checks: list[Check]) -> _Hooked:
    hooks_file, mcp_file = host.files(scope, home, cwd)
    hooked = _Hooked()
    install = f"run `graphmem install {host.name}" + (
        " --scope project`" if scope == "project" else "`"
    )
    try:
        text = files.read(hooks_file.path)
        if text is None:
            checks.append(Check("settings", False, f"{hooks_file.path} does not exist: {install}"))
            return hooked
        doc = JsonDocument(hooks_file.path, text, comments=hooks_file.format == "jsonc")
        found = edits.hooked_events(doc, host)
    except GraphMemError as error:
        checks.append(Check("settings", False, f"{host.name}: {error.message}"))
        return hooked
    missing = [event for event, _ in host.events if event not in found]
    if missing:
        checks.append(
            Check(
                "settings",
                False,
                f"{hooks_file.path} lacks graphmem's {host.name} hooks for "
                f"{', '.join(missing)}: {install}",
            )
        )
    else:
        checks.append(
            Check("settings", True, f"{hooks_file.path} holds graphmem's hooks for {host.name}")
        )
    for handlers in found.values():
        for handler in handlers:
            command, url = handler.get("command"), handler.get("url")
            if isinstance(command, str) and command not in hooked.commands:
                hooked.commands.append(command)
            if isinstance(url, str) and url not in hooked.urls:
                hooked.urls.append(url)
    checks.append(_mcp_check(host, mcp_file.path, mcp_file.format, install))
    checks.extend(_command_checks(host, hooked))
    return hooked


def _mcp_check(host: Host, path: Path, fmt: str, install: str) -> Check:
    try:
        text = files.read(path)
        if text is not None and fmt == "toml":
            from graphmem.install import toml_edit

            present = toml_edit.table(path, text, (*host.mcp_keys, "graphmem")) is not None
        elif text is not None:
            doc = JsonDocument(path, text, comments=fmt == "jsonc")
            present = edits.has_mcp(doc, host.mcp_keys)
        else:
            present = False
    except GraphMemError as error:
        return Check("mcp", False, error.message)
    if present:
        return Check("mcp", True, f"{path} names graphmem's MCP server for {host.name}")
    return Check("mcp", False, f"{path} does not name graphmem's MCP server: {install}")


def _command_checks(host: Host, hooked: _Hooked) -> list[Check]:
    checks = []
    for command in hooked.commands:
        words = split_command(command)[1]
        executable = words[0] if words else ""
        if executable and "/" not in executable:
            executable = shutil.which(executable) or executable
        if executable and os.path.isfile(executable) and os.access(executable, os.X_OK):
            checks.append(
                Check("hook_command", True, f"the {host.name} hook command runs {executable}")
            )
        else:
            checks.append(
                Check(
                    "hook_command",
                    False,
                    f"the {host.name} hook command's executable {executable or command!r} is "
                    f"missing or not executable: run `graphmem install {host.name}` again",
                )
            )
    return checks


def _server_checks(host: Host, hooked: _Hooked, pinned: dict[str, str]) -> list[Check]:
    """The server and token checks, for the server the hooks use (if any)."""
    token: str | None = os.environ.get(TOKEN_VARIABLE) or None
    token_from = TOKEN_VARIABLE
    url = next((u.rstrip("/").removesuffix("/hooks/" + host.name) for u in hooked.urls), None)
    if url is None:
        url = pinned.get("GRAPHMEM_HOOK_URL") or os.environ.get("GRAPHMEM_HOOK_URL") or None
        token_file = pinned.get("GRAPHMEM_HOOK_TOKEN_FILE") or os.environ.get(
            "GRAPHMEM_HOOK_TOKEN_FILE"
        )
        if url is not None and token_file:
            token, token_from = _read_token(token_file), token_file
    if url is None:
        data = pinned.get("GRAPHMEM_DATA_DIR") or local_server.data_dir()
        principal = pinned.get("GRAPHMEM_PRINCIPAL") or os.environ.get("GRAPHMEM_PRINCIPAL")
        running = local_server.running(data, principal) if principal else None
        if running is None:
            return [
                Check(
                    "server",
                    True,
                    "no hook server is configured or running: the hooks start a local one "
                    "on demand",
                )
            ]
        url = running[0]
        assert principal is not None
        token_from = local_server.token_path(data, principal)
        token = _read_token(token_from)
    return _ask_health(url, token, token_from)


def _read_token(path: str) -> str | None:
    try:
        with open(os.path.expanduser(path), encoding="utf-8") as stream:
            return stream.read().strip() or None
    except OSError:
        return None


def _ask_health(url: str, token: str | None, token_from: str) -> list[Check]:
    request = urllib.request.Request(url + HEALTH_PATH, method="GET")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=HEALTH_SECONDS) as response:
            status = int(response.status)
    except urllib.error.HTTPError as error:
        status = int(error.code)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        return [
            Check(
                "server",
                False,
                f"no hook server answers at {url} ({reason}): start it (`graphmem serve`), "
                "or install without --http",
            )
        ]
    checks = [Check("server", True, f"the hook server at {url} answers")]
    if token is None:
        checks.append(
            Check(
                "token",
                False,
                f"no token for {url}: set {TOKEN_VARIABLE} (or GRAPHMEM_HOOK_TOKEN_FILE) to one "
                "from `graphmem token create --principal P`",
            )
        )
    elif status == 200:
        checks.append(Check("token", True, f"{url} takes the token from {token_from}"))
    elif status == 401:
        checks.append(
            Check(
                "token",
                False,
                f"{url} refuses the token from {token_from} (401): make a new one with "
                "`graphmem token create --principal P`",
            )
        )
    else:
        checks.append(Check("token", False, f"{url} answered HTTP {status} to GET {HEALTH_PATH}"))
    return checks


def _neo4j_check(data_dir: str | None) -> Check:
    from graphmem.settings import resolve_connection
    from graphmem.store.database import bolt_answers

    try:
        settings = resolve_connection(data_dir=data_dir)
    except GraphMemError as error:
        return Check("neo4j", False, error.message)
    if bolt_answers(settings.uri, settings.user, settings.password):
        return Check("neo4j", True, f"Neo4j answers at {settings.uri}")
    return Check(
        "neo4j",
        False,
        f"Neo4j does not answer at {settings.uri} (or refuses the credentials): start it with "
        "`graphmem neo4j start`, or fix GRAPHMEM_NEO4J_URI and GRAPHMEM_NEO4J_PASSWORD",
    )


def _capture_check(cwd: Path) -> Check:
    try:
        project = project_of(str(cwd))
    except (ValueError, OSError) as error:
        return Check("capture", False, f"the project of {cwd} cannot be read: {error}")
    if project.capture:
        return Check("capture", True, f"capture is on for project {project.name}")
    return Check(
        "capture",
        False,
        f"project {project.name} opted out of capture (capture = false in "
        f"{project.root / CONFIG_FILE}): remove that line to capture its sessions",
    )
