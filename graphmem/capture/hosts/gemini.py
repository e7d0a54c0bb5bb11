"""Gemini CLI's hook payloads as HookEvents (docs/capture.md).

Source: ``google-gemini/gemini-cli`` ``docs/hooks/reference.md``, with the types in
``packages/core/src/hooks/types.ts`` and the shell tool's result in
``packages/core/src/tools/shell.ts``. Hooks live under ``hooks`` in ``settings.json``;
their ``timeout`` is in **milliseconds** (default 60000), unlike Claude Code's seconds.
Every input carries ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``
and ``timestamp``.

AfterTool's ``tool_response`` is ``{llmContent, returnDisplay, error}``; ``error`` is
set (``{message, type}``) when the tool failed. The shell tool, ``run_shell_command``,
answers the model with lines ``Output: ...``, then ``Error: ...``, ``Exit Code: N`` (only
when N is not 0), ``Signal: ...``, wrapped in ``<untrusted_context>`` tags; so a
finished command with no ``Exit Code``, ``Error`` or ``Signal`` line exited 0.

Output: on exit 0 stdout must be pure JSON, so saying nothing is ``{}``. Context goes in
``hookSpecificOutput.additionalContext`` on SessionStart, BeforeAgent and AfterTool.
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
    optional_object,
    read_common,
    required_str,
    text_of,
    tool_call,
)

HOST = "gemini"

SHELL_TOOLS = frozenset({"run_shell_command"})

FILE_TOOLS = frozenset({"read_file", "write_file", "replace"})
"""Gemini CLI's file tools, whose ``tool_input.file_path`` names the file."""

_KINDS = {
    "SessionStart": EventKind.SESSION_START,
    "BeforeAgent": EventKind.PROMPT,
    "BeforeTool": EventKind.PRE_TOOL,
    "AfterTool": EventKind.POST_TOOL,
    "AfterAgent": EventKind.STOP,
    "PreCompress": EventKind.PRE_COMPACT,
    "SessionEnd": EventKind.SESSION_END,
}

_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "SessionStart": (("source", "reason"),),
    "BeforeAgent": (("prompt", "prompt"),),
    "AfterAgent": (("prompt", "prompt"), ("prompt_response", "message")),
    "PreCompress": (("trigger", "reason"),),
    "SessionEnd": (("reason", "reason"),),
    "Notification": (("message", "message"),),
}
"""Per event: the payload's string fields and the HookEvent attributes they fill."""

_CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
_TOOL = ("tool_name", "tool_input", "tool_response")
_EXIT = re.compile(r"Exit Code: (-?\d+)")
_WRAPPER = re.compile(r"\A\s*<untrusted_context>\n?(.*?)\n?</untrusted_context>\s*\Z", re.S)
_FAILURE_LINES = ("Exit Code: ", "Error: ", "Signal: ")


def read_event(payload: Mapping[str, object]) -> HookEvent:
    """The HookEvent a Gemini CLI hook payload describes.

    Args:
        payload: The JSON object Gemini CLI wrote to the hook's stdin.

    Returns:
        The event; Notification and the model events are :attr:`EventKind.OTHER`.

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
    """The tool attributes of a BeforeTool or AfterTool."""
    tool = required_str(payload, "tool_name")
    tool_input = optional_object(payload, "tool_input")
    fields = tool_call(tool, tool_input, SHELL_TOOLS)
    shell = fields["tool"] == SHELL_TOOL
    if tool in FILE_TOOLS and isinstance(tool_input.get("file_path"), str):
        fields["paths"] = (tool_input.pop("file_path"),)
    if name == "AfterTool":
        fields.update(_response_fields(shell, optional_object(payload, "tool_response")))
    fields["tool_input"] = tool_input
    return fields


def _response_fields(shell: bool, response: dict[str, Any]) -> dict[str, Any]:
    """Output, failure and (for the shell) exit code from AfterTool's ``tool_response``."""
    error = response.get("error")
    failed = error is not None and error is not False
    output = text_of(response.get("llmContent"))
    if output is not None:
        match = _WRAPPER.match(output)
        output = match.group(1) if match else output
    if output is None and failed:
        output = text_of(error.get("message") if isinstance(error, Mapping) else error)
    exit_code = None
    if shell and output is not None:
        exit_code = exit_code_line(output, _EXIT)
        if exit_code is None and not failed and _finished_cleanly(output):
            exit_code = 0
    return {
        "output": output,
        "failed": failed or exit_code not in (None, 0),
        "exit_code": exit_code,
    }


def _finished_cleanly(output: str) -> bool:
    """Whether a shell result is the ran-to-the-end form with no failure line."""
    lines = output.splitlines()
    if not lines or not lines[0].startswith("Output:"):
        return False  # cancelled, timed out or sent to the background
    return not any(line.startswith(_FAILURE_LINES) for line in lines)


def context_output(event_name: str, context: str) -> dict[str, object] | None:
    """The JSON that adds ``context`` to the agent's context on this event.

    Args:
        event_name: Gemini CLI's name for the event (``AfterTool``).
        context: The text to add.

    Returns:
        ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}``
        on SessionStart, BeforeAgent and AfterTool; None elsewhere.
    """
    return hook_specific_context(event_name, context, _CONTEXT_EVENTS)


def empty_output(event_name: str) -> str:
    """What to print when graphmem has nothing to say: ``{}`` (stdout must be JSON).

    Args:
        event_name: Gemini CLI's name for the event (the answer is the same for all).

    Returns:
        An empty JSON object.
    """
    del event_name
    return NOTHING_TO_ADD[HOST]
