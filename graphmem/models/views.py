"""Views across a principal's projects (overview, changes) and the access tokens of serving."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from graphmem.models.base import StoredModel
from graphmem.models.enums import AnchorState, BeliefType


class AccessToken(StoredModel):
    """A bearer token of ``graphmem serve`` (docs/serving-agents.md); only its sha256 is stored."""

    id: str
    principal: str
    name: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        """True once the token no longer authenticates anyone."""
        return self.revoked_at is not None


class ChangeKind(StrEnum):
    """What happened to a belief or episode, as :meth:`GraphMem.changes` reports it."""

    REMEMBERED = "remembered"
    """An episode was recorded."""
    LEARNED = "learned"
    REINFORCED = "reinforced"
    ACTIVATED = "activated"
    """A provisional belief gained its second supporting episode."""
    SUPERSEDED = "superseded"
    RETIRED = "retired"
    CORRECTED = "corrected"
    FORGOTTEN = "forgotten"
    """Deleted with its text; only the statement's sha256 is reported."""
    PROMOTED = "promoted"
    CONFLICTED = "conflicted"
    ANCHOR = "anchor"
    """``graphmem index`` changed the belief's anchor state."""


class Change(StoredModel):
    """One entry of the change log, with what a person needs to read it."""

    seq: int
    kind: ChangeKind
    at: datetime
    actor: str
    node_id: str
    """The belief (or, for ``remembered``, the episode) it is about."""
    project: str | None
    """Where it happened: the belief's or episode's project, the indexed project."""
    statement: str | None
    """The belief's statement or the episode's title; None once forgotten."""
    statement_sha256: str | None = None
    """For ``forgotten``: the digest of the statement that was deleted."""
    related_id: str | None = None
    """superseded: the successor; conflicted: the other belief; reinforced: the episode."""
    reason: str | None = None
    """Why it was superseded or retired."""
    correction: str | None = None
    """For ``corrected``: the kind of correction."""
    anchor_from: AnchorState | None = None
    anchor_to: AnchorState | None = None


class AnchorChange(StoredModel):
    """A belief whose anchor state one index run changed."""

    belief_id: str
    statement: str
    project: str
    """The project indexed (the code the anchor was checked against)."""
    anchor_key: str
    before: AnchorState
    after: AnchorState


class ProjectOverview(StoredModel):
    """One project of a principal, in :meth:`GraphMem.overview`."""

    name: str
    episodes: int
    live_beliefs: int
    """Beliefs learned here (any origin) that are neither retired nor superseded."""
    beliefs_by_type: dict[str, int]
    beliefs_by_state: dict[str, int]
    promoted: int
    """Live beliefs learned here that are now principal scope."""
    open_conflicts: int
    """Pairs of live beliefs learned here linked CONFLICTS_WITH."""
    drifted: int
    vanished: int
    last_activity: datetime | None
    """When the latest change about this project's memory was recorded."""
    injected_sessions: int = 0
    """Agent-host sessions in this project that hooks injected context into."""
    injected_tokens: int = 0
    """The tokens hooks injected into them in all (the embedder's tokenizer)."""


class PrincipalBelief(StoredModel):
    """A principal-scope belief: it holds in every project of the principal."""

    id: str
    statement: str
    type: BeliefType
    confidence_band: str
    origins: list[str]


class RecurringSubject(StoredModel):
    """A subject live beliefs share across projects."""

    subject: str
    projects: list[str]
    beliefs: int


class Overview(StoredModel):
    """What :meth:`GraphMem.overview` returns: the principal's memory at a glance."""

    principal: str
    projects: list[ProjectOverview]
    principal_beliefs: list[PrincipalBelief]
    recurring_subjects: list[RecurringSubject]
