"""Recall: what a caller asks, and the ranked, rendered results of each recall surface."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import AwareDatetime, Field

from graphmem.limits import (
    MAX_ITEMS,
)
from graphmem.models.base import (
    CodePath,
    InputModel,
    Name,
    QueryText,
    StoredModel,
    Subject,
)
from graphmem.models.enums import AnchorState, BeliefType, EpisodeKind, Outcome, Scope, Sensitivity


class Arm(StrEnum):
    """A recall arm (docs/recall.md)."""

    LEXICAL = "lexical"
    SEMANTIC = "semantic"
    GRAPH = "graph"
    STRUCTURED = "structured"
    TIME = "time"
    """Episodes only: BM25 among the episodes dated in the time the query names."""


class Decay(StrEnum):
    """How a belief's weight falls with the writes since it was stated (docs/recall.md)."""

    NONE = "none"
    LINEAR = "linear"
    EXPONENTIAL = "exponential"


class RecallItem(StoredModel):
    """One recalled belief, with what the reader needs to weigh and cite it."""

    id: str
    statement: str
    type: BeliefType
    confidence_band: str
    project: str
    origins: list[str]
    scope: Scope
    anchor_state: AnchorState
    applies_here: bool
    evidence: list[str]
    """Provenance: the ids of the episodes it was derived from."""
    arm_ranks: dict[str, int]
    score: float
    flagged: str | None = None
    """Why the injection scan replaced ``statement`` with ``[BLOCKED: ...]`` (None: shown).
    The stored statement is unchanged."""
    stale: bool = False
    """A formed belief expiry demoted: not confirmed by an episode for the stale window,
    so ranked lower (docs/formation.md#expiry)."""


class Conflict(StoredModel):
    """Two recalled beliefs linked CONFLICTS_WITH (an unresolved contradiction)."""

    a: str
    b: str


class _RenderedResult(StoredModel):
    """What every recall surface returns besides its items."""

    query: str
    project: str | None
    dropped: int
    """Fused candidates beyond k."""
    blocked: int
    """Candidates removed by the hard filters (superseded, retired, other scope...)."""
    withheld: int = 0
    """The arms' hits above the call's sensitivity ceiling: filtered in the candidates
    query before fusion and ranking, never shown (docs/data-safety.md)."""
    flagged: int = 0
    """Items shown as ``[BLOCKED: reason]``: the injection scan flagged their text."""
    rendered: str
    rendered_sha256: str
    trace_id: str

    def render(self) -> str:
        """The deterministic text block for a prompt."""
        return self.rendered


class RecallResult(_RenderedResult):
    """What :meth:`GraphMem.recall` returns; ``rendered`` is the byte-stable text."""

    items: list[RecallItem]
    conflicts: list[Conflict]


class EpisodeHit(StoredModel):
    """One episode found by :meth:`GraphMem.search_episodes`."""

    id: str
    title: str
    text: str | None
    project: str
    kind: EpisodeKind
    outcome: Outcome
    arm_ranks: dict[str, int]
    score: float
    flagged: str | None = None
    """Why the injection scan replaced ``title`` and ``text`` with ``[BLOCKED: ...]``."""


class EpisodeSearchResult(_RenderedResult):
    """What :meth:`GraphMem.search_episodes` returns."""

    items: list[EpisodeHit]


class SnapshotProfile(StrEnum):
    """How much a session-start snapshot holds (docs/recall.md)."""

    INTERACTIVE = "interactive"
    LONG = "long"
    CHILD = "child"


class RecallQuery(InputModel):
    """What a caller asks :meth:`GraphMem.recall` or :meth:`GraphMem.search_episodes`."""

    query: QueryText
    project: Name | None = None
    types: Annotated[list[BeliefType], Field(max_length=7)] | None = None
    as_of: AwareDatetime | None = None
    k: Annotated[int, Field(strict=True, ge=1, le=200)] = 10
    arms: Annotated[list[Arm], Field(min_length=1, max_length=5)] = [Arm.LEXICAL, Arm.SEMANTIC]
    paths: Annotated[list[CodePath], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs anchored in these files."""
    symbols: Annotated[list[CodePath], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs anchored to these symbol keys (or names in ``project``)."""
    subjects: Annotated[list[Subject], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs about exactly these subjects."""
    decay: Decay = Decay.NONE
    """Read-time decay by generations (seqs) since the belief was stated."""
    ceiling: Sensitivity = Sensitivity.CONFIDENTIAL
    """The most sensitive level the call may see; secret memory needs it said."""
