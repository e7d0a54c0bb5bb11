"""Episodes and beliefs: what a writer submits, and what graphmem stores and returns.

Writers submit :class:`NewEpisode` and :class:`NewBelief`; graphmem returns the stored
:class:`Episode` and :class:`Belief`, a belief's history and its anchor's status.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    AwareDatetime,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from graphmem.limits import (
    ANCHOR_KEY_PATTERN,
    MAX_BATCH_ROWS,
    MAX_ITEMS,
    MAX_PATH_CHARS,
)
from graphmem.models.base import (
    CommitId,
    Confidence,
    EpisodeText,
    Id,
    IdempotencyKey,
    InputModel,
    Items,
    Name,
    ProjectPath,
    Reason,
    Statement,
    StoredModel,
    Subject,
    Title,
)
from graphmem.models.enums import (
    DEFAULT_CONFIDENCE,
    DEFAULT_PORTABILITY,
    DEFAULT_SENSITIVITY,
    PORTABILITY_RANK,
    AnchorState,
    Authority,
    BeliefState,
    BeliefType,
    EpisodeKind,
    EvidenceRole,
    Outcome,
    Portability,
    Scope,
    Sensitivity,
    Trust,
)


class NewEpisode(InputModel):
    """An episode as a writer submits it: what happened, where, and what came of it."""

    project: Name
    kind: EpisodeKind = EpisodeKind.SESSION
    title: Title
    text: EpisodeText | None = None
    outcome: Outcome = Outcome.NONE
    trust: Trust = Trust.TRUSTED
    observations: Items = []
    inferences: Items = []
    decisions: Items = []
    failed_attempts: Items = []
    unresolved: Items = []
    paths: Annotated[list[ProjectPath], Field(max_length=MAX_ITEMS)] = []
    commits: Annotated[list[CommitId], Field(max_length=MAX_ITEMS)] = []
    parent: Id | None = None
    started_at: AwareDatetime | None = None
    ended_at: AwareDatetime | None = None
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    """At least this; raised to secret when a text holds a secret (docs/data-safety.md)."""
    idempotency_key: IdempotencyKey | None = None

    @field_validator("ended_at")
    @classmethod
    def _ends_after_start(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        started = info.data.get("started_at")
        if value is not None and started is not None and value < started:
            raise ValueError("must not be before started_at")
        return value


class AnchorRef(InputModel):
    """The code a belief is about: a symbol key, or a file path and a symbol's name.

    A plain string is taken as a key (``python:billing/invoice.py::Invoice.total#method``).
    ``symbol`` may be a name (``total``) or a qualified name (``Invoice.total``).
    """

    key: (
        Annotated[
            str,
            StringConstraints(strict=True, max_length=MAX_PATH_CHARS, pattern=ANCHOR_KEY_PATTERN),
        ]
        | None
    ) = None
    path: ProjectPath | None = None
    symbol: Subject | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_plain_key(cls, value: Any) -> Any:
        return {"key": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _key_or_path_and_symbol(self) -> AnchorRef:
        if (self.key is None) == (self.path is None or self.symbol is None):
            raise ValueError("give either key, or both path and symbol")
        if self.key is not None and (self.path is not None or self.symbol is not None):
            raise ValueError("give either key, or both path and symbol")
        return self


class Evidence(InputModel):
    """One episode that supports a belief, and in what role.

    A plain episode id is accepted wherever evidence is expected (role ``explicit``).
    """

    episode_id: Id
    role: EvidenceRole = EvidenceRole.EXPLICIT

    @model_validator(mode="before")
    @classmethod
    def _from_plain_id(cls, value: Any) -> Any:
        return {"episode_id": value} if isinstance(value, str) else value


def _unique_evidence(evidence: list[Evidence]) -> list[Evidence]:
    """One DERIVED_FROM per episode: an episode cited twice keeps its first role."""
    seen: set[str] = set()
    unique = []
    for item in evidence:
        if item.episode_id not in seen:
            seen.add(item.episode_id)
            unique.append(item)
    return unique


class NewBelief(InputModel):
    """A belief as a writer states it.

    ``portability`` defaults to the type's ceiling (:data:`DEFAULT_PORTABILITY`); a
    writer may lower it but never raise it. ``confidence`` defaults to 0.5.
    """

    statement: Statement
    project: Name
    type: BeliefType
    subject: Subject | None = None
    confidence: Confidence = DEFAULT_CONFIDENCE
    portability: Portability | None = None
    authority: Authority = Authority.AGENT
    state: BeliefState = BeliefState.ACTIVE
    valid_from: AwareDatetime | None = None
    anchor: AnchorRef | None = None
    anchor_unverifiable: Annotated[bool, Field(strict=True)] = False
    """The writer knows the anchor cannot be checked (e.g. unsupported language): a key is
    stored without a hash instead of an unknown symbol being an error."""
    evidence: Annotated[list[Evidence], Field(max_length=MAX_ITEMS)] = []
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    """At least this; raised to secret when its text holds a secret, and never below the
    level of an episode it was formed from (docs/data-safety.md)."""
    idempotency_key: IdempotencyKey | None = None

    @field_validator("portability")
    @classmethod
    def _not_above_type_ceiling(
        cls, value: Portability | None, info: ValidationInfo
    ) -> Portability | None:
        belief_type = info.data.get("type")
        if value is None or belief_type is None:
            return value
        ceiling = DEFAULT_PORTABILITY[belief_type]
        if PORTABILITY_RANK[value] > PORTABILITY_RANK[ceiling]:
            raise ValueError(
                f"a {belief_type.value} belief may be at most {ceiling.value}, not {value.value}"
            )
        return value

    @field_validator("state")
    @classmethod
    def _not_born_retired(cls, value: BeliefState) -> BeliefState:
        if value is BeliefState.RETIRED:
            raise ValueError("a new belief cannot be retired")
        return value

    @field_validator("evidence")
    @classmethod
    def _one_link_per_episode(cls, value: list[Evidence]) -> list[Evidence]:
        return _unique_evidence(value)

    @field_validator("anchor_unverifiable")
    @classmethod
    def _unverifiable_needs_key(cls, value: bool, info: ValidationInfo) -> bool:
        anchor = info.data.get("anchor")
        if value and (anchor is None or anchor.key is None):
            raise ValueError("an unverifiable anchor must be given as a key")
        return value

    @property
    def effective_portability(self) -> Portability:
        """The portability stored: the writer's, or the type's default."""
        return self.portability or DEFAULT_PORTABILITY[self.type]


class BeliefChanges(InputModel):
    """Optional overrides for the belief that supersedes another (unset = keep the old)."""

    statement: Statement
    project: Name | None = None
    type: BeliefType | None = None
    subject: Subject | None = None
    confidence: Confidence | None = None
    portability: Portability | None = None
    authority: Authority | None = None
    valid_from: AwareDatetime | None = None
    anchor: AnchorRef | None = None
    """A new anchor; by default the successor keeps the old key and hash."""
    anchor_unverifiable: Annotated[bool, Field(strict=True)] = False
    evidence: Annotated[list[Evidence], Field(max_length=MAX_ITEMS)] = []
    idempotency_key: IdempotencyKey | None = None


class ChangeReason(InputModel):
    """Why a belief was superseded or retired, and who says so."""

    reason: Reason
    actor: Authority = Authority.AGENT


class ListFilters(InputModel):
    """Filters of :meth:`GraphMem.list_beliefs`."""

    project: Name | None = None
    type: BeliefType | None = None
    state: BeliefState | None = None
    scope: Scope | None = None
    include_superseded: Annotated[bool, Field(strict=True)] = False
    anchor_state: AnchorState | None = None
    """Only beliefs whose anchor is in this state, checked against their own project."""
    promoted: Annotated[bool, Field(strict=True)] = False
    """Only beliefs promoted to principal scope."""
    conflicted: Annotated[bool, Field(strict=True)] = False
    """Only beliefs in an open conflict (CONFLICTS_WITH a live belief)."""
    limit: Annotated[int, Field(strict=True, ge=1, le=MAX_BATCH_ROWS)] = 100


class Episode(StoredModel):
    """A stored episode."""

    id: str
    principal: str
    project: str
    kind: EpisodeKind
    title: str
    text: str | None = None
    outcome: Outcome
    trust: Trust
    observations: list[str]
    inferences: list[str]
    decisions: list[str]
    failed_attempts: list[str]
    unresolved: list[str]
    paths: list[str]
    commits: list[str]
    parent: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    recorded_at: datetime
    seq: int
    idempotency_key: str | None = None
    consolidated_at: datetime | None = None
    """When formation ran over this episode (None: not yet)."""
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY


class Belief(StoredModel):
    """A stored belief, with its provenance and supersession links."""

    id: str
    principal: str
    project: str
    statement: str
    subject: str | None = None
    type: BeliefType
    portability: Portability
    confidence: float
    authority: Authority
    state: BeliefState
    scope: Scope
    origins: list[str]
    valid_from: datetime
    valid_to: datetime | None = None
    recorded_at: datetime
    superseded_at: datetime | None = None
    superseded_by: str | None = None
    supersedes: str | None = None
    retired_at: datetime | None = None
    retired_reason: str | None = None
    anchor_key: str | None = None
    anchor_hash: str | None = None
    seq: int
    idempotency_key: str | None = None
    evidence: list[Evidence]
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    last_confirmed_at: datetime | None = None
    """When formation formed it or an episode last reinforced it (that episode's time;
    docs/formation.md#expiry). None for a belief stated explicitly and never reinforced."""
    stale_since: datetime | None = None
    """When an expiry run demoted it for not being confirmed (None: not stale); it stays
    set on a belief expiry retired (docs/formation.md#expiry)."""

    @property
    def is_stale(self) -> bool:
        """True while a live belief is stale: expiry demoted it and nothing confirmed it since."""
        return self.stale_since is not None and self.is_live

    @property
    def is_live(self) -> bool:
        """True while the belief is neither retired nor superseded."""
        return self.state is not BeliefState.RETIRED and self.superseded_at is None


class HistoryEntry(StoredModel):
    """One link in a supersession chain, oldest first."""

    belief: Belief
    reason: str | None = None
    """Why the *next* belief superseded this one (None for the newest)."""


class AnchorCandidate(StoredModel):
    """Where a vanished anchor's code may have gone."""

    key: str
    qualname: str
    reason: str
    """``same content`` (moved), ``same name`` (moved) or ``similar name`` (renamed)."""


class AnchorStatus(StoredModel):
    """A belief's anchor checked against one project's current code graph."""

    belief_id: str
    project: str
    anchor_key: str | None
    state: AnchorState
    anchor_weight: float
    applies_here: bool
    reason: str | None = None
    """Why the state is ``unverifiable``."""
    candidates: list[AnchorCandidate] = []
