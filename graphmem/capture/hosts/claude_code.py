"""Claude Code's hook payloads as HookEvents (docs/capture.md).

Source: Claude Code's hooks reference (code.claude.com/docs/en/hooks, mirrored in
``thevibeworks/claude-code-docs`` as ``content/en/docs/claude-code/hooks.md``) and the
Agent SDK's tool output types (``content/en/agent-sdk/typescript.md``). Every event
carries ``session_id``, ``transcript_path``, ``cwd`` and ``hook_event_name``; a
subagent's also carry ``agent_id`` and ``agent_type``.

A successful Bash call fires PostToolUse with ``tool_response`` ``{stdout, stderr,
interrupted, isImage, ...}`` and no exit status: a command that exits non-zero fires
PostToolUseFailure instead, whose ``error`` starts with an ``Exit code N`` line. So a
PostToolUse of Bash reads as exit code 0, unless it was interrupted or sent to the
background. PowerShell is Claude Code's other shell tool (same input and output).

Output: exit 0 with empty stdout says nothing; context goes in
``hookSpecificOutput.additionalContext``. Stop and SubagentStop accept context too, but
there it keeps the agent working, so graphmem never sends it there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent
from graphmem.capture.forward import NOTHING_TO_ADD
from graphmem.capture.hosts._read import (
    hook_specific_context,
    optional_bool,
    optional_int,
    optional_object,
    optional_str,
    read_common,
    required_str,
    split_exit_line,
    text_of,
    tool_call,
)

HOST = "claude-code"

SHELL_TOOLS = frozenset({"Bash", "PowerShell"})
"""Claude Code's shell tools (PowerShell replaces Bash on Windows)."""

_KINDS = {
    "SessionStart": EventKind.SESSION_START,
    "UserPromptSubmit": EventKind.PROMPT,
    "PreToolUse": EventKind.PRE_TOOL,
    "PostToolUse": EventKind.POST_TOOL,
    "PostToolUseFailure": EventKind.POST_TOOL,
    "Stop": EventKind.STOP,
    "SubagentStop": EventKind.STOP,
    "PreCompact": EventKind.PRE_COMPACT,
    "PostCompact": EventKind.POST_COMPACT,
    "SessionEnd": EventKind.SESSION_END,
}

_CONTEXT_EVENTS = frozenset(
    {
        "SessionStart",
        "Setup",
        "SubagentStart",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
    }
)
"""Events whose ``additionalContext`` is added as context and changes nothing else."""

_TOOL = ("tool_name", "tool_input", "tool_use_id", "tool_response", "duration_ms")
_PATH_KEYS = ("file_path", "notebook_path")


def read_event(payload: Mapping[str, object]) -> HookEvent:
    """The HookEvent a Claude Code hook payload describes.

    Args:
        payload: The JSON object Claude Code wrote to the hook's stdin.

    Returns:
        The event; an event graphmem keeps no signal from is :attr:`EventKind.OTHER`.

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
        tool_keys=(*_TOOL, "error", "is_interrupt"),
    )


_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "SessionStart": (("source", "reason"),),
    "UserPromptSubmit": (("prompt", "prompt"),),
    "Stop": (("last_assistant_message", "message"),),
    "SubagentStop": (("last_assistant_message", "message"),),
    "PreCompact": (("trigger", "reason"),),
    "PostCompact": (("trigger", "reason"), ("compact_summary", "message")),
    "SessionEnd": (("reason", "reason"),),
}
"""Per event: the payload's string fields and the HookEvent attributes they fill."""


def _tool_fields(name: str, payload: Mapping[str, object]) -> dict[str, Any]:
    """The tool attributes of a PreToolUse, PostToolUse or PostToolUseFailure."""
    tool = required_str(payload, "tool_name")
    tool_input = optional_object(payload, "tool_input")
    paths = [tool_input.pop(key) for key in _PATH_KEYS if isinstance(tool_input.get(key), str)]
    fields = tool_call(tool, tool_input, SHELL_TOOLS)
    shell = fields["tool"] == SHELL_TOOL
    fields["tool_use_id"] = optional_str(payload, "tool_use_id")
    fields["duration_ms"] = optional_int(payload, "duration_ms")
    if name == "PostToolUse":
        fields.update(_response_fields(tool, shell, payload.get("tool_response"), paths))
    elif name == "PostToolUseFailure":
        error = optional_str(payload, "error") or ""
        exit_code, output = split_exit_line(error) if shell else (None, error)
        fields.update(
            failed=True,
            exit_code=exit_code,
            output=output,
            interrupted=optional_bool(payload, "is_interrupt"),
        )
    fields["paths"] = tuple(dict.fromkeys(paths))
    fields["tool_input"] = tool_input
    return fields


def _response_fields(tool: str, shell: bool, response: object, paths: list[str]) -> dict[str, Any]:
    """What a successful call's ``tool_response`` says: output, exit code, paths."""
    if not isinstance(response, Mapping):
        return {"output": text_of(response)}
    if shell:
        out = optional_str(response, "stdout") or ""
        err = optional_str(response, "stderr") or ""
        interrupted = optional_bool(response, "interrupted")
        background = response.get("backgroundTaskId") is not None
        return {
            "output": "\n".join(part for part in (out, err) if part),
            "interrupted": interrupted,
            "exit_code": None if interrupted or background else 0,
        }
    file = response.get("file")
    holder = file if isinstance(file, Mapping) else response
    for key in ("filePath", "notebook_path"):
        value = holder.get(key)
        if isinstance(value, str):
            paths.append(value)
    if tool in ("Edit", "MultiEdit", "Write", "NotebookEdit"):
        return {}  # the change is in tool_input; the response repeats the whole file
    if tool == "Read" and isinstance(file, Mapping):
        return {"output": text_of(file.get("content"))}
    return {"output": text_of(response)}


def context_output(event_name: str, context: str) -> dict[str, object] | None:
    """The JSON that adds ``context`` to the agent's context on this event.

    Args:
        event_name: Claude Code's name for the event (``PostToolUse``).
        context: The text to add, written as facts.

    Returns:
        ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}``,
        or None where Claude Code takes no context (or only context that keeps the
        agent from stopping: Stop, SubagentStop).
    """
    return hook_specific_context(event_name, context, _CONTEXT_EVENTS)


def empty_output(event_name: str) -> str:
    """What to print when graphmem has nothing to say: nothing (exit 0, empty stdout).

    Args:
        event_name: Claude Code's name for the event (the answer is the same for all).

    Returns:
        The empty string.
    """
    del event_name
    return NOTHING_TO_ADD[HOST]
