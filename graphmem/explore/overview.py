"""The principal's memory at a glance: each project, principal-scope beliefs, subjects."""

from __future__ import annotations

from collections import Counter

from graphmem.anchors.state import anchor_statuses
from graphmem.models import (
    MAX_BATCH_ROWS,
    AnchorState,
    Belief,
    ListFilters,
    Overview,
    PrincipalBelief,
    ProjectOverview,
    RecurringSubject,
    Scope,
    Sensitivity,
)
from graphmem.recall.ranking import confidence_band
from graphmem.store import beliefs as belief_store
from graphmem.store.database import Database
from graphmem.store.overview import (
    AnchoredBelief,
    ProjectCounts,
    anchored_beliefs,
    project_counts,
    recurring_subjects,
)
from graphmem.trust.sensitivity import REDACTED

MAX_PROJECTS = 1_000
MAX_LISTED = 100
"""The most principal-scope beliefs and recurring subjects an overview lists."""


def _anchor_counts(
    db: Database, principal: str, project: str, anchored: list[AnchoredBelief]
) -> Counter[AnchorState]:
    """Anchor states of the beliefs learned in ``project``, checked against its code."""
    learned_here = [belief for belief in anchored if project in belief.origins]
    if not learned_here:
        return Counter()
    statuses = anchor_statuses(db, principal, learned_here, project, with_candidates=False)
    return Counter(status.state for status in statuses)


def _project(
    db: Database, principal: str, counts: ProjectCounts, anchored: list[AnchoredBelief]
) -> ProjectOverview:
    states = _anchor_counts(db, principal, counts.name, anchored)
    by_type: Counter[str] = Counter()
    by_state: Counter[str] = Counter()
    for type_, state, beliefs in counts.groups:
        by_type[type_] += beliefs
        by_state[state] += beliefs
    return ProjectOverview(
        name=counts.name,
        episodes=counts.episodes,
        live_beliefs=sum(by_type.values()),
        beliefs_by_type=dict(sorted(by_type.items())),
        beliefs_by_state=dict(sorted(by_state.items())),
        promoted=counts.promoted,
        open_conflicts=counts.open_conflicts,
        drifted=states[AnchorState.DRIFTED],
        vanished=states[AnchorState.VANISHED],
        last_activity=counts.last_activity,
        injected_sessions=counts.injected_sessions,
        injected_tokens=counts.injected_tokens,
    )


def _principal_belief(belief: Belief) -> PrincipalBelief:
    secret = belief.sensitivity is Sensitivity.SECRET  # the overview is printed
    return PrincipalBelief(
        id=belief.id,
        statement=REDACTED if secret else belief.statement,
        type=belief.type,
        confidence_band=confidence_band(belief.confidence),
        origins=sorted(belief.origins),
    )


def overview(db: Database, principal: str) -> Overview:
    """Counts and lists the principal's memory across all of its projects."""
    anchored = anchored_beliefs(db, principal, None, MAX_BATCH_ROWS)
    projects = [
        _project(db, principal, counts, anchored)
        for counts in project_counts(db, principal, MAX_PROJECTS)
    ]
    ids = belief_store.list_belief_ids(
        db, principal, ListFilters(scope=Scope.PRINCIPAL), anchored=False, limit=MAX_LISTED
    )
    return Overview(
        principal=principal,
        projects=projects,
        principal_beliefs=[
            _principal_belief(b) for b in belief_store.get_beliefs(db, principal, ids)
        ],
        recurring_subjects=[
            RecurringSubject(subject=s.subject, projects=s.projects, beliefs=s.beliefs)
            for s in recurring_subjects(db, principal, MAX_LISTED)
        ],
    )
