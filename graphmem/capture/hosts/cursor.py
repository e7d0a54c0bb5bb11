"""Cursor's hook payloads as HookEvents (docs/capture.md).

Source: Cursor's hooks documentation (cursor.com/docs/agent/hooks), read through the
copies and typings public projects keep of it (see the report of this module's change:
the page itself was not reachable from here). Hooks live in ``.cursor/hooks.json`` or
``~/.cursor/hooks.json`` as ``{"version": 1, "hooks": {"<event>": [{"command": ...}]}}``.

Every input carries ``conversation_id``, ``generation_id``, ``hook_event_name`` and
``workspace_roots`` (``model``, ``cursor_version``, ``user_email`` and
``transcript_path`` when known); sessionStart and sessionEnd also carry ``session_id``.
The conversation is the session: ``conversation_id`` is the session id, ``session_id``
the fallback. The working directory is ``cwd`` where the event has one, else the first
workspace root.

Event names are camelCase. The agent's tools are ``Shell``, ``Read``, ``Write``,
``Grep``, ``Delete``, ``Task`` and ``MCP:<tool>``; ``Shell`` is :data:`SHELL_TOOL`.
One failing shell command fires both afterShellExecution (``command``, ``output``,
``duration``) and postToolUseFailure (``tool_input.command``, ``error_message``,
``failure_type``): :func:`same_call` recognises the pair so the spool keeps one.

Output: JSON on stdout, so saying nothing is ``{}``. Context goes back as top-level
``additional_context`` (snake_case). stop's ``followup_message`` would make the agent go
on, so graphmem never answers stop with anything but ``{}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent
from graphmem.capture.forward import NOTHING_TO_ADD
from graphmem.capture.hosts._read import (
    first_str,
    optional_bool,
    optional_int,
    optional_object,
    optional_str,
    payload_object,
    required_str,
    rest,
    text_of,
    tool_call,
)

HOST = "cursor"

SHELL_TOOLS = frozenset({"Shell"})

EDIT_TOOL = "Write"
"""The tool an afterFileEdit is recorded as (Cursor's file-writing tool)."""

_KINDS = {
    "sessionStart": EventKind.SESSION_START,
    "beforeSubmitPrompt": EventKind.PROMPT,
    "preToolUse": EventKind.PRE_TOOL,
    "beforeShellExecution": EventKind.PRE_TOOL,
    "postToolUse": EventKind.POST_TOOL,
    "postToolUseFailure": EventKind.POST_TOOL,
    "afterShellExecution": EventKind.POST_TOOL,
    "afterFileEdit": EventKind.POST_TOOL,
    "stop": EventKind.STOP,
    "preCompact": EventKind.PRE_COMPACT,
    "sessionEnd": EventKind.SESSION_END,
}

_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "beforeSubmitPrompt": (("prompt", "prompt"),),
    "stop": (("status", "reason"),),
    "preCompact": (("trigger", "reason"),),
    "sessionEnd": (("reason", "reason"),),
    "afterAgentResponse": (("text", "message"),),
}
"""Per event: the payload's string fields and the HookEvent attributes they fill."""

_CONTEXT_EVENTS = frozenset({"sessionStart", "postToolUse", "postToolUseFailure"})

_SHELL_EVENTS = frozenset({"beforeShellExecution", "afterShellExecution"})
"""Events about one shell command, with ``command`` at the top level."""

_COMMON = ("conversation_id", "session_id", "hook_event_name", "cwd", "transcript_path")


def read_event(payload: Mapping[str, object]) -> HookEvent:
    """The HookEvent a Cursor hook payload describes.

    Args:
        payload: The JSON object Cursor wrote to the hook's stdin.

    Returns:
        The event; an event graphmem keeps no signal from (beforeReadFile,
        afterAgentThought, the Tab events...) is :attr:`EventKind.OTHER`.

    Raises:
        PayloadError: Not an object, no ``conversation_id``/``session_id`` or
            ``hook_event_name``, or a field of the wrong type.
    """
    payload = payload_object(payload)
    name = required_str(payload, "hook_event_name")
    fields: dict[str, Any] = {
        "host": HOST,
        "host_event": name,
        "kind": _KINDS.get(name, EventKind.OTHER),
        "session_id": required_str(payload, "conversation_id", "session_id"),
        "cwd": optional_str(payload, "cwd") or first_str(payload.get("workspace_roots")) or "",
        "transcript_path": optional_str(payload, "transcript_path"),
    }
    used: list[str] = [*_COMMON]
    if name in _SHELL_EVENTS:
        fields.update(_shell_event(payload))
        used += ("command", "output", "duration", "exit_code")
    elif name == "afterFileEdit":
        path = optional_str(payload, "file_path")
        fields.update(tool=EDIT_TOOL, paths=(path,) if path else ())
        fields["tool_input"] = {"edits": payload.get("edits", [])}
        used += ("file_path", "edits")
    elif "tool_name" in payload:
        fields.update(_tool_fields(name, payload))
        used += ("tool_name", "tool_input", "tool_use_id", "tool_output", "duration")
        used += ("error_message", "is_interrupt")
    for key, attribute in _EVENT_FIELDS.get(name, ()):
        fields[attribute] = optional_str(payload, key)
        used.append(key)
    fields["extra"] = rest(payload, used)
    return HookEvent(**fields)


def _shell_event(payload: Mapping[str, object]) -> dict[str, Any]:
    """BeforeShellExecution / afterShellExecution: the command, its output and time."""
    return {
        "tool": SHELL_TOOL,
        "command": optional_str(payload, "command"),
        "output": optional_str(payload, "output"),
        "exit_code": optional_int(payload, "exit_code"),
        "duration_ms": optional_int(payload, "duration"),
    }


def _tool_fields(name: str, payload: Mapping[str, object]) -> dict[str, Any]:
    """The tool attributes of a preToolUse, postToolUse or postToolUseFailure."""
    tool = required_str(payload, "tool_name")
    tool_input = _tool_input(payload.get("tool_input"))
    fields = tool_call(tool, tool_input, SHELL_TOOLS)
    shell = fields["tool"] == SHELL_TOOL
    fields["tool_use_id"] = optional_str(payload, "tool_use_id")
    fields["duration_ms"] = optional_int(payload, "duration")
    path = tool_input.get("file_path") or tool_input.get("path")
    if not shell and isinstance(path, str):
        fields["paths"] = (path,)
    if name == "postToolUse":
        fields["output"] = text_of(payload.get("tool_output"))
    elif name == "postToolUseFailure":
        fields.update(
            failed=True,
            output=optional_str(payload, "error_message"),
            interrupted=optional_bool(payload, "is_interrupt"),
        )
    fields["tool_input"] = tool_input
    return fields


def _tool_input(value: object) -> dict[str, Any]:
    """``tool_input`` as an object (MCP events send it as a JSON string)."""
    if isinstance(value, str):
        return {"input": value}
    return optional_object({"tool_input": value}, "tool_input")


def same_call(a: HookEvent, b: HookEvent) -> bool:
    """Whether two Cursor events report the same shell command run (dedupe them).

    A failing shell command fires both afterShellExecution and postToolUseFailure (a
    successful one may fire afterShellExecution and postToolUse). The two are the same
    call when they are from one session, one of them is afterShellExecution and the
    other a tool event, both are post-tool events of the shell with the same command,
    and no id the payloads carry disagrees: ``tool_use_id`` when both have it,
    ``generation_id`` (the agent turn) when both have it. The caller compares events
    close in its sequence (a few lines of the spool apart), since the same command can
    run twice in one turn.

    Args:
        a: One event.
        b: Another, later or earlier.

    Returns:
        True when ``b`` repeats ``a`` (the spool keeps the richer one: the failure).
    """
    if a.host != HOST or b.host != HOST or a.session_id != b.session_id:
        return False
    if {a.host_event, b.host_event} not in _TWINS:
        return False
    if a.kind != EventKind.POST_TOOL or b.kind != EventKind.POST_TOOL:
        return False
    if a.tool != SHELL_TOOL or b.tool != SHELL_TOOL or not a.command or not b.command:
        return False
    if a.command.strip() != b.command.strip():
        return False
    for ids in ((a.tool_use_id, b.tool_use_id), _extra_ids(a, b, "generation_id")):
        if ids[0] and ids[1] and ids[0] != ids[1]:
            return False
    return True


_TWINS = (
    {"afterShellExecution", "postToolUseFailure"},
    {"afterShellExecution", "postToolUse"},
)


def _extra_ids(a: HookEvent, b: HookEvent, key: str) -> tuple[object, object]:
    return a.extra.get(key), b.extra.get(key)


def context_output(event_name: str, context: str) -> dict[str, object] | None:
    """The JSON that adds ``context`` to the agent's context on this event.

    Args:
        event_name: Cursor's name for the event (``postToolUse``).
        context: The text to add.

    Returns:
        ``{"additional_context": ...}`` on sessionStart, postToolUse and
        postToolUseFailure; None elsewhere.
    """
    if event_name not in _CONTEXT_EVENTS:
        return None
    return {"additional_context": context}


def empty_output(event_name: str) -> str:
    """What to print when graphmem has nothing to say: ``{}``.

    Args:
        event_name: Cursor's name for the event (the answer is the same for all).

    Returns:
        An empty JSON object.
    """
    del event_name
    return NOTHING_TO_ADD[HOST]
