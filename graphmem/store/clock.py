"""The clock every memory write draws its seqs from, and reserved blocks of seqs.

A write takes its seqs from the one ``:Clock`` last (:func:`stamp`), inside its own
transaction, so the clock stays locked from the stamp to the commit: seqs become
visible in the order they were drawn, and a reader of the log after a seq misses
nothing. A bulk write would hold the clock through a long commit, and every other
write would wait for it. So a write of :data:`RESERVE_FROM` rows or more first
reserves its block in a short transaction of its own (:func:`write_reserved`): a
``:Reservation`` node holds the block, and the write's stamp claims it (deleting it)
instead of taking the clock. Writes after it draw seqs above the block and commit
without waiting.

Readers of the log (``memory/view_events``, ``memory/events``) read up to the
principal's horizon: the clock's seq, or below the lowest block still reserved. They
read the clock before the reservations. A reservation commits together with the
clock's move past its block, so every block at or below the clock value read is then
still reserved (the reader stops below it), claimed (its events have committed), or
expired (they never will). Read the other way round, a reader could see a block's seqs
on the clock but not its reservation, read past it, and never see its events. A
reservation whose writer died expires, by the database's clock: readers then ignore
it, a claim after it fails (the write is made again with a new block), and its seqs
stay unused. Seqs were never contiguous per principal (the clock is shared), so an
unused block is no loss: every written node still has its one created event.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeVar

from neo4j import ManagedTransaction

from graphmem.errors import ConcurrentWrite, MigrationError
from graphmem.store.database import Database, run
from graphmem.store.ids import new_id
from graphmem.store.writes import write_idempotent

T = TypeVar("T")

RESERVE_FROM = 100
"""Writes of this many rows or more reserve their seqs before their transaction. A
smaller write's commit is short, and a reservation costs two more transactions."""
LEASE_SECONDS = 120.0
"""How long a reservation stays open, plus :data:`LEASE_SECONDS_PER_SEQ` per seq."""
LEASE_SECONDS_PER_SEQ = 0.01
CLAIM_MARGIN_SECONDS = 10.0
"""A claim fails when its reservation has less than this left: the commit that
follows the claim must land before readers stop waiting for the block."""
_ATTEMPTS = 2


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


@dataclass(frozen=True)
class Reservation:
    """A block of seqs reserved for one write of one principal."""

    id: str
    principal: str
    count: int


class _ReservationExpired(ConcurrentWrite):
    """The write's reservation expired (or was released) before its stamp claimed it."""


def lease_seconds(count: int) -> float:
    """How long a reservation of ``count`` seqs stays open."""
    return LEASE_SECONDS + LEASE_SECONDS_PER_SEQ * count


def reserve(db: Database, principal: str, count: int, seconds: float | None = None) -> Reservation:
    """Reserves ``count`` seqs for ``principal`` in a transaction of its own.

    ``seconds``: how long the block is held (:func:`lease_seconds` of ``count`` when
    None); a writer in slices renews it as it goes.
    """
    reservation = Reservation(new_id(), principal, count)
    db.write(
        lambda tx: run(
            tx,
            "clock/reserve",
            id=reservation.id,
            principal=principal,
            count=count,
            seconds=lease_seconds(count) if seconds is None else seconds,
        )
    )
    return reservation


def release(db: Database, reservation: Reservation) -> None:
    """Gives back a reservation its write did not claim (no-op when it did)."""
    db.write(
        lambda tx: run(tx, "clock/release", id=reservation.id, principal=reservation.principal)
    )


def write_reserved(
    db: Database,
    principal: str,
    count: int,
    write: Callable[[Reservation], T],
) -> T:
    """Runs ``write`` with ``count`` seqs reserved for it; the block is given back after.

    ``write`` runs its transaction and passes the reservation to :func:`stamp`. When
    the reservation expired before the stamp (the transaction took longer than its
    lease), the write is made once more with a new block.

    Raises:
        ConcurrentWrite: The reservation expired on both attempts.
    """
    attempt = 0
    while True:
        attempt += 1
        reservation = reserve(db, principal, count)
        try:
            return write(reservation)
        except _ReservationExpired:
            if attempt == _ATTEMPTS:
                raise
        finally:
            release(db, reservation)


def write_seqs(
    db: Database,
    principal: str,
    rows: int,
    work: Callable[[ManagedTransaction, Reservation | None], T],
    *,
    keyed: bool,
) -> T:
    """Runs a write of up to ``rows`` new nodes that :func:`stamp` gives seqs.

    Under :data:`RESERVE_FROM` rows the stamp takes the clock; from there on the seqs
    are reserved first (:func:`write_reserved`) and ``work`` gets the reservation.
    ``keyed``: see :func:`~graphmem.store.writes.write_idempotent`.
    """
    if rows < RESERVE_FROM:
        return write_idempotent(db, lambda tx: work(tx, None), keyed)
    return write_reserved(
        db,
        principal,
        rows,
        lambda reservation: write_idempotent(db, lambda tx: work(tx, reservation), keyed),
    )


def stamp(
    tx: ManagedTransaction,
    label: Literal["belief", "episode"],
    principal: str,
    ids: Sequence[str],
    now: datetime,
    reservation: Reservation | None = None,
) -> None:
    """Gives the nodes just created in ``tx`` their seqs and created events, in order.

    Without a reservation it takes the clock: call it after the create statement, so
    the clock is held from here to the commit only. With one, it claims the reserved
    block and leaves the clock alone.

    Args:
        tx: The write transaction that created the nodes.
        label: Which nodes.
        principal: Whose nodes.
        ids: The new nodes' ids, in the order their seqs are drawn.
        now: The events' time.
        reservation: The write's reserved block (at least ``len(ids)`` seqs), if any.

    Raises:
        MigrationError: There is no clock (the schema is missing).
    """
    started = time.perf_counter()
    base = None if reservation is None else claim(tx, reservation, len(ids))
    stamped = run(tx, f"{label}/stamp", principal=principal, ids=list(ids), now=now, base=base)
    CLOCK_WAITS.record(time.perf_counter() - started)
    if int(stamped[0]["created"]) != len(ids):  # the stamp matched no clock
        raise MigrationError(
            "the memory schema is missing (no :Clock node): run `graphmem init`, or open a "
            "GraphMem with migrate=True"
        )


def claim(tx: ManagedTransaction, reservation: Reservation, needed: int) -> int:
    """Deletes the reservation in ``tx`` and returns the seq before its block.

    Raises:
        ConcurrentWrite: It expired, or has too little lease left to commit in.
    """
    if needed > reservation.count:
        raise ValueError(f"{needed} seqs needed, {reservation.count} reserved")
    claimed = run(
        tx,
        "clock/claim",
        id=reservation.id,
        principal=reservation.principal,
        margin=CLAIM_MARGIN_SECONDS,
    )
    if not claimed:
        raise _ReservationExpired(
            "the write's reserved seqs expired before it committed; make the call again"
        )
    return int(claimed[0]["base"])
