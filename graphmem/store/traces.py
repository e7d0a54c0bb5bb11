"""Recall traces (docs/recall.md): written off the answer's path in batches, read back.

A recall hands its ``:RecallTrace`` to a background writer and returns at once. The
writer waits up to ``BATCH_SECONDS`` for more traces and writes them all in one
``UNWIND`` transaction: one commit per batch instead of one per recall, which matters
on a 2-core machine where Neo4j, the embedder and the caller share the CPU.
:meth:`TraceWriter.flush` (and so ``GraphMem.get_trace`` and ``close``) waits until
every trace handed over so far is written.

The same transaction counts the batch's misses (docs/recall.md): a trace whose recall
returned nothing carries ``miss_subject``, and enough misses on one subject within
the window queue one ``:FormationHint`` (``hint/queue``). Citations (:func:`cite`) and
the retention sweep (:func:`sweep_operator_fields`) write traces afterwards.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import ClientClosed, InvalidInput, NotFound
from graphmem.models import CitationResult
from graphmem.settings import FeedbackSettings
from graphmem.store.database import Database, Value, drain, plain, run
from graphmem.store.ids import new_id

BATCH_SECONDS = 1.0
"""How long the writer gathers traces before it commits them. A commit costs Neo4j
about 7 ms of CPU however few traces it holds (measured here: 1.7 ms of server CPU a
trace in batches of 7, 0.8 ms in batches of 50); a trace is in the graph at most this
long after its recall, or at once on flush()."""
BATCH_MAX = 200
"""The most traces one transaction writes."""


OPERATOR_PREFIX = "operator_"
"""Fields a user view leaves out: how the answer was ranked, not what it was."""
OPERATOR_EXPIRED = "operator_expired_at"
"""Set when the retention sweep removed a trace's operator fields: when it did."""
SWEEP_BATCH = 10_000
"""Traces one sweep transaction strips."""


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
    withheld: int
    """The arms' hits above the sensitivity ceiling (never shown)."""
    flagged: int
    """Items the injection scan showed as ``[BLOCKED: reason]``."""
    rendered_sha256: str
    at: datetime
    operator_arm_ranks: str
    """JSON: item id → {arm: rank}."""
    operator_latency_ms: str
    """JSON: stage → milliseconds."""
    operator_policy_version: str
    operator_view_lag: int
    """Events the views caught up on before answering: how far behind they were."""
    miss_subject: str | None = None
    """Set when the recall counts as a miss (see ``GraphMem.hints``): the query's
    subject in normal form."""
    session_id: str | None = None
    """The agent-host session a hook injected this recall into (None: not injected)."""
    hook_event: str | None = None
    """What the injection answered: ``session_start``, ``prompt`` or ``pre_tool``."""
    injected_tokens: int | None = None
    """How many tokens it injected, by the embedder's tokenizer (``vectors/tokens.py``)."""


OPERATOR_FIELDS = tuple(f.name for f in fields(TraceRecord) if f.name.startswith(OPERATOR_PREFIX))
"""What the retention sweep removes (``trace/sweep`` names each one)."""
CITATION_FIELDS = ("cited_ids", "cited_at")
"""User fields a citation adds to a trace."""
_TRACE_FIELDS = frozenset(
    [*(field.name for field in fields(TraceRecord)), *CITATION_FIELDS, OPERATOR_EXPIRED]
)


def get_trace(db: Database, principal: str, trace_id: str) -> dict[str, Value] | None:
    """One trace of the principal as stored (every field), or None."""
    records = db.read("trace/get", principal=principal, id=trace_id)
    if not records:
        return None
    stored = plain(records[0]["trace"])
    return {key: value for key, value in stored.items() if key in _TRACE_FIELDS}


def injected(
    db: Database, principal: str, session_ids: Sequence[str]
) -> dict[str, tuple[int, int]]:
    """Per session, (injections, tokens injected) by hooks; sessions without any are absent."""
    if not session_ids:
        return {}
    records = db.read("trace/injected", principal=principal, sessions=list(session_ids))
    return {str(r["session_id"]): (int(r["injections"]), int(r["tokens"])) for r in records}


def by_short_id(db: Database, principal: str, short: str) -> str:
    """The id of the principal's one hook injection trace whose id ends with ``short``.

    Raises:
        NotFound: No injection trace of this principal ends with it.
        InvalidInput: More than one does (cite with the whole id).
    """
    found = [str(r["id"]) for r in db.read("trace/by_short_id", principal=principal, short=short)]
    if not found:
        raise NotFound(
            f"trace_id: no injected recall of this principal ends with {short}",
            field="trace_id",
            rule="exists",
        )
    if len(found) > 1:
        raise InvalidInput(
            f"trace_id: more than one injected recall ends with {short}; give the whole id",
            field="trace_id",
            rule="unique",
        )
    return found[0]


def _whole_ids(given: Sequence[str], returned: Sequence[str]) -> list[str]:
    """``given`` with each short id (last 8 characters) replaced by the returned id it ends.

    A short id that ends none, or more than one, is kept as given (then refused as not
    returned by the trace).
    """
    whole: list[str] = []
    for item in given:
        matches = [r for r in returned if len(item) == 8 and r.endswith(item)]
        whole.append(matches[0] if len(matches) == 1 else item)
    return list(dict.fromkeys(whole))


def cite(
    db: Database, principal: str, trace_id: str, item_ids: Sequence[str], now: datetime
) -> CitationResult:
    """Records that the items ``item_ids`` of a trace were used (one transaction).

    The trace is locked, the ids are checked against what it returned, the new ones
    are added to its ``cited_ids``, and the beliefs from the top of the trace down to
    the lowest newly cited one get ``cited_seq`` = the principal's newest generation
    (never lowered). Citing what was cited before writes nothing.

    Raises:
        NotFound: No such trace for this principal.
        InvalidInput: An id was not returned by that trace (``details.ids`` lists them).
    """
    given = list(item_ids)

    def work(tx: ManagedTransaction) -> CitationResult:
        records = run(tx, "trace/lock", principal=principal, id=trace_id)
        if not records:
            raise NotFound(
                f"trace {trace_id} does not exist for this principal",
                field="trace_id",
                rule="exists",
            )
        stored = plain(records[0]["trace"])
        returned = [str(i) for i in _as_list(stored.get("item_ids"))]
        shown = set(returned)
        item_ids = _whole_ids(given, returned)
        wanted = set(item_ids)
        foreign = [i for i in item_ids if i not in shown]
        if foreign:
            raise InvalidInput(
                f"item_ids: {', '.join(foreign)} {'was' if len(foreign) == 1 else 'were'} "
                f"not returned by trace {trace_id}; cite only the ids that recall showed",
                field="item_ids",
                rule="returned",
                ids=foreign,
            )
        before = {str(i) for i in _as_list(stored.get("cited_ids"))}
        added = [i for i in returned if i in wanted and i not in before]
        cited = [i for i in returned if i in wanted or i in before]
        if not added:
            return CitationResult(trace_id=trace_id, cited=cited, added=[], refreshed=[])
        lowest = max(returned.index(i) for i in added)
        refresh = returned[: lowest + 1] if stored.get("surface") != "episode" else []
        newest = run(tx, "recall/newest_seq", principal=principal, as_of=None)
        seq = int(newest[0]["seq"]) if newest else 0
        written = run(
            tx,
            "trace/cite",
            principal=principal,
            id=trace_id,
            cited=cited,
            refresh=refresh,
            seq=seq,
            now=now,
        )
        refreshed = set(written[0]["refreshed"]) if written else set()
        return CitationResult(
            trace_id=trace_id,
            cited=cited,
            added=added,
            refreshed=[i for i in refresh if i in refreshed],
            cited_seq=seq if refreshed else None,
        )

    return db.write(work)


def _as_list(value: Value | None) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def sweep_operator_fields(db: Database, principal: str, cutoff: datetime, now: datetime) -> int:
    """Removes the operator fields of the principal's traces recorded before ``cutoff``.

    User fields stay; ``operator_expired_at`` records when. Runs in transactions of
    ``SWEEP_BATCH`` traces; returns how many traces it stripped.
    """
    return drain(
        db, "trace/sweep", "swept", SWEEP_BATCH, principal=principal, cutoff=cutoff, now=now
    )


def miss_rows(batch: Sequence[TraceRecord]) -> list[dict[str, Any]]:
    """One row per missed subject of a batch: its count and the query last asked."""
    rows: dict[str, dict[str, Any]] = {}
    for trace in batch:
        if trace.miss_subject is None:
            continue
        row = rows.setdefault(
            trace.miss_subject, {"subject": trace.miss_subject, "count": 0, "id": new_id()}
        )
        row["count"] += 1
        row["query"] = trace.query
    return list(rows.values())


class TraceWriter:
    """One principal's background trace writer.

    Args:
        db: The database.
        principal: Whose traces.
        feedback: When misses queue a formation hint (the client's settings).
    """

    def __init__(self, db: Database, principal: str, feedback: FeedbackSettings) -> None:
        self._db = db
        self._principal = principal
        self._feedback = feedback
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
        misses = miss_rows(batch)
        now = datetime.now(UTC)
        settings = self._feedback

        def work(tx: ManagedTransaction) -> None:
            run(tx, "trace/write", principal=self._principal, traces=rows)
            if misses:
                run(
                    tx,
                    "hint/queue",
                    principal=self._principal,
                    subjects=misses,
                    now=now,
                    since=now - settings.hint_window,
                    expires_at=now + settings.hint_ttl,
                    threshold=settings.hint_misses,
                )

        try:
            self._db.write(work)
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
