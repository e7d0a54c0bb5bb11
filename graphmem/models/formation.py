"""Formation: the gates' policy, what consolidation did, corrections, re-derivation."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, computed_field, field_validator

from graphmem.models.base import InputModel, Name, Statement, StoredModel
from graphmem.models.enums import Authority, EpisodeKind
from graphmem.models.recall import Conflict

DEFAULT_CAPS: dict[EpisodeKind, int] = {
    EpisodeKind.SESSION: 20,
    EpisodeKind.TASK: 10,
    EpisodeKind.RUN: 10,
    EpisodeKind.MESSAGE: 3,
}


"""New beliefs one episode of each kind may form (0 is a valid cap)."""


class FormationPolicy(InputModel):
    """The gates of formation (docs/formation.md) and their settings.

    Each gate can be switched off, which the tests use to show that it does something.
    """

    trust_gate: bool = True
    """Untrusted episodes form nothing directly (rule 5)."""
    rejection_gate: bool = True
    """Tombstoned content is never re-formed (rule 7), and every correction is
    replayed on matching candidates (rule 6)."""
    novelty_gate: bool = True
    """A near-duplicate of a live belief of the same type reinforces it instead."""
    cap_gate: bool = True
    """At most ``caps[kind]`` new beliefs per episode."""
    resolve_gate: bool = True
    """A (subject, type) slot holds one live belief: supersede or flag a conflict."""
    novelty_threshold: Annotated[float, Field(ge=0.0, le=1.0)] = 0.85
    """Cosine at or above which a candidate may repeat a belief (chosen on labelled
    pairs, see ``graphmem/formation/novelty.py``)."""
    caps: dict[EpisodeKind, Annotated[int, Field(ge=0)]] = DEFAULT_CAPS
    """New beliefs per episode kind; kinds not given keep their default."""
    authority: Authority = Authority.AGENT
    """Who the formed beliefs are stated by."""
    version: Annotated[str, StringConstraints(min_length=1, max_length=64)] = "formation-v1"

    @field_validator("caps")
    @classmethod
    def _default_caps(cls, value: dict[EpisodeKind, int]) -> dict[EpisodeKind, int]:
        return {**DEFAULT_CAPS, **value}


class RejectedCandidate(StoredModel):
    """A candidate a gate held back, and why."""

    statement: str
    gate: Literal["trust", "rejection", "novelty", "cap"]
    similar_to: str | None = None
    """The live belief it duplicated (novelty)."""
    similarity: float | None = None


class Supersession(StoredModel):
    """A slot holder replaced by a newly formed belief."""

    old: str
    new: str


class ConsolidationResult(StoredModel):
    """What formation did with one episode."""

    episode_id: str
    already_consolidated: bool = False
    created: list[str] = []
    reinforced: list[str] = []
    activated: list[str] = []
    promoted: list[str] = []
    superseded: list[Supersession] = []
    conflicts: list[Conflict] = []
    rejected: list[RejectedCandidate] = []


class ExpiryResult(StoredModel):
    """What one expiry run did, or would do (``dry_run``), at ``now``."""

    now: datetime
    """The time the windows were measured back from."""
    dry_run: bool = False
    """True when nothing was written: the ids are what the run would change."""
    demoted: list[str] = []
    """Formed beliefs marked stale: not confirmed for the stale window."""
    retired: list[str] = []
    """Stale beliefs retired: stale for the retire window."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def demoted_count(self) -> int:
        """How many were demoted."""
        return len(self.demoted)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def retired_count(self) -> int:
        """How many were retired."""
        return len(self.retired)


class CorrectionKind(StrEnum):
    """How a user corrects a belief (docs/formation.md)."""

    NOT_TRUE = "not_true"
    """Retire it."""
    CHANGED = "changed"
    """Supersede it with the corrected statement, at user authority."""
    NOT_HERE = "not_here"
    """Lower its portability and keep it out of one project."""
    UNSPECIFIED = "unspecified"
    """Flag and down-weight it; never retire it."""


class Correction(InputModel):
    """A correction of one belief, as a user gives it."""

    kind: CorrectionKind = CorrectionKind.UNSPECIFIED
    project: Name | None = None
    """For ``not_here``: the project it does not apply to."""
    statement: Statement | None = None
    """For ``changed``: what is true instead."""
    actor: Authority = Authority.USER

    def missing_field(self) -> str | None:
        """The field this kind needs and lacks, else None.

        ``changed`` needs ``statement``; ``not_here`` needs ``project``.
        """
        if self.kind is CorrectionKind.CHANGED and self.statement is None:
            return "statement"
        if self.kind is CorrectionKind.NOT_HERE and self.project is None:
            return "project"
        return None


class CorrectionResult(StoredModel):
    """What a correction did: its durable rejection, and the successor if any."""

    belief_id: str
    kind: CorrectionKind
    rejection_id: str
    new_belief_id: str | None = None


class RederivationSummary(StoredModel):
    """What a re-derivation did."""

    policy_version: str
    retired: int
    """Formed beliefs retired before forming again."""
    episodes: int
    created: int
    reinforced: int
    rejected: int
    hints: int = 0
    """Open formation hints this run consumed (every episode was looked at again)."""
