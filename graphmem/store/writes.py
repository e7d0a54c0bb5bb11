"""What every memory write shares: idempotency keys, new ids, existence checks.

Every write runs in one managed transaction, draws its ``seq`` values from the clock
inside that transaction, appends one ``:MemoryEvent`` per change, and is a no-op when
its ``idempotency_key`` was written before. Creates take the clock last (:func:`stamp`),
so a writer holds it only for the stamp and the commit; :data:`CLOCK_WAITS` keeps how
long the latest stamps took, waiting included.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Literal, TypeVar

from neo4j import ManagedTransaction

from graphmem.errors import DatabaseError, MigrationError, NotFound
from graphmem.store.database import Database, run
from graphmem.store.ids import new_id

T = TypeVar("T")

_IDEMPOTENCY_RACE_RETRIES = 3
_CONSTRAINT_FAILED = "Neo.ClientError.Schema.ConstraintValidationFailed"


def write_idempotent(db: Database, work: Callable[[ManagedTransaction], T], keyed: bool) -> T:
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


class ClockTimes:
    """How long this process's recent stamps took: the wait for the clock and the stamp.

    Args:
        keep: How many of the latest durations to keep.
    """

    def __init__(self, keep: int = 10_000) -> None:
        self._seconds: deque[float] = deque(maxlen=keep)
        self._lock = threading.Lock()

    def record(self, seconds: float) -> None:
        """Keeps one stamp's duration."""
        with self._lock:
            self._seconds.append(seconds)

    def drain(self) -> list[float]:
        """The durations kept so far, in seconds, oldest first; forgets them."""
        with self._lock:
            kept = list(self._seconds)
            self._seconds.clear()
            return kept


CLOCK_WAITS = ClockTimes()
"""This process's stamp durations (``graphmem bench agents`` reports them)."""


def stamp(
    tx: ManagedTransaction,
    label: Literal["belief", "episode"],
    principal: str,
    ids: Sequence[str],
    now: datetime,
) -> None:
    """Gives the nodes just created in ``tx`` their seqs and created events, in order.

    Runs ``{label}/stamp``, which takes the clock: call it after the create statement,
    so the clock is held from here to the commit only.

    Args:
        tx: The write transaction that created the nodes.
        label: Which nodes.
        principal: Whose nodes.
        ids: The new nodes' ids, in the order their seqs are drawn.
        now: The events' time.

    Raises:
        MigrationError: There is no clock (the schema is missing).
    """
    started = time.perf_counter()
    stamped = run(tx, f"{label}/stamp", principal=principal, ids=list(ids), now=now)
    CLOCK_WAITS.record(time.perf_counter() - started)
    if int(stamped[0]["created"]) != len(ids):  # the stamp matched no clock
        raise MigrationError(
            "the memory schema is missing (no :Clock node): run `graphmem init`, or open a "
            "GraphMem with migrate=True"
        )


def existing_keys(
    tx: ManagedTransaction, label: str, principal: str, keys: Sequence[str | None]
) -> dict[str, str]:
    """The ids already written under these idempotency keys (``label``: episode or belief)."""
    wanted = sorted({key for key in keys if key is not None})
    if not wanted:
        return {}
    records = run(tx, f"{label}/existing_keys", principal=principal, keys=wanted)
    return {record["key"]: record["id"] for record in records}


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


def assign_ids(keys: Sequence[str | None], existing: Mapping[str, str]) -> list[tuple[str, bool]]:
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
