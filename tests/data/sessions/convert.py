"""Turn a Claude Code transcript (JSONL) into the hook payloads Claude Code would have sent.

Usage::

    python tests/data/sessions/convert.py TRANSCRIPT.jsonl > out.jsonl
    python tests/data/sessions/convert.py --trim 2000 TRANSCRIPT.jsonl > out.jsonl

One JSON object per output line, in order. The payload fields follow Claude Code's hooks
reference (code.claude.com/docs/en/hooks): the common fields ``session_id``,
``transcript_path``, ``cwd`` and ``hook_event_name`` on every event, ``permission_mode``
on the events whose documented example carries it (not SessionStart or SessionEnd), and
per event:

- SessionStart: ``source`` ("startup"), first;
- UserPromptSubmit: ``prompt``, for each prompt the user typed (not meta lines, not
  tool results, not "Stop hook feedback" injected by a blocking Stop hook);
- PreToolUse: ``tool_name``, ``tool_input``, ``tool_use_id``, for each ``tool_use``
  block of an assistant line;
- PostToolUse: as PreToolUse plus ``tool_response`` and ``duration_ms``, when the
  matching ``tool_result`` (same ``tool_use_id``) arrives without ``is_error``;
- PostToolUseFailure: ``tool_name``, ``tool_input``, ``tool_use_id``, ``error``,
  ``is_interrupt``, ``duration_ms``, when the ``tool_result`` has ``is_error`` true. For
  Bash, ``error`` starts with ``Exit code N`` when N can be read;
- Stop: ``stop_hook_active``, ``last_assistant_message``, ``background_tasks``,
  ``session_crons``, after each assistant turn that ends with no tool call pending;
- SessionEnd: ``reason`` ("other"), last, unless the session was cut off (the
  transcript ends with a tool call pending, a prompt unanswered, or a line that does not
  parse).

``tool_response`` is built from the transcript line's structured ``toolUseResult`` when
there is one, in the documented shapes (Bash ``{stdout, stderr, interrupted, isImage}``;
Edit ``{filePath, oldString, newString, structuredPatch, userModified, replaceAll}``;
Write ``{filePath, ...}``; Read ``{type: "text", file: {...}}``); other tools keep the
recorded ``toolUseResult`` as it is. Without one, it is rebuilt from the tool input and
the ``tool_result`` text.

Lines that are not JSON objects (corrupted or truncated lines) are skipped and counted on
stderr. Lines of one API message share ``message.id`` and may be spread over several
transcript lines; each line is handled in turn, which keeps the order Claude Code ran
things in. Sidechain (subagent) lines are skipped: their hooks carry ``agent_id`` and
are not rebuilt here.

``--trim N`` middle-truncates every string longer than N characters inside
``tool_input``, ``tool_response``, ``error`` and ``last_assistant_message``, around a
``... [K characters truncated] ...`` marker (the marker Claude Code itself uses for long
error strings), to keep fixtures small enough to read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

JsonObj = dict[str, Any]

STOP_FEEDBACK_PREFIX = "Stop hook feedback:"
INTERRUPT_PREFIX = "[Request interrupted by user"
EXIT_CODE_RE = re.compile(r"^(?:Error: )?Exit code (\d+)\b")
EDIT_FIELDS = (
    "filePath",
    "oldString",
    "newString",
    "structuredPatch",
    "userModified",
    "replaceAll",
)
READ_PREFIX_RE = re.compile(r"^\s*\d+\u2192", re.MULTILINE)


@dataclass
class _PendingTool:
    name: str
    tool_input: JsonObj
    started: datetime | None


@dataclass
class _State:
    session_id: str = ""
    cwd: str = ""
    transcript_path: str = ""
    pending: dict[str, _PendingTool] = field(default_factory=dict)
    # Text of the latest assistant message in the current turn, and whether the turn
    # produced any assistant output since the last prompt (so a Stop is due).
    last_text: str = ""
    turn_open: bool = False
    stop_hook_active: bool = False
    prompt_unanswered: bool = False


def transcript_path_for(cwd: str, session_id: str) -> str:
    """The path Claude Code keeps a session's transcript at, for ``cwd`` and session."""
    project = re.sub(r"[^A-Za-z0-9]", "-", cwd)
    return f"/home/user/.claude/projects/{project}/{session_id}.jsonl"


def _parse_time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _text_of(content: object) -> str:
    """The text of a message ``content``: a string, or the text of its text blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        ]
        return "\n".join(p for p in parts if p)
    return ""


def _strip_reminders(text: str) -> str:
    """Drop ``<system-reminder>`` blocks Claude Code appends to tool results it shows."""
    return re.sub(r"\n*<system-reminder>.*?</system-reminder>\n*", "\n", text, flags=re.S)


def _bash_response(result: object, text: str) -> JsonObj:
    if isinstance(result, dict) and "stdout" in result:
        out: JsonObj = {
            "stdout": result.get("stdout", ""),
            "stderr": result.get("stderr", ""),
            "interrupted": bool(result.get("interrupted", False)),
            "isImage": bool(result.get("isImage", False)),
        }
        if result.get("backgroundTaskId"):
            out["backgroundTaskId"] = result["backgroundTaskId"]
        return out
    return {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}


def _read_response(tool_input: JsonObj, result: object, text: str) -> JsonObj:
    if isinstance(result, dict) and isinstance(result.get("file"), dict):
        return {"type": result.get("type", "text"), "file": result["file"]}
    content = READ_PREFIX_RE.sub("", _strip_reminders(text)).rstrip("\n")
    lines = content.count("\n") + 1 if content else 0
    start = int(tool_input.get("offset") or 1)
    return {
        "type": "text",
        "file": {
            "filePath": tool_input.get("file_path", ""),
            "content": content,
            "numLines": lines,
            "startLine": start,
            "totalLines": start - 1 + lines,
        },
    }


def _edit_response(tool_input: JsonObj, result: object) -> JsonObj:
    if isinstance(result, dict) and "filePath" in result:
        return {k: result[k] for k in EDIT_FIELDS if k in result}
    return {
        "filePath": tool_input.get("file_path", ""),
        "oldString": tool_input.get("old_string", ""),
        "newString": tool_input.get("new_string", ""),
        "structuredPatch": [],
        "userModified": False,
        "replaceAll": bool(tool_input.get("replace_all", False)),
    }


def _write_response(tool_input: JsonObj, result: object) -> JsonObj:
    if isinstance(result, dict) and "filePath" in result:
        return {k: v for k, v in result.items() if k != "originalFile"}
    return {
        "type": "create",
        "filePath": tool_input.get("file_path", ""),
        "content": tool_input.get("content", ""),
    }


def tool_response(name: str, tool_input: JsonObj, result: object, text: str) -> object:
    """The ``tool_response`` of a PostToolUse for tool ``name``.

    Args:
        name: the tool's name.
        tool_input: the tool's input.
        result: the transcript line's ``toolUseResult`` (None when absent).
        text: the ``tool_result`` block's text.
    """
    if name == "Bash":
        return _bash_response(result, text)
    if name == "Read":
        return _read_response(tool_input, result, text)
    if name == "Edit":
        return _edit_response(tool_input, result)
    if name == "Write":
        return _write_response(tool_input, result)
    if result is not None:
        return result
    return text


def failure_error(name: str, text: str, result: object) -> str:
    """The ``error`` string of a PostToolUseFailure.

    For Bash, ``Exit code N`` then the output when N can be read (from the result text or
    the structured ``toolUseResult``), else the output alone.
    """
    body = _strip_reminders(text).strip("\n")
    if name != "Bash":
        return body
    if EXIT_CODE_RE.match(body):
        return EXIT_CODE_RE.sub(lambda m: f"Exit code {m.group(1)}", body, count=1)
    if isinstance(result, str):
        m = EXIT_CODE_RE.match(result)
        if m:
            return f"Exit code {m.group(1)}\n{body}"
    return body


def trim_strings(value: object, limit: int) -> object:
    """``value`` with every string longer than ``limit`` middle-truncated (0: unchanged)."""
    if limit <= 0:
        return value
    if isinstance(value, str):
        if len(value) <= limit:
            return value
        head = limit // 2
        tail = limit - head
        cut = len(value) - head - tail
        return f"{value[:head]}... [{cut} characters truncated] ...{value[-tail:]}"
    if isinstance(value, list):
        return [trim_strings(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: trim_strings(v, limit) for k, v in value.items()}
    return value


def read_lines(lines: Iterable[str]) -> tuple[list[JsonObj], int, bool]:
    """Parse transcript lines: (objects, unreadable line count, last line unreadable)."""
    records: list[JsonObj] = []
    bad = 0
    last_bad = False
    for raw in lines:
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            bad += 1
            last_bad = True
            continue
        if not isinstance(obj, dict):
            bad += 1
            last_bad = True
            continue
        last_bad = False
        records.append(obj)
    return records, bad, last_bad


class Converter:
    """Rebuilds the hook payloads of one transcript, line by line."""

    def __init__(self, trim: int = 0) -> None:
        """Start with no session seen; ``trim`` as for :func:`trim_strings`."""
        self.trim = trim
        self.state = _State()

    def _common(self, event: str, *, permission_mode: bool = True) -> JsonObj:
        s = self.state
        out: JsonObj = {
            "session_id": s.session_id,
            "transcript_path": s.transcript_path,
            "cwd": s.cwd,
        }
        if permission_mode:
            out["permission_mode"] = "default"
        out["hook_event_name"] = event
        return out

    def _stop(self) -> JsonObj:
        s = self.state
        out = self._common("Stop")
        out["stop_hook_active"] = s.stop_hook_active
        out["last_assistant_message"] = trim_strings(s.last_text, self.trim)
        out["background_tasks"] = []
        out["session_crons"] = []
        s.turn_open = False
        s.last_text = ""
        return out

    def _stop_due(self) -> bool:
        s = self.state
        return s.turn_open and not s.pending

    def convert(self, records: list[JsonObj], *, cut_off: bool = False) -> Iterator[JsonObj]:
        """Yield the payloads for ``records``; ``cut_off``: the session was killed."""
        s = self.state
        started = False
        for rec in records:
            kind = rec.get("type")
            if kind not in ("user", "assistant") or rec.get("isSidechain"):
                continue
            if not s.session_id and rec.get("sessionId"):
                s.session_id = str(rec["sessionId"])
            if rec.get("cwd"):
                s.cwd = str(rec["cwd"])
            if not started:
                s.transcript_path = transcript_path_for(s.cwd, s.session_id)
                start = self._common("SessionStart", permission_mode=False)
                start["source"] = "startup"
                yield start
                started = True
            message = rec.get("message")
            if not isinstance(message, dict):
                continue
            if kind == "assistant":
                yield from self._assistant(rec, message)
            else:
                yield from self._user(rec, message)
        if not started:
            return
        if s.pending or s.prompt_unanswered:
            cut_off = True
        if cut_off:
            return
        if self._stop_due():
            yield self._stop()
        end = self._common("SessionEnd", permission_mode=False)
        end["reason"] = "other"
        yield end

    def _assistant(self, rec: JsonObj, message: JsonObj) -> Iterator[JsonObj]:
        s = self.state
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        text = _text_of(content)
        s.turn_open = True
        s.prompt_unanswered = False
        if text:
            s.last_text = text
        for block in blocks:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            tool_id = str(block.get("id", ""))
            name = str(block.get("name", ""))
            tool_input = block.get("input") if isinstance(block.get("input"), dict) else {}
            assert isinstance(tool_input, dict)
            s.pending[tool_id] = _PendingTool(name, tool_input, _parse_time(rec.get("timestamp")))
            s.last_text = ""
            out = self._common("PreToolUse")
            out["tool_name"] = name
            out["tool_input"] = trim_strings(tool_input, self.trim)
            out["tool_use_id"] = tool_id
            yield out

    def _user(self, rec: JsonObj, message: JsonObj) -> Iterator[JsonObj]:
        s = self.state
        content = message.get("content")
        results = (
            [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if isinstance(content, list)
            else []
        )
        if results:
            for block in results:
                yield from self._tool_result(rec, block)
            return
        text = _text_of(content)
        if rec.get("isMeta") or rec.get("isCompactSummary"):
            if text.startswith(STOP_FEEDBACK_PREFIX):
                # A Stop hook blocked: the Stop fired, and Claude carries on.
                if self._stop_due():
                    yield self._stop()
                s.stop_hook_active = True
            return
        if not text or text.startswith(INTERRUPT_PREFIX):
            # A user interrupt: no Stop fires for the turn it ended.
            s.turn_open = False
            s.pending.clear()
            return
        if text.startswith(("<local-command-stdout>", "<local-command-stderr>", "Caveat:")):
            return
        if self._stop_due():
            yield self._stop()
        s.stop_hook_active = False
        s.prompt_unanswered = True
        out = self._common("UserPromptSubmit")
        out["prompt"] = text
        yield out

    def _tool_result(self, rec: JsonObj, block: JsonObj) -> Iterator[JsonObj]:
        s = self.state
        tool_id = str(block.get("tool_use_id", ""))
        call = s.pending.pop(tool_id, None)
        if call is None:
            return
        text = _text_of(block.get("content"))
        if text.startswith(INTERRUPT_PREFIX):
            return  # cancelled: the result carries the interruption, no hook fires
        result = rec.get("toolUseResult")
        duration = _duration(call.started, _parse_time(rec.get("timestamp")), result)
        if block.get("is_error"):
            out = self._common("PostToolUseFailure")
            out["tool_name"] = call.name
            out["tool_input"] = trim_strings(call.tool_input, self.trim)
            out["tool_use_id"] = tool_id
            out["error"] = trim_strings(failure_error(call.name, text, result), self.trim)
            out["is_interrupt"] = False
            out["duration_ms"] = duration
            yield out
            return
        out = self._common("PostToolUse")
        out["tool_name"] = call.name
        out["tool_input"] = trim_strings(call.tool_input, self.trim)
        response = tool_response(call.name, call.tool_input, result, text)
        out["tool_response"] = trim_strings(response, self.trim)
        out["tool_use_id"] = tool_id
        out["duration_ms"] = duration
        yield out


def _duration(start: datetime | None, end: datetime | None, result: object) -> int:
    if isinstance(result, dict) and isinstance(result.get("durationMs"), int):
        return int(result["durationMs"])
    if start is None or end is None:
        return 0
    return max(0, int((end - start).total_seconds() * 1000))


def convert_lines(lines: Iterable[str], trim: int = 0) -> tuple[list[JsonObj], int]:
    """Convert transcript lines: (hook payloads, unreadable line count)."""
    records, bad, last_bad = read_lines(lines)
    payloads = list(Converter(trim).convert(records, cut_off=last_bad))
    return payloads, bad


def main(argv: list[str] | None = None) -> int:
    """Command line: convert one transcript, payloads to stdout."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("transcript", help="Claude Code transcript (.jsonl)")
    parser.add_argument("--trim", type=int, default=0, help="middle-truncate strings past N")
    args = parser.parse_args(argv)
    with open(args.transcript, encoding="utf-8") as fh:
        payloads, bad = convert_lines(fh, args.trim)
    for payload in payloads:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    print(f"convert: {len(payloads)} payloads, {bad} unreadable lines skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
