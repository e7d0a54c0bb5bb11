"""Which beliefs an index run drifted (or restored): anchor states before and after.

Anchor state stays computed at read time (rule 4); an index run only compares the
states of the beliefs learned in the indexed project before and after it, and logs
each change as an ``anchor.changed`` event. No belief is touched (rule 1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from graphmem.anchors.state import anchor_statuses
from graphmem.models import MAX_BATCH_ROWS, AnchorChange, AnchorState
from graphmem.store.database import Database
from graphmem.store.events import AnchorTransition, record_anchor_changes
from graphmem.store.overview import AnchoredBelief, anchored_beliefs

AnchorStates = dict[str, tuple[AnchoredBelief, AnchorState]]


def anchor_states(db: Database, principal: str, project: str) -> AnchorStates:
    """The anchor state in ``project`` of every live anchored belief learned there."""
    beliefs = anchored_beliefs(db, principal, project, MAX_BATCH_ROWS)
    statuses = anchor_statuses(db, principal, beliefs, project, with_candidates=False)
    return {
        status.belief_id: (belief, status.state)
        for belief, status in zip(beliefs, statuses, strict=True)
    }


def anchor_changes(
    project: str, before: Mapping[str, tuple[AnchoredBelief, AnchorState]], after: AnchorStates
) -> list[AnchorChange]:
    """The beliefs whose state differs between two snapshots, by belief id (pure)."""
    changed: list[AnchorChange] = []
    for belief_id in sorted(after):
        belief, state = after[belief_id]
        if belief_id not in before or before[belief_id][1] is state:
            continue
        changed.append(
            AnchorChange(
                belief_id=belief_id,
                statement=belief.statement,
                project=project,
                anchor_key=belief.anchor_key or "",
                before=before[belief_id][1],
                after=state,
            )
        )
    return changed


def log_anchor_changes(
    db: Database,
    principal: str,
    project: str,
    changes: Sequence[AnchorChange],
    actor: str,
    now: datetime,
) -> None:
    """Writes one ``anchor.changed`` event per change (nothing when there is none)."""
    transitions = [AnchorTransition(c.belief_id, c.before.value, c.after.value) for c in changes]
    record_anchor_changes(db, principal, project, transitions, actor, now)
