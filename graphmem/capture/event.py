"""The one hook event every host adapter produces (docs/capture.md).

Each agent host (Claude Code, Codex CLI, Gemini CLI, Cursor) sends its own payload; its
adapter in :mod:`graphmem.capture.hosts` turns that payload into a :class:`HookEvent`,
and nothing past the adapter knows which host spoke. Standard library only: this
module is on the hook command's hot path.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    """What happened, in graphmem's words (each host names these its own way)."""

    SESSION_START = "session_start"
    PROMPT = "prompt"
    """The user submitted a prompt (Claude Code UserPromptSubmit, Gemini BeforeAgent)."""
    PRE_TOOL = "pre_tool"
    POST_TOOL = "post_tool"
    """A tool call finished; ``failed`` says whether it failed."""
    STOP = "stop"
    """The agent finished its turn (``agent_id`` set: a subagent's)."""
    PRE_COMPACT = "pre_compact"
    POST_COMPACT = "post_compact"
    SESSION_END = "session_end"
    OTHER = "other"
    """An event graphmem keeps no signal from (recorded, never acted on)."""


SHELL_TOOL = "shell"
"""The normalised name of every host's shell tool (Claude Code Bash, Codex shell...)."""

EDIT_TOOLS = frozenset(
    {"Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "replace", "write_file"}
)
"""Tools that change files (Claude Code's, Codex's and Gemini CLI's names)."""


@dataclass(frozen=True)
class HookEvent:
    """One hook event, host-independent.

    Attributes:
        host: The adapter that read it (``claude-code``, ``codex``, ``gemini``,
            ``cursor``).
        host_event: The host's own name for the event (``PostToolUseFailure``).
        kind: What happened.
        session_id: The host's session id.
        cwd: The directory the host ran the hook in.
        prompt: The user's prompt (:attr:`EventKind.PROMPT`).
        tool: The tool's name, ``shell`` for every host's shell tool
            (:data:`SHELL_TOOL`), else the host's name for it.
        tool_use_id: The host's id of the tool call, pairing pre and post events.
        command: The shell command, for a shell tool.
        paths: The files the tool read or wrote, as the host gave them.
        tool_input: The rest of the tool's input, as the host sent it.
        output: The tool's output as text (a shell's stdout and stderr; a failure's
            error text).
        exit_code: A shell command's exit status, when the host says it.
        failed: Whether the tool call failed (a host without a failure event: inferred
            from its response).
        interrupted: Whether the user interrupted the tool call.
        message: The agent's last message (stop) or the host's compaction summary.
        reason: Why the session started or ended, or what triggered a compaction.
        agent_id: The subagent that raised the event, if one did.
        transcript_path: The host's transcript file, if it named one.
        duration_ms: How long the tool call took, when the host says it.
        extra: Fields of the payload no attribute holds, kept for the record.
    """

    host: str
    host_event: str
    kind: EventKind
    session_id: str
    cwd: str
    prompt: str | None = None
    tool: str | None = None
    tool_use_id: str | None = None
    command: str | None = None
    paths: tuple[str, ...] = ()
    tool_input: dict[str, Any] = field(default_factory=dict)
    output: str | None = None
    exit_code: int | None = None
    failed: bool = False
    interrupted: bool = False
    message: str | None = None
    reason: str | None = None
    agent_id: str | None = None
    transcript_path: str | None = None
    duration_ms: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        """The event as JSON values, its empty fields left out (a spool line's ``event``)."""
        record = asdict(self)
        record["kind"] = self.kind.value
        record["paths"] = list(self.paths)
        return {
            key: value
            for key, value in record.items()
            if value not in (None, False, (), [], {}) or key in ("host", "kind")
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> HookEvent:
        """The event a spool line's ``event`` holds (:meth:`to_record` reversed)."""
        fields = dict(record)
        fields["kind"] = EventKind(fields["kind"])
        fields["paths"] = tuple(fields.get("paths", ()))
        return cls(**fields)


class PayloadError(ValueError):
    """A payload an adapter cannot read as an event of its host (no session id...)."""


@dataclass(frozen=True)
class SpoolRecord:
    """One line of a session's spool: an event as captured (docs/capture.md).

    Attributes:
        n: Where the line starts in the session's spool (its byte offset: ascending,
            unique); signals cite these as their evidence.
        at: When it was captured (ISO 8601, UTC).
        project: The project it was captured in.
        event: The event, redacted and capped.
        untrusted: Whether its content came from outside the project (a web fetch,
            another MCP server's tool, a file outside the work tree).
        redactions: How many secrets were redacted from it before it was written.
        truncated: The fields cut to the per-event cap.
    """

    n: int
    at: str
    project: str
    event: HookEvent
    untrusted: bool = False
    redactions: int = 0
    truncated: tuple[str, ...] = ()
