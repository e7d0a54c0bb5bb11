"""The change log (``:MemoryEvent``) as derived views and readers see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.store.database import Database, Value, native, plain, run
from graphmem.store.embeddings import StoredVectors
from graphmem.trust.sensitivity import REDACTED


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
    subject: str = ""
    """A created belief's subject (empty otherwise): searchable, not embedded."""
    happened_at: datetime | None = None
    """When a created episode happened (started, else recorded); None otherwise."""
    node_id: str = ""
    """The created or deleted node's id."""
    vectors: StoredVectors | None = None
    """A created node's stored vectors (None: none were stored yet)."""

    @property
    def lexical_text(self) -> str:
        """What the lexical view indexes: the text, and a belief's subject."""
        return f"{self.text}\n{self.subject}" if self.subject else self.text


def _aware(value: Value) -> datetime | None:
    return value if isinstance(value, datetime) else None


def _stored(embedding: object) -> StoredVectors | None:
    """The ``[model, vectors]`` pair view_events returns, or None."""
    if not isinstance(embedding, list) or len(embedding) != 2:
        return None
    model, data = embedding
    if not isinstance(model, str) or not isinstance(data, bytes | bytearray):
        return None
    return StoredVectors(model, bytes(data))


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
            subject=record["subject"] or "",
            happened_at=_aware(native(record["happened_at"])),
            node_id=record["node_id"] or "",
            vectors=_stored(record["embedding"]),
        )
        for record in records
    ]


def list_events(db: Database, principal: str, since: int, limit: int) -> list[dict[str, Value]]:
    """The principal's change log after seq ``since``, oldest first: every field."""
    records = db.read(
        "memory/events", principal=principal, since=since, limit=limit, redacted=REDACTED
    )
    return [plain(record["event"]) for record in records]


@dataclass(frozen=True)
class LoggedChange:
    """One change-log entry with the statement and project it concerns."""

    seq: int
    type: str
    at: datetime
    actor: str
    node_id: str
    project: str | None
    statement: str | None
    statement_sha256: str | None
    related_id: str | None
    reason: str | None
    correction: str | None
    anchor_from: str | None
    anchor_to: str | None


def logged_changes(
    db: Database,
    principal: str,
    types: Sequence[str],
    *,
    since_seq: int | None,
    since_at: datetime | None,
    project: str | None,
    limit: int,
) -> list[LoggedChange]:
    """The principal's events of ``types`` after ``since_seq`` / from ``since_at``."""
    records = db.read(
        "memory/changes",
        principal=principal,
        types=list(types),
        since_seq=since_seq,
        since_at=since_at,
        project=project,
        limit=limit,
        redacted=REDACTED,
    )
    changes: list[LoggedChange] = []
    for record in records:
        at = native(record["at"])
        assert isinstance(at, datetime)  # every event is written with a datetime
        changes.append(
            LoggedChange(
                seq=int(record["seq"]),
                type=str(record["type"]),
                at=at,
                actor=str(record["actor"]),
                node_id=str(record["node_id"]),
                project=record["project"],
                statement=record["statement"],
                statement_sha256=record["statement_sha256"],
                related_id=record["related_id"],
                reason=record["reason"],
                correction=record["correction"],
                anchor_from=record["anchor_from"],
                anchor_to=record["anchor_to"],
            )
        )
    return changes


@dataclass(frozen=True)
class AnchorTransition:
    """A belief whose anchor state an index run changed."""

    belief_id: str
    before: str
    after: str


def record_anchor_changes(
    db: Database,
    principal: str,
    project: str,
    transitions: Sequence[AnchorTransition],
    actor: str,
    now: datetime,
) -> None:
    """Logs one ``anchor.changed`` event per transition, in one write."""
    if not transitions:
        return
    rows = [{"belief_id": t.belief_id, "before": t.before, "after": t.after} for t in transitions]

    def work(tx: ManagedTransaction) -> None:
        run(
            tx,
            "memory/record_anchor_changes",
            principal=principal,
            project=project,
            rows=rows,
            actor=actor,
            now=now,
        )

    db.write(work)
