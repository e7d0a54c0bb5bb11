"""Reading a principal's whole memory out, and writing an exported one back in.

Export reads every durable node and link of one principal (``queries/transfer``).
Import reserves a block of seqs first, in a short transaction of its own (so other
writers never wait for its commit: :mod:`graphmem.store.clock`), then writes a whole
file in one managed transaction: it looks up which ids are taken, lets the caller
decide what to write, claims the block, then writes in statements of
:data:`BATCH_ROWS` rows. Either all of it is written or nothing is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from neo4j import ManagedTransaction

from graphmem.entities.mentions import MentionRow, belief_mentions, episode_mentions
from graphmem.store.clock import Reservation, claim, write_reserved
from graphmem.store.database import Database, Record, Value, plain, run
from graphmem.store.writes import write_idempotent

BATCH_ROWS = 1_000
"""Rows per import statement (all statements of one import share one transaction)."""

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


def write_memory(
    db: Database,
    principal: str,
    ids: Sequence[str],
    projects: Sequence[str],
    seqs: int,
    principal_props: Props,
    plan: ImportPlan,
    progress: Progress | None = None,
) -> MemoryRows | None:
    """Writes an import in one transaction; returns what was written, or None.

    Args:
        db: The database.
        principal: Who the rows are written for (every node gets this principal).
        ids: Every id the import may write (to look up which are taken).
        projects: Every project name it may write.
        seqs: How many seqs to reserve.
        principal_props: The principal node's properties, when it is new.
        plan: Decides what to write from what the store holds (it may raise).
        progress: Called with (rows written, rows in all) after each statement.
    """

    def work(tx: ManagedTransaction, reservation: Reservation) -> MemoryRows | None:
        taken = run(tx, "transfer/existing_ids", principal=principal, ids=list(ids))
        present = run(tx, "transfer/existing_projects", principal=principal, names=list(projects))
        build = plan(
            Ownership(
                ids={str(r["id"]): bool(r["owned"]) for r in taken},
                projects=frozenset(str(r["name"]) for r in present),
            )
        )
        if build is None:
            return None
        run(tx, "transfer/merge_principal", principal=principal, props=principal_props)
        rows = build(claim(tx, reservation, seqs))
        statements = _statements(rows)
        total = sum(len(batch) for _, batch in statements)
        done = 0
        for query, batch in statements:
            for start in range(0, len(batch), BATCH_ROWS):
                chunk = batch[start : start + BATCH_ROWS]
                run(tx, query, principal=principal, rows=chunk)
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
        return rows

    return write_reserved(
        db,
        principal,
        seqs,
        lambda reservation: write_idempotent(db, lambda tx: work(tx, reservation), keyed=True),
    )
