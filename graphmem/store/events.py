"""The change log (``:MemoryEvent``) as derived views and readers see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.store.database import Database, Value, plain


@dataclass(frozen=True)
class ViewEvent:
    """One change a derived view applies: a node created (with its text) or deleted."""

    seq: int
    """The event's own seq (the view's watermark moves to it)."""
    type: str
    node_seq: int | None
    """The created or deleted node's creation seq (the view's vector id)."""
    text: str
    """What to embed for a created node (empty for a deletion)."""


def view_events(
    db: Database, principal: str, since: int, types: Sequence[str], limit: int
) -> list[ViewEvent]:
    """The principal's events of ``types`` after seq ``since``, oldest first."""
    records = db.read(
        "memory/view_events", principal=principal, since=since, types=list(types), limit=limit
    )
    return [
        ViewEvent(
            seq=int(record["seq"]),
            type=str(record["type"]),
            node_seq=int(record["node_seq"]) if record["node_seq"] is not None else None,
            text=record["text"] or "",
        )
        for record in records
    ]


def list_events(db: Database, principal: str, since: int, limit: int) -> list[dict[str, Value]]:
    """The principal's change log after seq ``since``, oldest first: every field."""
    records = db.read("memory/events", principal=principal, since=since, limit=limit)
    return [plain(record["event"]) for record in records]
