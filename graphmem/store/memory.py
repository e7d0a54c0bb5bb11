"""Memory writes and reads: episodes, beliefs, provenance and supersession.

Every write runs in one managed transaction, draws its ``seq`` values from the clock
inside that transaction, appends one ``:MemoryEvent`` per change, and is a no-op when
its ``idempotency_key`` was written before. Every read filters on the principal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any, TypeVar

import neo4j
from neo4j import ManagedTransaction

from graphmem.content import content_forms, principal_key, statement_digest
from graphmem.errors import DatabaseError, InvalidInput, MigrationError, NotFound, StateConflict
from graphmem.models import (
    Authority,
    Belief,
    BeliefChanges,
    BeliefState,
    Episode,
    HistoryEntry,
    NewBelief,
    NewEpisode,
    Scope,
)
from graphmem.store.anchoring import AnchorRequest, resolve_anchors
from graphmem.store.cypher import cypher
from graphmem.store.database import Database, run
from graphmem.store.ids import new_id
from graphmem.validation import parse

T = TypeVar("T")

_IDEMPOTENCY_RACE_RETRIES = 3
_CONSTRAINT_FAILED = "Neo.ClientError.Schema.ConstraintValidationFailed"


def _write_idempotent(db: Database, work: Callable[[ManagedTransaction], T], keyed: bool) -> T:
    """Runs a write; if it is keyed and a concurrent twin won the key, runs it again.

    The uniqueness constraint on (principal, idempotency_key) makes the loser fail; on
    the next attempt its key lookup finds the winner's node and writes nothing.
    """
    attempt = 0
    while True:
        try:
            return db.write(work)
        except DatabaseError as error:
            attempt += 1
            lost_race = error.details.get("code") == _CONSTRAINT_FAILED
            if not (keyed and lost_race) or attempt == _IDEMPOTENCY_RACE_RETRIES:
                raise


def _check_created(created: Sequence[neo4j.Record], expected: int) -> None:
    """Raises if the create query wrote fewer rows than asked (no schema, no clock)."""
    if len(created) != expected:
        raise MigrationError(
            "the memory schema is missing (no :Clock node): run `graphmem init`, or open a "
            "GraphMem with migrate=True"
        )


def _existing_keys(
    tx: ManagedTransaction, label: str, principal: str, keys: Sequence[str | None]
) -> dict[str, str]:
    wanted = sorted({key for key in keys if key is not None})
    if not wanted:
        return {}
    records = run(tx, f"{label}/existing_keys", principal=principal, keys=wanted)
    return {record["key"]: record["id"] for record in records}


def _check_episodes_exist(
    tx: ManagedTransaction, principal: str, wanted: Sequence[tuple[int | None, str, str]]
) -> None:
    """Raises NotFound for the first (row, field, episode id) whose episode is missing."""
    if not wanted:
        return
    ids = sorted({episode_id for _, _, episode_id in wanted})
    found = {r["id"] for r in run(tx, "episode/existing_ids", principal=principal, ids=ids)}
    for row, field, episode_id in wanted:
        if episode_id not in found:
            where = f"row {row}: " if row is not None else ""
            raise NotFound(
                f"{where}{field}: episode {episode_id} does not exist for this principal",
                field=field,
                rule="exists",
                row=row,
            )


def _assign_ids(keys: Sequence[str | None], existing: Mapping[str, str]) -> list[tuple[str, bool]]:
    """Returns (id, is_new) per row; rows sharing a key share the first row's id."""
    seen: dict[str, str] = dict(existing)
    assigned: list[tuple[str, bool]] = []
    for key in keys:
        if key is not None and key in seen:
            assigned.append((seen[key], False))
            continue
        node_id = new_id()
        if key is not None:
            seen[key] = node_id
        assigned.append((node_id, True))
    return assigned


# --- episodes -----------------------------------------------------------------------


def _episode_row(episode: NewEpisode, episode_id: str) -> dict[str, Any]:
    props = episode.model_dump(exclude={"parent"})
    props["id"] = episode_id
    return {"props": props, "parent": episode.parent}


def create_episodes(
    db: Database, principal: str, episodes: Sequence[NewEpisode], *, row_numbers: bool
) -> list[str]:
    """Writes episodes in one transaction; returns their ids in order."""
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> list[str]:
        existing = _existing_keys(tx, "episode", principal, [e.idempotency_key for e in episodes])
        assigned = _assign_ids([e.idempotency_key for e in episodes], existing)
        rows = [
            (index, episode, episode_id)
            for index, (episode, (episode_id, is_new)) in enumerate(
                zip(episodes, assigned, strict=True)
            )
            if is_new
        ]
        _check_episodes_exist(
            tx,
            principal,
            [
                (index if row_numbers else None, "parent", episode.parent)
                for index, episode, _ in rows
                if episode.parent is not None
            ],
        )
        if rows:
            created = run(
                tx,
                "episode/create",
                principal=principal,
                principal_key=principal_key(principal),
                now=now,
                actor="writer",
                rows=[_episode_row(episode, episode_id) for _, episode, episode_id in rows],
            )
            _check_created(created, len(rows))
        return [episode_id for episode_id, _ in assigned]

    return _write_idempotent(db, work, keyed=any(e.idempotency_key for e in episodes))


# --- beliefs ------------------------------------------------------------------------


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


def _belief_row(pending: PendingBelief, now: datetime) -> dict[str, Any]:
    belief = pending.belief
    props = belief.model_dump(exclude={"evidence", "anchor", "anchor_unverifiable"})
    props.update(
        id=pending.id,
        portability=belief.effective_portability,
        valid_from=belief.valid_from or now,
        scope=pending.scope,
        origins=pending.origins,
        anchor_key=pending.anchor_key,
        anchor_hash=pending.anchor_hash,
        **pending.extra,
    )
    evidence = [{"episode_id": e.episode_id, "role": e.role} for e in belief.evidence]
    return {"props": props, "evidence": evidence}


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
    tx: ManagedTransaction, principal: str, now: datetime, pending: Sequence[PendingBelief]
) -> None:
    """Creates pending beliefs with provenance, anchors and events (evidence checked)."""
    _check_episodes_exist(
        tx,
        principal,
        [
            (p.row, f"evidence[{j}].episode_id", evidence.episode_id)
            for p in pending
            for j, evidence in enumerate(p.belief.evidence)
        ],
    )
    if pending:
        created = run(
            tx,
            "belief/create",
            principal=principal,
            principal_key=principal_key(principal),
            now=now,
            rows=[_belief_row(p, now) for p in pending],
        )
        _check_created(created, len(pending))


def create_beliefs(
    db: Database, principal: str, beliefs: Sequence[NewBelief], *, row_numbers: bool
) -> list[str]:
    """Writes beliefs and their provenance in one transaction; returns ids in order."""
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> list[str]:
        keys = [b.idempotency_key for b in beliefs]
        assigned = _assign_ids(keys, _existing_keys(tx, "belief", principal, keys))
        pending = [
            PendingBelief(
                index if row_numbers else None, belief, belief_id, Scope.PROJECT, [belief.project]
            )
            for index, (belief, (belief_id, is_new)) in enumerate(
                zip(beliefs, assigned, strict=True)
            )
            if is_new
        ]
        insert_beliefs(tx, principal, now, _with_anchors(tx, principal, pending))
        return [belief_id for belief_id, _ in assigned]

    return _write_idempotent(db, work, keyed=any(b.idempotency_key for b in beliefs))


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
    db: Database, principal: str, old_id: str, changes: BeliefChanges, reason: str
) -> str:
    """Writes the belief that supersedes ``old_id`` and links it (design rule 3)."""
    now = datetime.now(UTC)
    return _write_idempotent(
        db,
        lambda tx: supersede_in(tx, principal, old_id, changes, reason, now),
        keyed=changes.idempotency_key is not None,
    )


def supersede_in(
    tx: ManagedTransaction,
    principal: str,
    old_id: str,
    changes: BeliefChanges,
    reason: str,
    now: datetime,
) -> str:
    """Supersedes ``old_id`` inside the caller's transaction; returns the new id."""
    old, superseded_by = lock_belief(tx, principal, old_id, "old_id")
    key = changes.idempotency_key
    earlier = _existing_keys(tx, "belief", principal, [key]).get(key) if key else None
    if earlier is not None:  # a retry: only valid if that write superseded old_id
        if superseded_by == earlier:
            return earlier
        raise InvalidInput(
            f"idempotency_key: {key!r} was used by another write, not by a supersession "
            f"of {old_id}",
            field="idempotency_key",
            rule="reused",
        )
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
    if valid_from < _native(old["valid_from"]):
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


# --- reads --------------------------------------------------------------------------


def _native(value: Any) -> Any:
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


def _plain(props: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _native(value) for key, value in props.items()}


def get_beliefs(db: Database, principal: str, ids: Sequence[str]) -> list[Belief]:
    """Returns the beliefs with these ids that exist for the principal, in order."""
    if not ids:
        return []
    records = db.read("belief/get", principal=principal, ids=list(ids))
    return [
        Belief(
            **_plain(record["belief"]),
            evidence=record["evidence"],
            superseded_by=record["superseded_by"],
            supersedes=record["supersedes"],
        )
        for record in records
    ]


def get_episodes(db: Database, principal: str, ids: Sequence[str]) -> list[Episode]:
    """Returns the episodes with these ids that exist for the principal, in order."""
    if not ids:
        return []
    records = db.read("episode/get", principal=principal, ids=list(ids))
    return [
        Episode(**{**_plain(record["episode"]), "parent": record["parent"]}) for record in records
    ]


def unconsolidated_ids(db: Database, principal: str, limit: int) -> list[str]:
    """Ids of the principal's episodes formation has not run over yet, oldest first."""
    records = db.read("episode/unconsolidated", principal=principal, limit=limit)
    return [str(record["id"]) for record in records]


def list_projects(db: Database, principal: str, limit: int) -> list[str]:
    """The principal's project names (of its episodes and its beliefs' origins), sorted."""
    records = db.read("memory/projects", principal=principal, limit=limit)
    return [str(record["project"]) for record in records]


def list_belief_ids(db: Database, principal: str, **filters: Any) -> list[str]:
    """Returns the ids of beliefs matching the filters of ``belief/list``, oldest first."""
    return [record["id"] for record in db.read("belief/list", principal=principal, **filters)]


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


def delete_principal(db: Database, principal: str) -> None:
    """Deletes every node of ``principal`` (benchmarks and tests clean up with it)."""
    db.run_autocommit(cypher("memory/delete_principal"), principal=principal)
