"""The spool: a session's working memory, one append-only JSON Lines file (docs/capture.md).

Each hook event becomes one line, written whole with one ``write`` under an exclusive
lock and made durable with one ``fsync`` before the hook answers, so a crash or
``kill -9`` loses at most the line being written and never corrupts earlier ones (a
torn last line is skipped when the spool is read). Before the first byte is written:

- every secret the trust detectors find is replaced by ``[secret redacted]`` (counted
  per line in ``redactions``);
- text fields are cut to :data:`MAX_FIELD_CHARS` (named in ``truncated``);
- content from outside the project is marked ``untrusted``: web fetches and searches,
  other MCP servers' tools, and files outside the work tree.

A session's spool is capped at :data:`MAX_SESSION_BYTES`; past it one marker line says
so and later events are dropped. Files are 0600 in 0700 directories. Standard library
and graphmem's pure modules only: this runs in the hook command.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.capture.event import EventKind, HookEvent, SpoolRecord
from graphmem.settings import PRIVATE_FILE_MODE, make_private_dir
from graphmem.trust.secrets import find_secrets

SPOOL_DIR = "spool"
"""The spool's directory under the data directory (one subdirectory per principal)."""

MAX_FIELD_CHARS = 20_000
"""The most characters a text field of an event keeps (output is the usual long one)."""

MAX_SESSION_BYTES = 16 * 1024 * 1024
"""The most bytes one session's spool holds."""

REDACTED = "[secret redacted]"
"""What a redacted secret reads as."""

UNTRUSTED_TOOLS = frozenset({"WebFetch", "WebSearch", "web_fetch", "google_web_search"})
"""Tools whose output comes from the web (Claude Code's and Gemini CLI's names)."""

MCP_TOOL_PREFIX = "mcp__"
"""How hosts name another MCP server's tools (``mcp__server__tool``)."""

TRUNCATED_SESSION = "graphmem.session_truncated"
"""The host_event of the marker line written when a session reaches its cap."""

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def spool_file(data_dir: Path, principal: str, session_id: str) -> Path:
    """Where a session's spool lives: ``spool/<principal>/<session>.jsonl``.

    A session id that is not a plain file name (slashes, dots first, over 128
    characters) is named by its sha256 instead.
    """
    name = session_id if _SAFE_ID.fullmatch(session_id) else "sha256-" + _digest(session_id)
    return data_dir / SPOOL_DIR / principal / f"{name}.jsonl"


STATE_SUFFIX = ".state.json"
"""The suffix of the state file consolidation keeps beside a spool."""


def state_file(spool_path: Path) -> Path:
    """The state file beside a session's spool (:mod:`graphmem.capture.sessions`)."""
    return spool_path.with_name(spool_path.name.removesuffix(".jsonl") + STATE_SUFFIX)


def consolidated_to(spool_path: Path) -> int:
    """The spool offset the session's consolidation reached (0: none yet, or unreadable)."""
    try:
        saved = json.loads(state_file(spool_path).read_bytes())
        done = saved.get("consolidated_to") if isinstance(saved, dict) else None
    except (OSError, ValueError):
        return 0
    return done if isinstance(done, int) else 0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]


@dataclass(frozen=True)
class Written:
    """What appending one event did.

    Attributes:
        offset: The line's byte offset in the spool (None: dropped, the spool is full).
        redactions: How many secrets were redacted.
        untrusted: Whether the event was marked untrusted.
    """

    offset: int | None
    redactions: int
    untrusted: bool


def append(path: Path, event: HookEvent, project: str, work_tree: Path) -> Written:
    """Redacts, caps and marks ``event``, then appends it to the spool at ``path``.

    Args:
        path: The session's spool (:func:`spool_file`).
        event: The event as the host's adapter read it.
        project: The project it was captured in.
        work_tree: The project's root: files outside it are untrusted content.
    """
    cleaned, redactions, truncated = _redacted(event)
    untrusted = is_untrusted(cleaned, work_tree)
    line = _line(cleaned, project, untrusted, redactions, truncated)
    make_private_dir(path.parent)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE_MODE)
    try:
        os.fchmod(descriptor, PRIVATE_FILE_MODE)
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        offset = _sealed(descriptor, path)
        if offset + len(line) > MAX_SESSION_BYTES:
            if not _ends_with_marker(path, offset):
                marker = HookEvent(
                    host=event.host,
                    host_event=TRUNCATED_SESSION,
                    kind=EventKind.OTHER,
                    session_id=event.session_id,
                    cwd=event.cwd,
                )
                _write(descriptor, _line(marker, project, False, 0, ("session",)))
            return Written(None, redactions, untrusted)
        _write(descriptor, line)
        return Written(offset, redactions, untrusted)
    finally:
        os.close(descriptor)


def _sealed(descriptor: int, path: Path) -> int:
    """The spool's size, after ending a line torn by a crash (so it stays one bad line).

    Called under the lock: a writer killed mid-line leaves no newline, and the next
    line would otherwise join it and be lost with it.
    """
    size = os.fstat(descriptor).st_size
    if size:
        with path.open("rb") as spool:
            spool.seek(size - 1)
            if spool.read(1) != b"\n":
                _write(descriptor, b"\n")
                size += 1
    return size


def _write(descriptor: int, line: bytes) -> None:
    written = 0
    while written < len(line):
        written += os.write(descriptor, line[written:])
    os.fsync(descriptor)


def _ends_with_marker(path: Path, size: int) -> bool:
    with path.open("rb") as spool:
        spool.seek(max(0, size - 4096))
        return TRUNCATED_SESSION.encode() in spool.read()


def _line(
    event: HookEvent, project: str, untrusted: bool, redactions: int, truncated: tuple[str, ...]
) -> bytes:
    record: dict[str, Any] = {
        "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "project": project,
        "event": event.to_record(),
    }
    if untrusted:
        record["untrusted"] = True
    if redactions:
        record["redactions"] = redactions
    if truncated:
        record["truncated"] = list(truncated)
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.encode("utf-8") + b"\n"


_TEXT_FIELDS = ("prompt", "command", "output", "message")


def _redacted(event: HookEvent) -> tuple[HookEvent, int, tuple[str, ...]]:
    """The event with secrets redacted and long text cut: (event, redactions, cut fields)."""
    count = 0
    truncated: list[str] = []
    changes: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        value = getattr(event, name)
        if isinstance(value, str):
            if len(value) > MAX_FIELD_CHARS:
                value = value[:MAX_FIELD_CHARS]
                truncated.append(name)
            value, found = redact(value)
            count += found
            changes[name] = value
    tool_input, found = _redact_value(event.tool_input, truncated, "tool_input")
    extra, found_extra = _redact_value(event.extra, truncated, "extra")
    return (
        replace(event, **changes, tool_input=tool_input, extra=extra),
        count + found + found_extra,
        tuple(truncated),
    )


def _redact_value(value: Any, truncated: list[str], field: str) -> tuple[Any, int]:
    if isinstance(value, str):
        if len(value) > MAX_FIELD_CHARS:
            value = value[:MAX_FIELD_CHARS]
            if field not in truncated:
                truncated.append(field)
        return redact(value)
    if isinstance(value, dict):
        count = 0
        cleaned: dict[str, Any] = {}
        for key, item in value.items():
            cleaned[key], found = _redact_value(item, truncated, field)
            count += found
        return cleaned, count
    if isinstance(value, list):
        pairs = [_redact_value(item, truncated, field) for item in value]
        return [item for item, _ in pairs], sum(found for _, found in pairs)
    return value, 0


def redact(text: str) -> tuple[str, int]:
    """``text`` with every secret the trust detectors find replaced; and how many."""
    findings = find_secrets(text)
    if not findings:
        return text, 0
    parts: list[str] = []
    last = 0
    for finding in findings:
        parts.append(text[last : finding.start])
        parts.append(REDACTED)
        last = finding.end
    parts.append(text[last:])
    return "".join(parts), len(findings)


def is_untrusted(event: HookEvent, work_tree: Path) -> bool:
    """Whether the event carries content from outside the project.

    Web fetches and searches, another MCP server's tools, and tools that touched a file
    outside the work tree.
    """
    tool = event.tool or ""
    if tool in UNTRUSTED_TOOLS or tool.startswith(MCP_TOOL_PREFIX):
        return True
    root = work_tree.resolve()
    for raw in event.paths:
        path = Path(raw) if Path(raw).is_absolute() else Path(event.cwd) / raw
        try:
            inside = os.path.normpath(path).startswith(str(root) + os.sep)
        except ValueError:
            inside = False
        if not inside:
            return True
    return False


def read(path: Path) -> Iterator[SpoolRecord]:
    """The spool's records in order; a torn or unreadable line is skipped."""
    try:
        spool = path.open("rb")
    except FileNotFoundError:
        return
    with spool:
        offset = 0
        for line in spool:
            start, offset = offset, offset + len(line)
            record = _record(line, start)
            if record is not None:
                yield record


def _record(line: bytes, offset: int) -> SpoolRecord | None:
    if not line.endswith(b"\n"):
        return None  # torn by a crash mid-write
    try:
        data = json.loads(line)
        return SpoolRecord(
            n=offset,
            at=str(data["at"]),
            project=str(data["project"]),
            event=HookEvent.from_record(data["event"]),
            untrusted=bool(data.get("untrusted", False)),
            redactions=int(data.get("redactions", 0)),
            truncated=tuple(data.get("truncated", ())),
        )
    except (ValueError, KeyError, TypeError):
        return None
