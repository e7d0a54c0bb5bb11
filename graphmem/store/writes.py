"""What every memory write shares: idempotency keys, new ids, existence checks.

Every write runs in one managed transaction, draws its ``seq`` values from the clock
inside that transaction (or, in bulk, from a block reserved before it: see
:mod:`graphmem.store.clock`), appends one ``:MemoryEvent`` per change, and is a no-op when
its ``idempotency_key`` was written before with the same payload. A keyed node keeps
the :func:`payload_digest` of the write that made it (``idempotency_digest``); the key
reused with another payload raises :class:`~graphmem.errors.IdempotencyConflict`.
Creates take their seqs last (:func:`graphmem.store.clock.stamp`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, TypeVar

from neo4j import ManagedTransaction
from pydantic import BaseModel

from graphmem.errors import DatabaseError, IdempotencyConflict, NotFound
from graphmem.store.database import Database, run
from graphmem.store.ids import new_id

T = TypeVar("T")

_IDEMPOTENCY_RACE_RETRIES = 3
_CONSTRAINT_FAILED = "Neo.ClientError.Schema.ConstraintValidationFailed"


def write_idempotent(db: Database, work: Callable[[ManagedTransaction], T], keyed: bool) -> T:
    """Runs a write; if it is keyed and a concurrent writer won the key, runs it again.

    The uniqueness constraint on (principal, idempotency_key) makes the loser fail; on
    the next attempt its key lookup finds the winner's node and writes nothing: it
    returns the winner's id when the payloads agree, and raises
    :class:`~graphmem.errors.IdempotencyConflict` when they do not.
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


IDEMPOTENCY_DIGEST = "idempotency_digest"
"""The property holding the payload digest of the write that made a keyed node."""


def _canonical(value: Any) -> Any:
    """``value`` as plain JSON values: times in UTC, enums as their values."""
    if isinstance(value, Mapping):
        return {str(key): _canonical(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def payload_digest(write: str, payload: BaseModel, **context: str) -> str:
    """The sha256 (hex) of a keyed write's canonical payload: what the key stands for.

    The canonical form is compact, key-sorted JSON of ``[write, context, fields]``:
    ``fields`` are the validated payload's fields that differ from their defaults (so
    a default given explicitly, or a field added later with a default, changes
    nothing), without ``idempotency_key`` itself; times are in UTC.

    Args:
        write: Which kind of write (``episode``, ``belief``, ``supersede``): one key
            never stands for two kinds.
        payload: The validated input model.
        **context: The write's other arguments (a supersession's ``old_id``, ``reason``).
    """
    fields = payload.model_dump(exclude={"idempotency_key"}, exclude_defaults=True)
    canonical = json.dumps(
        _canonical([write, context, fields]),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Earlier:
    """The node already written under an idempotency key."""

    id: str
    digest: str | None
    """Its write's payload digest; None for nodes written before digests were kept."""


def existing_keys(
    tx: ManagedTransaction, label: str, principal: str, keys: Sequence[str | None]
) -> dict[str, Earlier]:
    """The nodes already written under these idempotency keys (``label``: episode or belief)."""
    wanted = sorted({key for key in keys if key is not None})
    if not wanted:
        return {}
    records = run(tx, f"{label}/existing_keys", principal=principal, keys=wanted)
    return {record["key"]: Earlier(record["id"], record["digest"]) for record in records}


def idempotency_conflict(
    key: str, *, row: int | None, existing_id: str | None = None, first_row: int | None = None
) -> IdempotencyConflict:
    """The error for ``key`` reused with another payload (by a node, or an earlier row)."""
    where = f"row {row}: " if row is not None else ""
    used_by = f"row {first_row} of this batch" if existing_id is None else existing_id
    return IdempotencyConflict(
        f"{where}idempotency_key: {key!r} already names another write ({used_by}) with a "
        "different payload; a retry must send the same payload, a new write needs a new key",
        field="idempotency_key",
        rule="same_payload",
        row=row,
        key=key,
        existing_id=existing_id,
        first_row=first_row,
    )


def same_payload(earlier: Earlier, digest: str | None) -> bool:
    """Whether a write with ``digest`` is a retry of ``earlier``'s.

    A node written before digests were kept has none to compare: it is taken as the
    same write, as before (its payload cannot be rebuilt from what was stored).
    """
    return earlier.digest is None or earlier.digest == digest


def check_episodes_exist(
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


def positions(per_row: Sequence[Sequence[str]]) -> tuple[list[str], list[list[int]]]:
    """A batch's values once each (sorted), and each row's as positions in them.

    A row's repeated value is kept once. The create queries merge each value's node
    once (a project), then link each row to it by position.
    """
    values = sorted({value for row in per_row for value in row})
    position = {value: index for index, value in enumerate(values)}
    return values, [[position[value] for value in dict.fromkeys(row)] for row in per_row]


def assign_ids(
    keys: Sequence[str | None],
    digests: Sequence[str | None],
    existing: Mapping[str, Earlier],
    *,
    row_numbers: bool,
) -> list[tuple[str, bool]]:
    """Returns (id, is_new) per row; rows sharing a key share the first row's id.

    Args:
        keys: Each row's idempotency key, if any.
        digests: Each row's :func:`payload_digest` (None where it has no key).
        existing: The nodes already written under the keys (:func:`existing_keys`).
        row_numbers: Whether errors name the row (batches).

    Raises:
        IdempotencyConflict: A key's node, or an earlier row with that key, has
            another payload.
    """
    seen = dict(existing)
    first_rows: dict[str, int] = {}  # keys first used in this batch: by which row
    assigned: list[tuple[str, bool]] = []
    for index, (key, digest) in enumerate(zip(keys, digests, strict=True)):
        if key is not None and key in seen:
            earlier = seen[key]
            if not same_payload(earlier, digest):
                first_row = first_rows.get(key)
                raise idempotency_conflict(
                    key,
                    row=index if row_numbers else None,
                    existing_id=earlier.id if first_row is None else None,
                    first_row=first_row,
                )
            assigned.append((earlier.id, False))
            continue
        node_id = new_id()
        if key is not None:
            seen[key] = Earlier(node_id, digest)
            first_rows[key] = index
        assigned.append((node_id, True))
    return assigned
