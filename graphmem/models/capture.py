"""Captured sessions as the client returns them (docs/capture.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, computed_field

from graphmem.models.base import StoredModel


class Formed(StoredModel):
    """A belief a session formed."""

    id: str
    type: str
    statement: str


class SessionState(BaseModel):
    """One captured session: where it is and what it made.

    Consolidation updates it as it goes; ``graphmem sessions show`` prints it.
    """

    session_id: str
    """The host's session id."""
    project: str
    """The project it was captured in."""
    state: str = "open"
    """``open``, ``consolidating``, ``consolidated`` or ``failed``."""
    events: int = 0
    """Events in the spool."""
    redactions: int = 0
    """Secrets redacted from them before they were written."""
    untrusted: int = 0
    """Events marked untrusted (web content, other MCP servers, files outside the tree)."""
    first_at: str | None = None
    """When the first event was captured."""
    last_at: str | None = None
    """When the last one was."""
    consolidated_to: int | None = None
    """The spool offset of the last event consolidated (None: none yet)."""
    last_offset: int | None = None
    """The spool offset of the last event captured."""
    ended: bool = False
    """Whether the host said the session ended (SessionEnd)."""
    session_kind: str | None = None
    """``read_only``, ``docs_only`` or ``working`` (after consolidation)."""
    episodes: list[str] = Field(default_factory=list)
    """The episodes written, one per consolidation run: the session episode, then one
    continuation (kind task, ``PART_OF`` it) per run after a checkpoint."""
    segments: list[str] = Field(default_factory=list)
    """Their task segments (PART_OF them)."""
    signals: list[dict[str, Any]] = Field(default_factory=list)
    """What the rules found, each with ``kind`` and ``evidence`` (spool offsets)."""
    formed: list[Formed] = Field(default_factory=list)
    """The beliefs formed."""
    reinforced: list[str] = Field(default_factory=list)
    """Existing beliefs the session reinforced."""
    injections: int = 0
    """How many times hooks injected context into it (each a recall trace)."""
    injected_tokens: int = 0
    """How many tokens they injected, by the embedder's tokenizer."""
    rejected: list[dict[str, str]] = Field(default_factory=list)
    """The candidates held back, each with ``gate`` and ``statement``."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def episode(self) -> str | None:
        """The session episode (None before consolidation)."""
        return self.episodes[0] if self.episodes else None

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON values (``graphmem sessions show --json``)."""
        return self.model_dump(mode="json")


class Injection(BaseModel):
    """What a hook adds to an agent's context: facts with their ids, traced.

    Empty ``text`` means nothing is injected (no header, no filler).
    """

    text: str
    """The context, rendered byte-stable (empty: nothing to add)."""
    item_ids: list[str] = Field(default_factory=list)
    """The beliefs it shows, in order (full ids; the text shows their short form)."""
    tokens: int = 0
    """Its size in the embedder's tokens."""
    trace_id: str
    """The recall trace that records it (``cite`` takes it)."""
