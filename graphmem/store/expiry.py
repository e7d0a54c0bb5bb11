"""Expiry's store (docs/formation.md#expiry): the formed beliefs due, and batched writes.

What is due is read once; the writes go in batches of :data:`BATCH` ids, one
transaction each, with one ``:MemoryEvent`` per belief changed. Every write checks its
beliefs again under the clock lock, so a belief an episode confirmed in between is
left alone, and running again with the same ``now`` writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.models import Authority
from graphmem.store.database import Database, native, run

BATCH = 1_000
"""Beliefs demoted or retired per transaction."""


@dataclass(frozen=True)
class DueBelief:
    """A live formed belief an expiry run may demote or retire."""

    id: str
    last_confirmed_at: datetime
    stale_since: datetime | None


def _time(value: Any) -> datetime | None:
    found = native(value)
    return found if isinstance(found, datetime) else None


def due_beliefs(
    db: Database, principal: str, stale_before: datetime, retire_before: datetime
) -> list[DueBelief]:
    """The live formed beliefs (not of user authority) past either cutoff, by id."""
    records = db.read(
        "formation/expiry_due",
        principal=principal,
        stale_before=stale_before,
        retire_before=retire_before,
    )
    due = []
    for record in records:
        confirmed = _time(record["last_confirmed_at"])
        if confirmed is not None:
            due.append(DueBelief(record["id"], confirmed, _time(record["stale_since"])))
    return due


def mark_stale(
    db: Database,
    principal: str,
    ids: Sequence[str],
    *,
    stale_before: datetime,
    now: datetime,
    actor: Authority,
) -> list[str]:
    """Marks these formed beliefs stale at ``now``; returns the ids it marked.

    One still not confirmed after ``stale_before``, live and not yet stale is marked.
    """
    return _batched(
        db,
        "formation/mark_stale",
        ids,
        principal=principal,
        stale_before=stale_before,
        now=now,
        actor=actor.value,
    )


def retire_stale(
    db: Database,
    principal: str,
    ids: Sequence[str],
    *,
    retire_before: datetime,
    now: datetime,
    reason: str,
    actor: Authority,
) -> list[str]:
    """Retires these stale formed beliefs at ``now``; returns the ids it retired.

    One still stale since ``retire_before`` or earlier, and live, is retired.
    """
    return _batched(
        db,
        "formation/retire_stale",
        ids,
        principal=principal,
        retire_before=retire_before,
        now=now,
        reason=reason,
        actor=actor.value,
    )


def _batched(db: Database, query: str, ids: Sequence[str], **params: Any) -> list[str]:
    """Runs ``query`` over ``ids`` in batches of :data:`BATCH`, one transaction each."""
    changed: list[str] = []
    for start in range(0, len(ids), BATCH):
        batch = list(ids[start : start + BATCH])

        def work(tx: ManagedTransaction, batch: list[str] = batch) -> list[str]:
            return [str(record["id"]) for record in run(tx, query, ids=batch, **params)]

        changed.extend(db.write(work))
    return changed
