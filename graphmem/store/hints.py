"""Formation hints (docs/formation.md): what recall kept missing on, for formation to consume.

Hints are queued by the trace writer (``hint/queue``, in the transaction that writes
the missed recalls' traces); this module lists them, hands the open ones to
formation, marks them consumed and deletes the expired ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from graphmem.models import FormationHint
from graphmem.store.database import Database, Record, drain, plain, run

SWEEP_BATCH = 10_000
"""Hints one sweep transaction deletes."""


def _hint(record: Record) -> FormationHint:
    return FormationHint.model_validate(plain(record["hint"]))  # extra keys are ignored


def list_hints(
    db: Database, principal: str, now: datetime, *, consumed: bool, limit: int
) -> list[FormationHint]:
    """The hints that have not expired: open ones (most missed first), then consumed ones.

    Consumed ones are listed only when ``consumed``.
    """
    records = db.read("hint/list", principal=principal, now=now, consumed=consumed, limit=limit)
    return [_hint(record) for record in records]


def open_hints(db: Database, principal: str, now: datetime, limit: int) -> list[FormationHint]:
    """The open hints that have not expired, oldest first."""
    return [
        _hint(record) for record in db.read("hint/open", principal=principal, now=now, limit=limit)
    ]


def consume_hints(
    db: Database,
    principal: str,
    outcomes: Sequence[Mapping[str, object]],
    by: str,
    now: datetime,
) -> list[str]:
    """Marks hints consumed; returns the ids of those that were still open.

    Each row holds ``id``, ``episodes`` (looked at) and ``formed`` (what they formed).
    """
    if not outcomes:
        return []
    records = db.write(
        lambda tx: run(
            tx, "hint/consume", principal=principal, hints=list(outcomes), by=by, now=now
        )
    )
    return [record["id"] for record in records]


def sweep_hints(db: Database, principal: str, now: datetime, since: datetime) -> int:
    """Deletes the expired hints; returns how many.

    A consumed one goes only once it was consumed before ``since``.
    """
    return drain(
        db, "hint/sweep", "deleted", SWEEP_BATCH, principal=principal, now=now, since=since
    )
