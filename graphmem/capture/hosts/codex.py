"""Codex CLI's hook payloads as HookEvents (docs/capture.md).

Source: the JSON schemas in ``openai/codex`` ``codex-rs/hooks/schema/generated/``
(``*.command.input.schema.json`` and ``*.command.output.schema.json``) and
``codex-rs/hooks/src/events/``. Hooks live in ``hooks.json`` or ``[hooks]`` in
``config.toml`` (``~/.codex`` or the repo's ``.codex``). Every input carries
``session_id``, ``cwd``, ``hook_event_name``, ``model`` and a nullable
``transcript_path``; most carry ``turn_id`` and ``permission_mode``. ``turn_id`` and
``model`` go to ``extra``.

Codex names its shell tool ``Bash`` in hooks whatever the model called
(``exec_command``, ``shell``), with ``tool_input`` ``{"command": ...}``; ``apply_patch``
carries the patch text in ``tool_input.command``; MCP tools are ``mcp__server__tool``.

There is no PostToolUseFailure. The PostToolUse schema types ``tool_response`` as any
JSON value, and for Bash Codex sends the command's output as one string (its test suite
asserts ``tool_response == "post-tool-output"``), with no exit status. So ``failed`` and
``exit_code`` are read only from what the response itself says: an ``exit_code`` field
of an object, or an exit line of Codex's own output header (``Exit code: N``,
``Process exited with code N``). Otherwise the exit code is unknown (None) and the call
is not marked failed.

Output: empty stdout says nothing; context goes in
``hookSpecificOutput.additionalContext`` on SessionStart, UserPromptSubmit, PreToolUse,
PostToolUse and SubagentStart (the events whose output schema has it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent
from graphmem.capture.forward import NOTHING_TO_ADD
from graphmem.capture.hosts._read import (
    exit_code_line,
    hook_specific_context,
    optional_int,
    optional_object,
    optional_str,
    read_common,
    required_str,
    text_of,
    tool_call,
)

HOST = "codex"

SHELL_TOOLS = frozenset({"Bash"})
"""The tool name Codex's hooks give every shell command (exec_command, shell...)."""

PATCH_TOOL = "apply_patch"

_KINDS = {
    "SessionStart": EventKind.SESSION_START,
    "UserPromptSubmit": EventKind.PROMPT,
    "PreToolUse": EventKind.PRE_TOOL,
    "PostToolUse": EventKind.POST_TOOL,
    "Stop": EventKind.STOP,
    "SubagentStop": EventKind.STOP,
    "PreCompact": EventKind.PRE_COMPACT,
    "PostCompact": EventKind.POST_COMPACT,
    "SessionEnd": EventKind.SESSION_END,
}

_CONTEXT_EVENTS = frozenset(
    {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart"}
)

_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "SessionStart": (("source", "reason"),),
    "UserPromptSubmit": (("prompt", "prompt"),),
    "Stop": (("last_assistant_message", "message"),),
    "SubagentStop": (("last_assistant_message", "message"),),
    "PreCompact": (("trigger", "reason"),),
    "PostCompact": (("trigger", "reason"),),
    "SessionEnd": (("reason", "reason"),),
}
"""Per event: the payload's string fields and the HookEvent attributes they fill."""

_TOOL = ("tool_name", "tool_input", "tool_use_id", "tool_response")
_EXIT = re.compile(r"(?:Exit code:|Process exited with code) (-?\d+)")
_PATCH_FILE = re.compile(r"\*\*\* (?:Add|Update|Delete) File: (.+)")
_PATCH_MOVE = re.compile(r"\*\*\* Move to: (.+)")


def read_event(payload: Mapping[str, object]) -> HookEvent:
    """The HookEvent a Codex hook payload describes.

    Args:
        payload: The JSON object Codex wrote to the hook's stdin.

    Returns:
        The event; an event graphmem keeps no signal from (PermissionRequest,
        SubagentStart...) is :attr:`EventKind.OTHER`.

    Raises:
        PayloadError: Not an object, no ``session_id`` or ``hook_event_name``, or a
            field of the wrong type.
    """
    return read_common(
        payload,
        host=HOST,
        kinds=_KINDS,
        event_fields=_EVENT_FIELDS,
        tool_reader=_tool_fields,
        tool_keys=_TOOL,
    )


def _tool_fields(name: str, payload: Mapping[str, object]) -> dict[str, Any]:
    """The tool attributes of a PreToolUse, PermissionRequest or PostToolUse."""
    tool = required_str(payload, "tool_name")
    tool_input = optional_object(payload, "tool_input")
    fields = tool_call(tool, tool_input, SHELL_TOOLS)
    shell = fields["tool"] == SHELL_TOOL
    fields["tool_use_id"] = optional_str(payload, "tool_use_id")
    if tool == PATCH_TOOL:
        fields["paths"] = patch_paths(optional_str(tool_input, "command") or "")
    if name == "PostToolUse":
        fields.update(_response_fields(shell, payload.get("tool_response")))
    fields["tool_input"] = tool_input
    return fields


def _response_fields(shell: bool, response: object) -> dict[str, Any]:
    """Output, exit code and failure, as far as a PostToolUse ``tool_response`` says."""
    exit_code: int | None = None
    if isinstance(response, Mapping):
        exit_code = optional_int(response, "exit_code")
        if exit_code is None:
            exit_code = optional_int(response, "exitCode")
        parts = [optional_str(response, key) for key in ("output", "stdout", "stderr")]
        texts = [part for part in parts if part]
        output = "\n".join(texts) if texts else text_of(response)
    else:
        output = text_of(response)
    if shell and exit_code is None and output is not None:
        exit_code = exit_code_line(_header(output), _EXIT)
    return {"output": output, "exit_code": exit_code, "failed": exit_code not in (None, 0)}


def _header(output: str) -> str:
    """The lines before Codex's ``Output:`` line: where it states the exit code."""
    head, found, _ = output.partition("\nOutput:")
    return head if found else output.split("\n", 1)[0]


def patch_paths(patch: str) -> tuple[str, ...]:
    """The files an ``apply_patch`` patch adds, updates, deletes or moves to.

    Args:
        patch: The patch text (``*** Begin Patch`` ... ``*** End Patch``).

    Returns:
        The paths, in the patch's order, each once.
    """
    found: list[str] = []
    for line in patch.splitlines():
        match = _PATCH_FILE.fullmatch(line.strip()) or _PATCH_MOVE.fullmatch(line.strip())
        if match is not None:
            found.append(match.group(1).strip())
    return tuple(dict.fromkeys(found))


def context_output(event_name: str, context: str) -> dict[str, object] | None:
    """The JSON that adds ``context`` to the agent's context on this event.

    Args:
        event_name: Codex's name for the event (``PostToolUse``).
        context: The text to add.

    Returns:
        ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}``,
        or None on events whose output schema has no ``additionalContext``.
    """
    return hook_specific_context(event_name, context, _CONTEXT_EVENTS)


def empty_output(event_name: str) -> str:
    """What to print when graphmem has nothing to say: nothing (Codex skips empty stdout).

    Args:
        event_name: Codex's name for the event (the answer is the same for all).

    Returns:
        The empty string.
    """
    del event_name
    return NOTHING_TO_ADD[HOST]
