"""Feedback: citations of recall traces, formation hints queued by misses, retention."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from graphmem.models.base import StoredModel
from graphmem.models.formation import ConsolidationResult

MAX_CITED_ITEMS = 200


"""The most item ids one citation names (a recall returns at most 200)."""


class CitationResult(StoredModel):
    """What :meth:`GraphMem.cite` recorded.

    A citation never changes a belief's confidence. It restarts decay (``cited_seq``)
    for the beliefs it names and for those the cited answer ranked above them.
    """

    trace_id: str
    cited: list[str]
    """Every item of the trace cited so far (this call and earlier ones), in the
    trace's order."""
    added: list[str]
    """The items this call cited for the first time (empty when it repeats one)."""
    refreshed: list[str]
    """The beliefs whose decay this call restarted: each newly cited belief and each
    belief the trace ranked above one (episodes do not decay)."""
    cited_seq: int | None = None
    """The generation decay now counts from for ``refreshed`` (None when none)."""


class HintState(StrEnum):
    """Where a :class:`FormationHint` is in its life."""

    OPEN = "open"
    """Queued: formation has not looked for candidates on it yet."""
    CONSUMED = "consumed"
    """Consolidation or re-derivation looked for candidates on it."""
    EXPIRED = "expired"
    """Its time ran out before anything consumed it."""


class FormationHint(StoredModel):
    """A subject recall kept missing on: a cue for formation to look for candidates."""

    id: str
    subject: str
    """The missed query in normal form (see :func:`graphmem.content.query_subject`)."""
    query: str
    """The query as it was last asked."""
    misses: int
    """The misses that queued it and those since."""
    first_at: datetime
    """The first miss counted."""
    last_at: datetime
    created_at: datetime
    expires_at: datetime
    state: HintState
    consumed_at: datetime | None = None
    consumed_by: str | None = None
    """``consolidate`` or ``rederive``."""
    episodes: list[str] = []
    """When consumed: the episodes on the subject that formation looked at."""
    formed: list[str] = []
    """When consumed: the beliefs those episodes formed or reinforced then."""


class HintOutcome(StoredModel):
    """What consuming one hint did."""

    hint_id: str
    subject: str
    results: list[ConsolidationResult]
    """One per episode on the subject that formation looked at, oldest first: what
    consolidating it did (empty when no such episode was waiting)."""

    @property
    def episodes(self) -> list[str]:
        """The ids of the episodes looked at."""
        return [result.episode_id for result in self.results]

    @property
    def formed(self) -> list[str]:
        """The beliefs those episodes created or reinforced."""
        ids = [i for result in self.results for i in (*result.created, *result.reinforced)]
        return list(dict.fromkeys(ids))


class TraceSweep(StoredModel):
    """What :meth:`GraphMem.sweep_traces` removed."""

    cutoff: datetime
    """Traces recorded before this lost their operator fields."""
    traces: int
    """Traces whose operator fields were removed now."""
    hints: int
    """Expired formation hints deleted."""
