"""The write side of formation (design §6): one transaction per episode.

The pipeline in :mod:`graphmem.formation.pipeline` decides; this module commits what
it decided, all-or-nothing, with one ``:MemoryEvent`` per change. The episode is
marked consolidated first, under the clock lock, so a repeated or concurrent run of
the same episode writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.models import Authority, NewBelief, Scope
from graphmem.store.database import Database, run
from graphmem.store.memory import PendingBelief, insert_beliefs

REJECTED_LOG_WINDOW = 10_000
"""Rejected candidates kept per principal in the event log (newest first)."""


@dataclass
class FormationWrites:
    """Everything one consolidation writes."""

    episode_id: str
    policy_version: str
    actor: Authority
    created: list[tuple[str, NewBelief, dict[str, Any]]] = field(default_factory=list)
    """(new id, belief, extra properties)."""
    reinforcements: list[dict[str, str]] = field(default_factory=list)
    """{belief_id, episode_id, role}."""
    supersessions: list[tuple[str, str, str]] = field(default_factory=list)
    """(old id, new id, reason)."""
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    """(new id, slot holder id)."""
    rejections: list[dict[str, Any]] = field(default_factory=list)
    """{gate, statement, digest, role, similar_to, similarity}."""


@dataclass(frozen=True)
class FormationOutcome:
    """What the reinforcements triggered (None when the episode was already done)."""

    activated: list[str]
    promoted: list[str]


class StaleDecision(Exception):
    """A belief the decisions rest on stopped being live before the commit.

    Internal: the pipeline decides the episode again.
    """


def commit_formation(
    db: Database, principal: str, writes: FormationWrites
) -> FormationOutcome | None:
    """Writes one consolidation; returns None if the episode was consolidated already.

    Raises:
        StaleDecision: A belief to supersede, conflict with or reinforce is no longer
            live (nothing is written).
    """
    now = datetime.now(UTC)
    actor = writes.actor.value

    def work(tx: ManagedTransaction) -> FormationOutcome | None:
        marked = run(
            tx,
            "formation/mark_consolidated",
            principal=principal,
            episode_id=writes.episode_id,
            policy=writes.policy_version,
            actor=actor,
            now=now,
        )
        if not marked:
            return None
        pending = [
            PendingBelief(
                None,
                belief,
                belief_id,
                Scope.PROJECT,
                [belief.project],
                extra={**extra, "policy_version": writes.policy_version},
            )
            for belief_id, belief, extra in writes.created
        ]
        insert_beliefs(tx, principal, now, pending)
        for old_id, new_id, reason in writes.supersessions:
            superseded = run(
                tx,
                "belief/mark_superseded",
                principal=principal,
                old_id=old_id,
                new_id=new_id,
                reason=reason,
                actor=actor,
                now=now,
            )
            _expect(len(superseded), 1)
        if writes.conflicts:
            pairs = [{"new_id": new, "old_id": old} for new, old in writes.conflicts]
            linked = run(
                tx,
                "formation/link_conflicts",
                principal=principal,
                pairs=pairs,
                actor=actor,
                now=now,
            )
            _expect(len(linked), len(pairs))
        outcome = FormationOutcome([], [])
        if writes.reinforcements:
            supported = run(
                tx,
                "formation/reinforce",
                principal=principal,
                rows=writes.reinforcements,
                actor=actor,
                now=now,
            )
            _expect(len(supported), len(writes.reinforcements))
            ids = sorted({row["belief_id"] for row in writes.reinforcements})
            for record in run(
                tx, "formation/corroborate", principal=principal, ids=ids, actor=actor, now=now
            ):
                if record["activates"]:
                    outcome.activated.append(record["id"])
                if record["promotes"]:
                    outcome.promoted.append(record["id"])
        if writes.rejections:
            run(
                tx,
                "formation/log_rejections",
                principal=principal,
                episode_id=writes.episode_id,
                rows=writes.rejections,
                actor=actor,
                now=now,
            )
            run(
                tx,
                "formation/prune_rejections",
                principal=principal,
                window=REJECTED_LOG_WINDOW,
            )
        return outcome

    return db.write(work)


def _expect(found: int, wanted: int) -> None:
    if found != wanted:
        raise StaleDecision(f"{wanted - found} of {wanted} beliefs are no longer live")


def reset_formation(db: Database, principal: str, policy_version: str, actor: Authority) -> int:
    """Makes a principal's memory ready to be formed again (one transaction).

    Retires every formed belief, clears the rejected-candidate log and marks every
    episode due.

    Returns:
        How many beliefs were retired.
    """
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> int:
        records = run(
            tx,
            "formation/retire_formed",
            principal=principal,
            reason=f"re-derived under {policy_version}",
            actor=actor.value,
            now=now,
        )
        run(
            tx,
            "formation/reset_consolidated",
            principal=principal,
            policy=policy_version,
            actor=actor.value,
            now=now,
        )
        return int(records[0]["retired"]) if records else 0

    return db.write(work)
