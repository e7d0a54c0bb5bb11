"""Reading a principal's whole memory out, and writing an exported one back in.

Export reads every durable node and link of one principal (``queries/transfer``).
Import writes in slices of :data:`SLICE_ROWS` rows, each its own transaction, so a
large file never holds one long transaction, nor Neo4j heap in proportion, and other
writers get their turn between slices. It first reserves the file's block of seqs
(:mod:`graphmem.store.clock`): readers of the principal's log stop below the block
until the last slice claims it, so recall sees the whole import at once, never a part
of it. An ``:ImportRun`` node, keyed by the file and the principal, records the slices
committed. A failure undoes what the import wrote; when the process died instead, the
same import run again finishes it (its block still held) or undoes the part and
starts afresh (the block expired, so readers may have passed it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from neo4j import ManagedTransaction

from graphmem.entities.mentions import MentionRow, belief_mentions, episode_mentions
from graphmem.errors import ConcurrentWrite, StateConflict
from graphmem.store.clock import (
    CLAIM_MARGIN_SECONDS,
    Reservation,
    claim,
    lease_seconds,
    release,
    reserve,
)
from graphmem.store.database import Database, Record, Value, drain, plain, run

BATCH_ROWS = 1_000
"""Rows per import statement."""
SLICE_ROWS = 5_000
"""Rows per import transaction (whole statements of :data:`BATCH_ROWS`)."""
HELD_SECONDS = lease_seconds(SLICE_ROWS)
"""How long an import's block stays held after each slice: when its process dies,
the principal's readers wait this long at most before they pass the block."""

Props = dict[str, Value]
"""A node's or link's stored properties as plain Python values."""
LinkKind = Literal["derived_from", "supersedes", "conflicts_with"]
AboutKind = Literal["belief", "episode"]

LINK_KINDS: tuple[LinkKind, ...] = ("derived_from", "supersedes", "conflicts_with")
_OWN_FIELDS = ("id", "seq", "principal", "principal_key")
"""Properties held as a row's own fields (or re-derived on import), not in ``props``.

``principal_key`` (the full-text indexes' principal token) is on nodes written before
migration 015 only: it is never exported, and never written again."""


@dataclass(frozen=True)
class ProjectRow:
    """A project: its name and properties."""

    name: str
    props: Props


@dataclass(frozen=True)
class NodeRow:
    """An episode, belief, rejection or tombstone: id, seq (if it has one), properties.

    ``link`` is the one node it points at: an episode's parent (PART_OF), a
    rejection's belief (REJECTS).
    """

    id: str
    seq: int | None
    props: Props
    link: str | None = None


@dataclass(frozen=True)
class LinkRow:
    """A link from ``source`` to ``target`` with its properties."""

    kind: LinkKind
    source: str
    target: str
    props: Props


@dataclass(frozen=True)
class EventRow:
    """A change-log event: its seq, properties and the node it is about, if any."""

    seq: int
    props: Props
    about: str | None
    about_kind: AboutKind | None


@dataclass
class MemoryRows:
    """A principal's durable memory as rows (what an export holds, an import writes)."""

    principal_props: Props = field(default_factory=dict)
    projects: list[ProjectRow] = field(default_factory=list)
    episodes: list[NodeRow] = field(default_factory=list)
    beliefs: list[NodeRow] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)
    rejections: list[NodeRow] = field(default_factory=list)
    tombstones: list[NodeRow] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)


def _props(record: Record) -> Props:
    props = plain(record["props"])
    for name in _OWN_FIELDS:
        props.pop(name, None)
    return props


def _node(record: Record, link: str | None = None) -> NodeRow:
    seq = record.get("seq")
    return NodeRow(
        id=str(record["id"]),
        seq=int(seq) if seq is not None else None,
        props=_props(record),
        link=link,
    )


def read_memory(
    db: Database, principal: str, project: str | None, include_secret: bool = False
) -> tuple[MemoryRows, int]:
    """Every durable node and link of ``principal`` (of ``project`` when given).

    With a project, links and events are kept only when every node they name is
    exported too; tombstones (digests only) are all kept, as they hold for every
    project. Without ``include_secret`` the secret episodes and beliefs are left out,
    with their links, events and the formation rejections that came of them.

    Returns:
        The rows, and how many secret nodes were left out.
    """
    args = {"principal": principal, "project": project}
    owner = db.read("transfer/principal", principal=principal)
    rows = MemoryRows(principal_props=_props(owner[0]) if owner else {})
    rows.projects = [
        ProjectRow(str(r["name"]), {k: v for k, v in _props(r).items() if k != "name"})
        for r in db.read("transfer/projects", **args)
    ]
    episodes = [_node(r, r["parent"]) for r in db.read("transfer/episodes", **args)]
    beliefs = [_node(r) for r in db.read("transfer/beliefs", **args)]
    secret = (
        set()
        if include_secret
        else {row.id for row in episodes + beliefs if row.props.get("sensitivity") == "secret"}
    )
    rows.episodes = [row for row in episodes if row.id not in secret]
    rows.beliefs = [row for row in beliefs if row.id not in secret]
    exported = {row.id for row in rows.episodes} | {row.id for row in rows.beliefs}
    rows.links = [
        LinkRow(r["kind"], str(r["source"]), str(r["target"]), _props(r))
        for r in db.read("transfer/links", principal=principal)
        if r["source"] in exported and r["target"] in exported
    ]
    rows.rejections = [
        _node(r, r["belief"])
        for r in db.read("transfer/rejections", principal=principal)
        if project is None or r["belief"] in exported or r["props"].get("project") == project
        if r["belief"] not in secret and r["props"].get("episode_id") not in secret
    ]
    rows.tombstones = [_node(r) for r in db.read("transfer/tombstones", principal=principal)]
    for record in db.read("transfer/events", principal=principal):
        props = _props(record)
        about = record["about"]
        if about in secret or props.get("episode_id") in secret:
            continue
        if project is not None and about not in exported:
            # Not about an exported node: kept only when it is about nothing and
            # names the project or an exported episode.
            names_it = props.get("project") == project or props.get("episode_id") in exported
            if about is not None or not names_it:
                continue
        rows.events.append(EventRow(int(record["seq"]), props, about, record["about_kind"]))
    return rows, len(secret)


@dataclass(frozen=True)
class Ownership:
    """What the store already holds of an import's ids and projects."""

    ids: Mapping[str, bool]
    """Each taken id: True when the importing principal owns it."""
    projects: frozenset[str]
    """The names of the importing principal's projects among those asked about."""
    resuming: bool = False
    """An import of this file stopped part way and is being finished: the ids it
    wrote are expected."""


ImportPlan = Callable[[Ownership], Callable[[int], MemoryRows] | None]
"""Given what the store holds, the rows to write once seqs are reserved (from the
seq before the reserved block), or None to write nothing."""

Progress = Callable[[int, int], None]


Param = Value | Props | list[MentionRow]
"""A parameter of an import statement's row."""


def _node_params(row: NodeRow) -> dict[str, Param]:
    return {"id": row.id, "seq": row.seq, "props": row.props, "belief": row.link}


def _statements(rows: MemoryRows) -> list[tuple[str, list[dict[str, Param]]]]:
    """The import's statements in dependency order, each with all its rows."""
    links: dict[LinkKind, list[dict[str, Param]]] = {kind: [] for kind in LINK_KINDS}
    for link in rows.links:
        links[link.kind].append({"source": link.source, "target": link.target, "props": link.props})
    return [
        ("transfer/create_projects", [{"name": p.name, "props": p.props} for p in rows.projects]),
        (
            "transfer/create_episodes",
            [{**_node_params(row), "names": episode_mentions(row.props)} for row in rows.episodes],
        ),
        (
            "transfer/link_parents",
            [{"source": e.id, "target": e.link} for e in rows.episodes if e.link is not None],
        ),
        (
            "transfer/create_beliefs",
            [{**_node_params(row), "names": belief_mentions(row.props)} for row in rows.beliefs],
        ),
        ("transfer/link_derived_from", links["derived_from"]),
        ("transfer/link_supersedes", links["supersedes"]),
        ("transfer/link_conflicts", links["conflicts_with"]),
        ("transfer/create_rejections", [_node_params(row) for row in rows.rejections]),
        ("transfer/create_tombstones", [_node_params(row) for row in rows.tombstones]),
        (
            "transfer/create_events",
            [
                {"seq": e.seq, "props": e.props, "about": e.about, "about_kind": e.about_kind}
                for e in rows.events
            ],
        ),
    ]


Piece = tuple[str, list[dict[str, Param]]]
"""One import statement with up to :data:`BATCH_ROWS` rows."""


def _pieces(rows: MemoryRows) -> list[Piece]:
    """The import's statements in order, each cut into pieces of ``BATCH_ROWS`` rows."""
    return [
        (query, batch[start : start + BATCH_ROWS])
        for query, batch in _statements(rows)
        for start in range(0, len(batch), BATCH_ROWS)
    ]


def _slices(pieces: Sequence[Piece]) -> list[range]:
    """Which pieces each transaction writes: whole pieces, up to ``SLICE_ROWS`` rows."""
    slices: list[range] = []
    start = rows = 0
    for index, (_, batch) in enumerate(pieces):
        if index > start and rows + len(batch) > SLICE_ROWS:
            slices.append(range(start, index))
            start, rows = index, 0
        rows += len(batch)
    if start < len(pieces):
        slices.append(range(start, len(pieces)))
    return slices


@dataclass(frozen=True)
class _Run:
    """An import in progress, as its ``:ImportRun`` records it."""

    key: str
    reservation: Reservation
    base: int
    pieces: int
    """Pieces committed so far."""
    held: bool
    """Its block is still held (False: it expired, the part written must go)."""


def _read_run(db: Database, principal: str, key: str) -> _Run | None:
    found = db.read("transfer/run_read", principal=principal, key=key, margin=CLAIM_MARGIN_SECONDS)
    if not found:
        return None
    record = found[0]
    reservation = Reservation(str(record["reservation"]), principal, int(record["count"]))
    return _Run(key, reservation, int(record["base"]), int(record["pieces"]), bool(record["held"]))


def _start_run(
    db: Database,
    principal: str,
    key: str,
    seqs: int,
    principal_props: Props,
    projects: Sequence[str],
) -> _Run:
    """Reserves the import's block and records its run (before its first slice).

    ``projects``: the projects the import creates (an undo removes them again).

    Raises:
        StateConflict: Another process started the same import meanwhile.
    """
    reservation = reserve(db, principal, seqs, HELD_SECONDS)

    def work(tx: ManagedTransaction) -> Record:
        run(tx, "transfer/merge_principal", principal=principal, props=principal_props)
        return run(
            tx,
            "transfer/run_start",
            principal=principal,
            key=key,
            reservation=reservation.id,
            projects=list(projects),
        )[0]

    try:
        started = db.write(work)
    except BaseException:
        release(db, reservation)
        raise
    if not started["mine"]:
        release(db, reservation)
        raise _running_elsewhere(principal)
    return _Run(key, reservation, int(started["base"]), 0, True)


def _running_elsewhere(principal: str) -> StateConflict:
    return StateConflict(
        f"this file is being imported into {principal} by another process: wait for it "
        "to finish, then run the import again (it will find the memory written)",
        field="source",
        rule="import_running",
    )


def undo_run(db: Database, principal: str, key: str, ids: Sequence[str]) -> bool:
    """Removes what an unfinished import of this file wrote, and its run.

    Args:
        db: The database.
        principal: Whose import.
        key: The import's key (the file's and the principal's).
        ids: Every id the import may have written.

    Returns:
        Whether there was an unfinished import to undo.
    """
    found = _read_run(db, principal, key)
    if found is None:
        return False
    drain(
        db,
        "transfer/undo_events",
        "undone",
        BATCH_ROWS,
        base=found.base,
        count=found.reservation.count,
        principal=principal,
    )
    for start in range(0, len(ids), BATCH_ROWS):
        batch = list(ids[start : start + BATCH_ROWS])
        db.write_statement("transfer/undo_nodes", principal=principal, ids=batch)
    for query in ("transfer/undo_projects", "transfer/run_drop"):
        db.write_statement(query, principal=principal, key=key)
    release(db, found.reservation)
    return True


def _write_slice(
    tx: ManagedTransaction,
    principal: str,
    found: _Run,
    pieces: Sequence[Piece],
    span: range,
    last: bool,
) -> None:
    """One slice in ``tx``: checks the run is this process's to advance, writes, records."""
    locked = run(
        tx, "transfer/run_lock", principal=principal, key=found.key, margin=CLAIM_MARGIN_SECONDS
    )
    if not locked or int(locked[0]["pieces"]) != span.start:
        raise _running_elsewhere(principal)
    if not locked[0]["held"]:
        raise ConcurrentWrite(
            "the import's reserved seqs expired between two of its slices (a pause of "
            f"over {HELD_SECONDS:.0f} s): run the import again to write it afresh"
        )
    for index in span:
        query, batch = pieces[index]
        run(tx, query, principal=principal, rows=batch)
    if last:
        claim(tx, found.reservation, found.reservation.count)
        run(tx, "transfer/run_drop", principal=principal, key=found.key)
    else:
        run(
            tx,
            "transfer/run_advance",
            principal=principal,
            key=found.key,
            pieces=span.stop,
            seconds=HELD_SECONDS,
        )


def write_memory(
    db: Database,
    principal: str,
    key: str,
    ids: Sequence[str],
    projects: Sequence[str],
    seqs: int,
    principal_props: Props,
    plan: ImportPlan,
    progress: Progress | None = None,
) -> MemoryRows | None:
    """Writes an import in slices; returns what was written, or None.

    An unfinished import of the same file (``key``) is finished when its block is
    still held, else undone first. A failure undoes what this call wrote.

    Args:
        db: The database.
        principal: Who the rows are written for (every node gets this principal).
        key: The import's key: the same file for the same principal, the same key.
        ids: Every id the import may write (to look up which are taken).
        projects: Every project name it may write.
        seqs: How many seqs to reserve.
        principal_props: The principal node's properties, when it is new.
        plan: Decides what to write from what the store holds (it may raise).
        progress: Called with (rows written, rows in all) after each slice.

    Raises:
        StateConflict: Another process is writing the same import.
        ConcurrentWrite: The import paused so long between slices that its block
            expired (what it wrote is undone: run it again).
    """
    found = _read_run(db, principal, key)
    if found is not None and not found.held:
        undo_run(db, principal, key, ids)
        found = None
    taken = db.read("transfer/existing_ids", principal=principal, ids=list(ids))
    present = db.read("transfer/existing_projects", principal=principal, names=list(projects))
    existing_projects = frozenset(str(r["name"]) for r in present)
    build = plan(
        Ownership(
            ids={str(r["id"]): bool(r["owned"]) for r in taken},
            projects=existing_projects,
            resuming=found is not None,
        )
    )
    if build is None:
        return None
    if found is None:
        new = sorted(set(projects) - existing_projects)
        found = _start_run(db, principal, key, seqs, principal_props, new)
    rows = build(found.base)
    pieces = _pieces(rows)
    total = sum(len(batch) for _, batch in pieces)
    done = sum(len(batch) for _, batch in pieces[: found.pieces])
    slices = [span for span in _slices(pieces) if span.start >= found.pieces]
    slices = slices or [range(len(pieces), len(pieces))]  # nothing left: finish the run
    try:
        for number, span in enumerate(slices, start=1):
            last = number == len(slices)
            db.write(
                partial(
                    _write_slice,
                    principal=principal,
                    found=found,
                    pieces=pieces,
                    span=span,
                    last=last,
                )
            )
            done += sum(len(pieces[index][1]) for index in span)
            if progress is not None:
                progress(done, total)
    except StateConflict:
        raise  # another process's run: never undo its work
    except BaseException:
        _undo_quietly(db, principal, key, ids)
        raise
    return rows


def _undo_quietly(db: Database, principal: str, key: str, ids: Sequence[str]) -> None:
    """Undoes a failed import; when that fails too, the next run of it does."""
    try:
        undo_run(db, principal, key, ids)
    except Exception:  # the original failure is the one to report
        return
