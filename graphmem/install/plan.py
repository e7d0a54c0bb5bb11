"""``graphmem install|uninstall HOST``: the new text of each settings file, then written.

Every change is computed in memory first, for every file, so a file that cannot be read
safely stops the command before any file is touched. Then each changed file gets a
backup beside it and is replaced atomically; a second install changes nothing and
writes no backup. A file graphmem created holds nothing else after an uninstall, and is
removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graphmem.errors import InvalidInput
from graphmem.install import edits, files, toml_edit
from graphmem.install.command import launch
from graphmem.install.errors import SettingsFileError
from graphmem.install.hosts import HOST_SPECS, HOSTS, MCP_NAME, Host, Scope, SettingsFile
from graphmem.install.hosts import http_handler as claude_http_handler
from graphmem.install.json_edit import JsonDocument
from graphmem.install.jsonc import JsonValue


@dataclass(frozen=True)
class Change:
    """One settings file, before and after (None: the file does not exist).

    Attributes:
        path: The file.
        before: Its text now.
        after: Its text after the command.
        backup: Where its backup was written (once applied).
    """

    path: Path
    before: str | None
    after: str | None
    backup: Path | None = None

    @property
    def changed(self) -> bool:
        """Whether the command changes the file."""
        return self.before != self.after

    def diff(self) -> str:
        """The change as a unified diff."""
        return files.unified_diff(self.path, self.before, self.after)


@dataclass(frozen=True)
class Wanted:
    """What an install writes for one host.

    Attributes:
        host: The host.
        hooks: Per event, the entry holding graphmem's handler.
        mcp: The MCP server entry.
        forwards: Whether the hooks are commands that forward to ``--http``'s server
            (a host without http hooks).
    """

    host: Host
    hooks: tuple[tuple[str, JsonValue], ...]
    mcp: dict[str, JsonValue]
    forwards: bool


def host_spec(name: str) -> Host:
    """The host named ``name``.

    Raises:
        InvalidInput: graphmem does not install into it.
    """
    try:
        return HOST_SPECS[name]
    except KeyError:
        raise InvalidInput(
            f"HOST: graphmem installs into {', '.join(HOSTS)}, not {name!r}",
            field="host",
            rule="known_host",
        ) from None


def server_url(url: str | None) -> str | None:
    """``--http``'s server base URL (a trailing ``/mcp`` or ``/`` dropped).

    Raises:
        InvalidInput: It is not an http(s) URL.
    """
    if url is None:
        return None
    if not url.startswith(("http://", "https://")) or len(url.split("://", 1)[1]) == 0:
        raise InvalidInput(
            f"--http: {url!r} is not a server URL such as http://127.0.0.1:8765",
            field="http",
            rule="url",
        )
    return url.rstrip("/").removesuffix("/mcp").rstrip("/")


def wanted(host: Host, url: str | None) -> Wanted:
    """What to write for ``host``, with ``url`` the ``--http`` server (or None)."""
    forwards = url is not None and not host.http_hooks
    hook_launch = launch(url if forwards else None)
    if url is not None and host.http_hooks:
        handler = claude_http_handler(url)
    else:
        handler = host.handler(hook_launch.command("hook", host.name))
    hooks = tuple((event, host.group(handler, matcher)) for event, matcher in host.events)
    mcp = host.mcp_http(url) if url is not None else host.mcp_stdio(launch())
    return Wanted(host, hooks, mcp, forwards)


def install(want: Wanted, scope: Scope, home: Path, project: Path) -> list[Change]:
    """The changes an install makes (nothing written yet).

    Raises:
        SettingsFileError: A file is not valid JSON (TOML) or not shaped as the host's.
    """
    hooks_file, mcp_file = want.host.files(scope, home, project)
    texts = _Texts()
    doc = texts.json(hooks_file)
    edits.add_hooks(doc, want.host, want.hooks)
    texts.update(hooks_file, doc.text)
    if mcp_file.format == "toml":
        texts.update(mcp_file, _toml_install(mcp_file, texts.text(mcp_file), want.mcp))
    else:
        doc = texts.json(mcp_file)
        edits.add_mcp(doc, want.host.mcp_keys, want.mcp)
        texts.update(mcp_file, doc.text)
    return texts.changes()


def uninstall(host: Host, scope: Scope, home: Path, project: Path) -> list[Change]:
    """The changes an uninstall makes (nothing written yet).

    Raises:
        SettingsFileError: A file is not valid JSON (TOML).
    """
    hooks_file, mcp_file = host.files(scope, home, project)
    texts = _Texts()
    if texts.exists(hooks_file):
        doc = texts.json(hooks_file)
        edits.remove_hooks(doc, host)
        texts.update(hooks_file, doc.text)
    if texts.exists(mcp_file) and mcp_file.format == "toml":
        current = texts.text(mcp_file)
        toml_edit.load(mcp_file.path, current)
        removed = toml_edit.remove_table(current, (*host.mcp_keys, MCP_NAME))
        texts.update(mcp_file, current if removed is None else removed)
    elif texts.exists(mcp_file):
        doc = texts.json(mcp_file)
        edits.remove_mcp(doc, host.mcp_keys)
        texts.update(mcp_file, doc.text)
    return texts.changes(removing=True)


def apply(changes: list[Change]) -> list[Change]:
    """Writes the changes: a backup of each changed file first, then the file.

    Returns:
        The changed files, each with its backup (None for a file created or removed).
    """
    done: list[Change] = []
    for change in changes:
        if not change.changed:
            continue
        saved = None
        if change.before is not None and change.after is not None:
            saved = files.backup(change.path)
        if change.after is None:
            change.path.unlink()
        else:
            files.write(change.path, change.after)
        done.append(Change(change.path, change.before, change.after, saved))
    return done


def _toml_install(file: SettingsFile, text: str, entry: dict[str, JsonValue]) -> str:
    keys = ("mcp_servers", MCP_NAME)
    present = toml_edit.table(file.path, text, keys)
    if present == entry:
        return text
    removed = toml_edit.remove_table(text, keys)
    if removed is None and present is not None:
        raise SettingsFileError(
            file.path, "it has an mcp_servers.graphmem entry graphmem did not write: remove it"
        )
    text = toml_edit.append_table(removed if removed is not None else text, keys, entry)
    toml_edit.load(file.path, text)
    return text


class _Texts:
    """The files of one command: their text before, and as edited so far."""

    def __init__(self) -> None:
        self._files: dict[Path, SettingsFile] = {}
        self._before: dict[Path, str | None] = {}
        self._now: dict[Path, str] = {}

    def exists(self, file: SettingsFile) -> bool:
        self._load(file)
        return self._before[file.path] is not None

    def text(self, file: SettingsFile) -> str:
        self._load(file)
        return self._now[file.path]

    def json(self, file: SettingsFile) -> JsonDocument:
        return JsonDocument(file.path, self.text(file), comments=file.format == "jsonc")

    def update(self, file: SettingsFile, text: str) -> None:
        self._now[file.path] = text

    def changes(self, removing: bool = False) -> list[Change]:
        made = []
        for path, file in self._files.items():
            before, after = self._before[path], self._now[path]
            if before is None and after == file.new_text:
                made.append(Change(path, None, None))
            elif removing and after == file.new_text:
                made.append(Change(path, before, None))
            else:
                made.append(Change(path, before, after))
        return made

    def _load(self, file: SettingsFile) -> None:
        if file.path not in self._files:
            self._files[file.path] = file
            before = files.read(file.path)
            self._before[file.path] = before
            self._now[file.path] = file.new_text if before is None else before
