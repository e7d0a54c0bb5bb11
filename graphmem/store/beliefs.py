"""Beliefs (docs/architecture.md): stated, superseded, retired, forgotten; read with provenance.

Every write is one managed transaction with one ``:MemoryEvent`` per change; every
read filters on the principal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.content import content_forms, statement_digest
from graphmem.entities.mentions import batched, belief_mentions
from graphmem.errors import InvalidInput, NotFound, StateConflict
from graphmem.models import (
    Authority,
    Belief,
    BeliefChanges,
    BeliefState,
    HistoryEntry,
    ListFilters,
    NewBelief,
    Scope,
)
from graphmem.store.anchoring import AnchorRequest, resolve_anchors
from graphmem.store.clock import Reservation, stamp, write_seqs
from graphmem.store.database import Database, native, plain, run
from graphmem.store.embeddings import Encoder, StoredVectors, vector_fields
from graphmem.store.ids import new_id
from graphmem.store.writes import (
    IDEMPOTENCY_DIGEST,
    assign_ids,
    check_episodes_exist,
    existing_keys,
    idempotency_conflict,
    payload_digest,
    positions,
    same_payload,
    write_idempotent,
)
from graphmem.trust.sensitivity import (
    BELIEF_TEXTS,
    DEFAULT_SENSITIVITY,
    effective,
    texts_of,
)
from graphmem.validation import parse


@dataclass(frozen=True)
class PendingBelief:
    """A belief about to be created: where it came from and what it will be."""

    row: int | None
    belief: NewBelief
    id: str
    scope: Scope
    origins: list[str]
    anchor_key: str | None = None
    anchor_hash: str | None = None
    extra: Mapping[str, Any] = dataclass_field(default_factory=dict)
    """More properties to store (formation: ``not_here``, ``disputed``, policy)."""
    vectors: StoredVectors | None = None
    """The statement's vectors, when the writer embedded it (else the views do)."""


def _belief_row(pending: PendingBelief) -> dict[str, Any]:
    belief = pending.belief
    props = belief.model_dump(exclude={"evidence", "anchor", "anchor_unverifiable"})
    props.update(
        id=pending.id,
        portability=belief.effective_portability,
        valid_from=belief.valid_from,  # None: belief/create sets $now
        scope=pending.scope,
        origins=pending.origins,
        anchor_key=pending.anchor_key,
        anchor_hash=pending.anchor_hash,
        **pending.extra,
    )
    props["sensitivity"] = effective(belief.sensitivity, texts_of(props, BELIEF_TEXTS))
    evidence = [{"episode_id": e.episode_id, "role": e.role} for e in belief.evidence]
    return {"props": props, "evidence": evidence, **vector_fields(pending.vectors)}


def _with_anchors(
    tx: ManagedTransaction, principal: str, pending: Sequence[PendingBelief]
) -> list[PendingBelief]:
    """Resolves the writers' anchors of the pending beliefs that have one."""
    anchored = [p for p in pending if p.belief.anchor is not None]
    requests = [
        AnchorRequest(p.row, p.belief.project, p.belief.anchor, p.belief.anchor_unverifiable)
        for p in anchored
        if p.belief.anchor is not None
    ]
    resolved = dict(
        zip((p.id for p in anchored), resolve_anchors(tx, principal, requests), strict=True)
    )
    return [
        replace(p, anchor_key=resolved[p.id][0], anchor_hash=resolved[p.id][1])
        if p.id in resolved
        else p
        for p in pending
    ]


def insert_beliefs(
    tx: ManagedTransaction,
    principal: str,
    now: datetime,
    pending: Sequence[PendingBelief],
    reservation: Reservation | None = None,
) -> None:
    """Creates pending beliefs with provenance, anchors and events (evidence checked).

    Their seqs come from ``reservation`` when the write reserved them, else the clock.
    """
    check_episodes_exist(
        tx,
        principal,
        [
            (p.row, f"evidence[{j}].episode_id", evidence.episode_id)
            for p in pending
            for j, evidence in enumerate(p.belief.evidence)
        ],
    )
    if pending:
        rows = [_belief_row(p) for p in pending]
        names, mentions = batched([belief_mentions(row["props"]) for row in rows])
        projects, learned_in = positions([p.origins for p in pending])
        run(
            tx,
            "belief/create",
            principal=principal,
            now=now,
            rows=[
                {**row, "mentions": at, "learned_in": origins}
                for row, at, origins in zip(rows, mentions, learned_in, strict=True)
            ],
            names=names,
            projects=projects,
        )
        stamp(tx, "belief", principal, [p.id for p in pending], now, reservation)


def create_beliefs(
    db: Database,
    principal: str,
    beliefs: Sequence[NewBelief],
    *,
    row_numbers: bool,
    encode: Encoder | None = None,
) -> list[str]:
    """Writes beliefs and their provenance in one transaction; returns ids in order.

    With ``encode``, each statement's vectors are made first, outside the transaction,
    and stored with it. A batch of :data:`~graphmem.store.clock.RESERVE_FROM` or more
    reserves its seqs first, so other writers do not wait for its commit.
    """
    now = datetime.now(UTC)
    vectors = list(encode([b.statement for b in beliefs])) if encode else [None] * len(beliefs)

    def work(tx: ManagedTransaction, reservation: Reservation | None) -> list[str]:
        keys = [b.idempotency_key for b in beliefs]
        digests = [payload_digest("belief", b) if b.idempotency_key else None for b in beliefs]
        assigned = assign_ids(
            keys, digests, existing_keys(tx, "belief", principal, keys), row_numbers=row_numbers
        )
        pending = [
            PendingBelief(
                index if row_numbers else None,
                belief,
                belief_id,
                Scope.PROJECT,
                [belief.project],
                extra={IDEMPOTENCY_DIGEST: digest},
                vectors=stored,
            )
            for index, (belief, digest, (belief_id, is_new), stored) in enumerate(
                zip(beliefs, digests, assigned, vectors, strict=True)
            )
            if is_new
        ]
        insert_beliefs(tx, principal, now, _with_anchors(tx, principal, pending), reservation)
        return [belief_id for belief_id, _ in assigned]

    return write_seqs(
        db, principal, len(beliefs), work, keyed=any(b.idempotency_key for b in beliefs)
    )


def _successor(old: Mapping[str, Any], changes: BeliefChanges) -> NewBelief:
    """The belief that replaces ``old``: the old one's fields unless ``changes`` sets them."""
    inherited = {
        key: old.get(key)
        for key in (
            "project",
            "type",
            "subject",
            "confidence",
            "portability",
            "authority",
            "state",
        )
    }
    given = changes.model_dump(
        exclude_none=True,
        exclude={"evidence", "idempotency_key", "anchor", "anchor_unverifiable"},
    )
    if given.get("type", old["type"]) != old["type"] and "portability" not in given:
        inherited["portability"] = None  # the new type's default, not the old type's
    fields = {
        **inherited,
        **given,
        "anchor": changes.anchor,
        "anchor_unverifiable": changes.anchor_unverifiable,
        "evidence": changes.evidence,
        "idempotency_key": changes.idempotency_key,
        "sensitivity": old.get("sensitivity") or DEFAULT_SENSITIVITY,  # never lowered
    }
    return parse(NewBelief, fields)


def lock_belief(
    tx: ManagedTransaction, principal: str, belief_id: str, field: str
) -> tuple[dict[str, Any], str | None]:
    """Write-locks one belief and reads it: (its properties, the id superseding it).

    Raises:
        NotFound: No such belief for this principal (``field`` names the argument).
    """
    locked = run(tx, "belief/lock", principal=principal, id=belief_id)
    if not locked:
        raise NotFound(
            f"{field}: belief {belief_id} does not exist for this principal",
            field=field,
            rule="exists",
        )
    return dict(locked[0]["belief"]), locked[0]["superseded_by"]


def supersede(
    db: Database,
    principal: str,
    old_id: str,
    changes: BeliefChanges,
    reason: str,
    encode: Encoder | None = None,
) -> str:
    """Writes the belief that supersedes ``old_id`` and links it (rule 3, docs/architecture.md).

    With ``encode``, the new statement's vectors are made first and stored with it.
    """
    now = datetime.now(UTC)
    vectors = encode([changes.statement])[0] if encode else None
    return write_idempotent(
        db,
        lambda tx: supersede_in(tx, principal, old_id, changes, reason, now, vectors),
        keyed=changes.idempotency_key is not None,
    )


def supersede_in(
    tx: ManagedTransaction,
    principal: str,
    old_id: str,
    changes: BeliefChanges,
    reason: str,
    now: datetime,
    vectors: StoredVectors | None = None,
) -> str:
    """Supersedes ``old_id`` inside the caller's transaction; returns the new id.

    ``vectors`` are the new statement's, when the caller embedded it.
    """
    old, superseded_by = lock_belief(tx, principal, old_id, "old_id")
    key = changes.idempotency_key
    digest = None
    if key is not None:
        digest = payload_digest("supersede", changes, old_id=old_id, reason=reason)
        earlier = existing_keys(tx, "belief", principal, [key]).get(key)
        if earlier is not None:  # a retry only if it is this supersession of old_id
            if superseded_by == earlier.id and same_payload(earlier, digest):
                return earlier.id
            raise idempotency_conflict(key, row=None, existing_id=earlier.id)
    if old.get("superseded_at") is not None:
        raise StateConflict(
            f"old_id: belief {old_id} is already superseded; supersede the newest "
            "belief of its chain (see `graphmem history`)",
            field="old_id",
            rule="not_superseded",
        )
    if old["state"] == BeliefState.RETIRED:
        raise StateConflict(
            f"old_id: belief {old_id} is retired and cannot be superseded",
            field="old_id",
            rule="not_retired",
        )
    new = _successor(old, changes)
    valid_from = new.valid_from or now
    old_from = native(old["valid_from"])
    if isinstance(old_from, datetime) and valid_from < old_from:
        raise InvalidInput(
            "valid_from: the new belief cannot become valid before the one it supersedes",
            field="valid_from",
            rule="after_superseded",
        )
    pending = PendingBelief(
        None,
        new,
        new_id(),
        old["scope"],
        [new.project],
        anchor_key=old.get("anchor_key"),  # kept unless the writer re-anchors
        anchor_hash=old.get("anchor_hash"),
        extra={IDEMPOTENCY_DIGEST: digest},
        vectors=vectors,
    )
    (pending,) = _with_anchors(tx, principal, [pending])
    insert_beliefs(tx, principal, now, [pending])
    new_belief_id = pending.id
    run(
        tx,
        "belief/mark_superseded",
        principal=principal,
        old_id=old_id,
        new_id=new_belief_id,
        reason=reason,
        actor=new.authority,
        now=now,
    )
    return new_belief_id


def retire(db: Database, principal: str, belief_id: str, reason: str, actor: Authority) -> bool:
    """Retires a live belief: valid until now, then out of live reads.

    Returns:
        True if this call retired it, False if it was already retired (a retry).
    """
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> bool:
        old, _ = lock_belief(tx, principal, belief_id, "belief_id")
        if old["state"] == BeliefState.RETIRED:
            return False
        if old.get("superseded_at") is not None:
            raise StateConflict(
                f"belief_id: belief {belief_id} is superseded; retire the newest belief of "
                "its chain (see `graphmem history`)",
                field="belief_id",
                rule="not_superseded",
            )
        run(
            tx,
            "belief/retire",
            principal=principal,
            id=belief_id,
            reason=reason,
            actor=actor.value,
            now=now,
        )
        return True

    return db.write(work)


def forget(db: Database, principal: str, belief_id: str, actor: Authority) -> str:
    """Deletes a belief and its text, keeping a Tombstone (rule 7).

    Returns:
        The forgotten statement (for the caller to drop from its caches).
    """
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> str:
        old, _ = lock_belief(tx, principal, belief_id, "belief_id")
        statement, subject = str(old["statement"]), old.get("subject")
        run(
            tx,
            "belief/forget",
            principal=principal,
            id=belief_id,
            tombstone_id=new_id(),
            digest=statement_digest(statement, subject),
            forms=content_forms(statement, subject),
            actor=actor.value,
            now=now,
        )
        return statement

    return db.write(work)


def get_beliefs(db: Database, principal: str, ids: Sequence[str]) -> list[Belief]:
    """Returns the beliefs with these ids that exist for the principal, in order."""
    if not ids:
        return []
    records = db.read("belief/get", principal=principal, ids=list(ids))
    return [
        Belief(
            **plain(record["belief"]),
            evidence=record["evidence"],
            superseded_by=record["superseded_by"],
            supersedes=record["supersedes"],
        )
        for record in records
    ]


def list_belief_ids(
    db: Database, principal: str, filters: ListFilters, *, anchored: bool, limit: int
) -> list[str]:
    """The ids of beliefs matching ``filters`` (but their anchor state), oldest first.

    Args:
        db: The database.
        principal: Whose beliefs.
        filters: What to match; ``anchor_state`` is checked by the caller.
        anchored: Only beliefs with an anchor key.
        limit: At most this many.
    """
    records = db.read(
        "belief/list",
        principal=principal,
        project=filters.project,
        type=filters.type,
        state=filters.state,
        scope=filters.scope,
        include_superseded=filters.include_superseded,
        promoted=filters.promoted,
        conflicted=filters.conflicted,
        anchored=anchored,
        limit=limit,
    )
    return [record["id"] for record in records]


def history(db: Database, principal: str, belief_id: str) -> list[HistoryEntry]:
    """Returns the supersession chain through ``belief_id``, oldest first."""
    links = db.read("belief/history", principal=principal, id=belief_id)
    if not links:
        raise NotFound(
            f"belief {belief_id} does not exist for this principal", field="id", rule="exists"
        )
    reasons = {record["id"]: record["reason"] for record in links}
    beliefs = get_beliefs(db, principal, [record["id"] for record in links])
    return [HistoryEntry(belief=belief, reason=reasons[belief.id]) for belief in beliefs]
