"""Recall traces (design §5.7): written off the answer's path in batches, read back.

A recall hands its ``:RecallTrace`` to a background writer and returns at once. The
writer waits up to ``BATCH_SECONDS`` for more traces and writes them all in one
``UNWIND`` transaction: one commit per batch instead of one per recall, which matters
on a 2-core machine where Neo4j, the embedder and the caller share the CPU.
:meth:`TraceWriter.flush` (and so ``GraphMem.get_trace`` and ``close``) waits until
every trace handed over so far is written.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import asdict, dataclass, fields
from datetime import datetime

from graphmem.errors import ClientClosed
from graphmem.store.database import Database, Value, plain, run

BATCH_SECONDS = 0.25
"""How long the writer gathers traces before it commits them."""
BATCH_MAX = 200
"""The most traces one transaction writes."""


OPERATOR_PREFIX = "operator_"
"""Fields a user view leaves out: how the answer was ranked, not what it was."""


@dataclass(frozen=True)
class TraceRecord:
    """One ``:RecallTrace``: what was asked, what was rendered, and operator details."""

    id: str
    surface: str
    query: str
    project: str | None
    as_of: datetime | None
    k: int
    arms: list[str]
    decay: str
    item_ids: list[str]
    bands: list[str]
    dropped: int
    blocked: int
    rendered_sha256: str
    at: datetime
    operator_arm_ranks: str
    """JSON: item id → {arm: rank}."""
    operator_latency_ms: str
    """JSON: stage → milliseconds."""
    operator_policy_version: str


_TRACE_FIELDS = frozenset(field.name for field in fields(TraceRecord))


def get_trace(db: Database, principal: str, trace_id: str) -> dict[str, Value] | None:
    """One trace of the principal as stored (every field), or None."""
    records = db.read("trace/get", principal=principal, id=trace_id)
    if not records:
        return None
    stored = plain(records[0]["trace"])
    return {key: value for key, value in stored.items() if key in _TRACE_FIELDS}


class TraceWriter:
    """One principal's background trace writer."""

    def __init__(self, db: Database, principal: str) -> None:
        self._db = db
        self._principal = principal
        self._queue: queue.Queue[TraceRecord | threading.Event] = queue.Queue()
        self._failure: BaseException | None = None
        self._failure_lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="graphmem-trace", daemon=True)
        self._thread.start()

    def submit(self, trace: TraceRecord) -> None:
        """Queues one trace for writing.

        Raises:
            ClientClosed: The writer was closed (the client is closed).
        """
        if not self._thread.is_alive():
            raise ClientClosed("this client is closed; open a new GraphMem to recall")
        self._queue.put(trace)

    def flush(self) -> None:
        """Waits until every trace submitted so far is written.

        Raises:
            GraphMemError: A batch could not be written (raised once, then cleared).
        """
        if self._thread.is_alive():
            done = threading.Event()
            self._queue.put(done)
            done.wait()
        with self._failure_lock:
            failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def close(self) -> None:
        """Writes what is queued and stops the writer (closing twice is harmless)."""
        try:
            self.flush()
        finally:
            if self._thread.is_alive():
                self._queue.put(_STOP)
                self._thread.join()

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            batch: list[TraceRecord] = []
            waiters: list[threading.Event] = []
            stop = _gather(first, batch, waiters)
            deadline = time.monotonic() + BATCH_SECONDS
            while not (stop or waiters) and len(batch) < BATCH_MAX:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    item = self._queue.get(timeout=remaining)
                except queue.Empty:
                    break
                stop = _gather(item, batch, waiters)
            if batch:
                self._write(batch)
            for waiter in waiters:
                waiter.set()
            if stop:
                return

    def _write(self, batch: list[TraceRecord]) -> None:
        rows = [asdict(trace) for trace in batch]
        try:
            self._db.write(
                lambda tx: run(tx, "trace/write", principal=self._principal, traces=rows)
            )
        except BaseException as error:  # surfaced by the next flush()
            with self._failure_lock:
                if self._failure is None:
                    self._failure = error


_STOP = threading.Event()
"""Queued by close(): the writer ends after what came before it."""


def _gather(
    item: TraceRecord | threading.Event,
    batch: list[TraceRecord],
    waiters: list[threading.Event],
) -> bool:
    """Sorts one queued item into the batch or the waiters; True when it says stop."""
    if item is _STOP:
        return True
    if isinstance(item, threading.Event):
        waiters.append(item)
    else:
        batch.append(item)
    return False
