"""Reading a hook payload's fields, the same way for every host adapter.

Standard library only (and :mod:`graphmem.capture.event`): the adapters run on the
hook command's hot path. Every reader raises :class:`PayloadError` for a field of the
wrong type, so an adapter never lets a ``TypeError`` or ``KeyError`` out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent, PayloadError

ToolReader = Callable[[str, Mapping[str, object]], dict[str, Any]]
"""Reads a tool event's attributes: (event name, payload) -> HookEvent fields."""

EventFields = Mapping[str, tuple[tuple[str, str], ...]]
"""Per event name: the payload's string fields and the HookEvent attributes they fill."""

_EXIT_LINE = re.compile(r"[Ee]xit [Cc]ode:? (-?\d+)")


def payload_object(payload: object) -> Mapping[str, object]:
    """The payload as a mapping.

    Args:
        payload: What the host sent, parsed from JSON.

    Returns:
        The payload, unchanged.

    Raises:
        PayloadError: It is not a JSON object.
    """
    if not isinstance(payload, Mapping):
        raise PayloadError(f"a hook payload is a JSON object, not {type(payload).__name__}")
    return payload


def required_str(payload: Mapping[str, object], *keys: str) -> str:
    """The first of ``keys`` the payload holds, a non-empty string.

    Raises:
        PayloadError: None of them is there, or the first one there is not a
            non-empty string.
    """
    for key in keys:
        value = payload.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            raise PayloadError(f"{key} is not a non-empty string")
        return value
    raise PayloadError(f"the payload has no {' or '.join(keys)}")


def optional_str(payload: Mapping[str, object], key: str) -> str | None:
    """``payload[key]``: a string, or None when absent or null.

    Raises:
        PayloadError: It is there and not a string.
    """
    value = payload.get(key)
    if value is None or isinstance(value, str):
        return value
    raise PayloadError(f"{key} is not a string")


def optional_bool(payload: Mapping[str, object], key: str) -> bool:
    """``payload[key]``: a boolean, False when absent or null.

    Raises:
        PayloadError: It is there and not a boolean.
    """
    value = payload.get(key)
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    raise PayloadError(f"{key} is not a boolean")


def optional_int(payload: Mapping[str, object], key: str) -> int | None:
    """``payload[key]``: a whole number (an integral float too), None when absent.

    Raises:
        PayloadError: It is there and not a whole number.
    """
    value = payload.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        raise PayloadError(f"{key} is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise PayloadError(f"{key} is not a whole number")


def optional_object(payload: Mapping[str, object], key: str) -> dict[str, Any]:
    """``payload[key]``: a JSON object as a dict, empty when absent or null.

    Raises:
        PayloadError: It is there and not an object.
    """
    value = payload.get(key)
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    raise PayloadError(f"{key} is not an object")


def first_str(values: object) -> str | None:
    """The first element of a JSON array when it is a string (Cursor workspace_roots)."""
    if isinstance(values, list) and values and isinstance(values[0], str):
        return values[0]
    return None


def rest(payload: Mapping[str, object], used: Iterable[str]) -> dict[str, Any]:
    """The payload's fields an adapter did not read (a HookEvent's ``extra``)."""
    skip = set(used)
    return {k: v for k, v in payload.items() if isinstance(k, str) and k not in skip}


def text_of(value: object) -> str | None:
    """A tool response as text.

    A string is itself; content blocks (``[{"type": "text", "text": ...}]``, as MCP
    tools and Claude Code's Agent tool answer) are their texts joined; an object with a
    ``text``, ``content``, ``result`` or ``output`` field is that field's text; any
    other JSON value is its compact JSON.

    Args:
        value: The response as the host sent it.

    Returns:
        The text, or None for a missing response.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(_is_text_block(item) for item in value):
        return "\n".join(str(item["text"]) for item in value)
    if isinstance(value, Mapping):
        for key in ("text", "content", "result", "output"):
            inner = value.get(key)
            if inner is not None and inner is not value:
                found = text_of(inner)
                if found is not None:
                    return found
    return json.dumps(value, sort_keys=True, default=str)


def _is_text_block(item: object) -> bool:
    return isinstance(item, Mapping) and isinstance(item.get("text"), str)


def split_exit_line(text: str) -> tuple[int | None, str]:
    """A shell failure's ``Exit code N`` first line, and the text after it.

    Args:
        text: The failure text, e.g. Claude Code's PostToolUseFailure ``error``.

    Returns:
        The exit code and the rest of the text, or None and the whole text when the
        first line is not an exit-code line.
    """
    first, _, after = text.partition("\n")
    match = _EXIT_LINE.fullmatch(first.strip())
    if match is None:
        return None, text
    return int(match.group(1)), after


def exit_code_line(text: str, pattern: re.Pattern[str]) -> int | None:
    """The exit code the last line of ``text`` matching ``pattern`` names.

    Args:
        text: A shell tool's output as the host formats it.
        pattern: A whole-line pattern with the code as its first group.

    Returns:
        The code, or None when no line matches.
    """
    found = None
    for line in text.splitlines():
        match = pattern.fullmatch(line.strip())
        if match is not None:
            found = int(match.group(1))
    return found


def read_common(
    payload: object,
    *,
    host: str,
    kinds: Mapping[str, EventKind],
    event_fields: EventFields,
    tool_reader: ToolReader,
    tool_keys: Iterable[str],
) -> HookEvent:
    """A HookEvent from a payload in the Claude Code shape (Claude Code, Codex, Gemini).

    Those hosts share ``session_id``, ``cwd``, ``hook_event_name`` and
    ``transcript_path`` on every event, ``agent_id`` inside a subagent, and
    ``tool_name``/``tool_input`` on tool events.

    Args:
        payload: What the host sent.
        host: The adapter's name.
        kinds: The host's event names and what they mean; others are OTHER.
        event_fields: Per event, the string fields to lift into attributes.
        tool_reader: Reads the tool attributes of an event with a ``tool_name``.
        tool_keys: The payload fields ``tool_reader`` consumes (left out of extra).

    Returns:
        The event.

    Raises:
        PayloadError: Not an object, no ``session_id`` or ``hook_event_name``, or a
            field of the wrong type.
    """
    payload = payload_object(payload)
    name = required_str(payload, "hook_event_name")
    fields: dict[str, Any] = {
        "host": host,
        "host_event": name,
        "kind": kinds.get(name, EventKind.OTHER),
        "session_id": required_str(payload, "session_id"),
        "cwd": optional_str(payload, "cwd") or "",
        "transcript_path": optional_str(payload, "transcript_path"),
        "agent_id": optional_str(payload, "agent_id"),
    }
    used = ["session_id", "cwd", "hook_event_name", "transcript_path", "agent_id"]
    if "tool_name" in payload:
        fields.update(tool_reader(name, payload))
        used += tool_keys
    for key, attribute in event_fields.get(name, ()):
        fields[attribute] = optional_str(payload, key)
        used.append(key)
    fields["extra"] = rest(payload, used)
    return HookEvent(**fields)


def hook_specific_context(
    event_name: str, context: str, allowed: frozenset[str]
) -> dict[str, object] | None:
    """``hookSpecificOutput.additionalContext`` for ``event_name``, None where not allowed.

    Args:
        event_name: The host's name for the event.
        context: The text to add.
        allowed: The host's events that take context without side effects.

    Returns:
        The JSON object to print, or None.
    """
    if event_name not in allowed:
        return None
    return {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": context}}


def tool_call(tool: str, tool_input: dict[str, Any], shell_tools: frozenset[str]) -> dict[str, Any]:
    """A tool event's ``tool`` and, for the host's shell tools, ``command``.

    Args:
        tool: The host's name for the tool.
        tool_input: The tool's input; a shell's ``command`` is taken out of it.
        shell_tools: The host's names for its shell tool.

    Returns:
        ``tool`` (:data:`SHELL_TOOL` for a shell), and ``command`` for a shell.
    """
    if tool not in shell_tools:
        return {"tool": tool}
    command = tool_input.pop("command", None)
    return {"tool": SHELL_TOOL, "command": command if isinstance(command, str) else None}
