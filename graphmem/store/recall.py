"""The read side of recall (docs/recall.md): arm hits and filtered candidates, typed.

Every query filters on the principal. The candidates of one recall come back in one
round trip: the arms' hits and the graph arm's expansion from its seeds, all through
the hard filters, each with how the graph arm reached it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, NamedTuple, TypeVar

from graphmem.models import (
    Authority,
    BeliefState,
    BeliefType,
    EpisodeKind,
    Outcome,
    Portability,
    Scope,
)
from graphmem.store.database import Database
from graphmem.trust.sensitivity import Sensitivity, levels_up_to


class Reach(NamedTuple):
    """How the graph arm reached a candidate: from which seed, in how many hops."""

    seed: int
    """The seed's creation seq."""
    hops: int


@dataclass(frozen=True)
class EntityReach:
    """How the graph arm walks from a seed through the entities it mentions."""

    hops: int
    """The distance a node reached that way counts as."""
    per_seed: int
    """How many nodes each seed reaches that way at most (rarest shared names first)."""
    max_mentions: int
    """A name more nodes mention is skipped (it bounds the walk)."""
    max_share: float
    """A name more than this share of the principal's nodes mention is skipped."""
    min_mentions: int
    """A name this few nodes mention is never too common (small stores: 5% of 40 is 2)."""


class BeliefCandidate(NamedTuple):
    """What recall ranks and renders of a belief that passed the hard filters.

    A named tuple, not a frozen dataclass: a recall builds ~90 of them, and a frozen
    dataclass of 20 fields takes 3.4 µs to build against about 1 here.
    """

    id: str
    seq: int
    project: str
    statement: str
    subject: str | None
    type: BeliefType
    confidence: float
    state: BeliefState
    """For an ``as_of`` read, the state it had before it was retired."""
    scope: Scope
    portability: Portability
    origins: tuple[str, ...]
    anchor_key: str | None
    anchor_hash: str | None
    authority: Authority
    disputed: bool
    cited_seq: int
    """The generation decay counts from: stated, or last supported by an episode."""
    evidence: tuple[str, ...]
    """The ids of the episodes it was derived from."""
    conflicts: tuple[str, ...]
    """The ids of the beliefs it is linked ``CONFLICTS_WITH``."""
    reached: tuple[Reach, ...] = ()
    stale: bool = False
    """Expiry demoted it (for an ``as_of`` read: by then), and no episode confirmed it since."""


class EpisodeCandidate(NamedTuple):
    """What episode search ranks and renders of an episode that passed the filters."""

    id: str
    seq: int
    project: str
    kind: EpisodeKind
    title: str
    text: str | None
    outcome: Outcome
    parent: str | None = None
    """The id of the episode it is PART_OF (a turn's session), if any."""
    reply: str | None = None
    """When its text asks a question: the id of the next episode under its parent."""
    position: int = 0
    """How many episodes under the same parent came before it (by seq)."""
    reached: tuple[Reach, ...] = ()


Candidate = TypeVar("Candidate", BeliefCandidate, EpisodeCandidate)


@dataclass(frozen=True)
class Fetched(Generic[Candidate]):
    """What one candidates round trip found, by creation seq."""

    candidates: dict[int, Candidate]
    """The nodes that passed the hard filters and the sensitivity ceiling."""
    withheld: frozenset[int]
    """The nodes that passed the hard filters but lie above the ceiling (seqs only)."""


def _reached(rows: Iterable[Mapping[str, int]]) -> tuple[Reach, ...]:
    return tuple(Reach(int(row["seed"]), int(row["hops"])) for row in rows)


def _beliefs(rows: Sequence[Mapping[str, Any]]) -> Fetched[BeliefCandidate]:
    """The candidates of a query's collected rows; a row without its belief is withheld."""
    shown = [row for row in rows if row["belief"] is not None]
    return Fetched(
        {candidate.seq: candidate for candidate in map(_belief, shown)},
        _withheld(rows, "belief"),
    )


_TYPES = {member.value: member for member in BeliefType}
_STATES = {member.value: member for member in BeliefState}
_SCOPES = {member.value: member for member in Scope}
_PORTABILITIES = {member.value: member for member in Portability}
_AUTHORITIES = {member.value: member for member in Authority}
"""Each enum by value: a dict lookup takes 0.08 µs here against 0.97 µs for
``Enum(value)``, five times for each of the ~100 candidates of a recall."""


def _belief(row: Mapping[str, Any]) -> BeliefCandidate:
    props = row["belief"]
    return BeliefCandidate(
        id=props["id"],
        seq=props["seq"],
        project=props["project"],
        statement=props["statement"],
        subject=props.get("subject"),
        type=_TYPES[props["type"]],
        confidence=props["confidence"],
        state=_STATES[props["state"]],
        scope=_SCOPES[props["scope"]],
        portability=_PORTABILITIES[props["portability"]],
        origins=tuple(props["origins"]),
        anchor_key=props.get("anchor_key"),
        anchor_hash=props.get("anchor_hash"),
        authority=_AUTHORITIES[props["authority"]],
        disputed=bool(props.get("disputed")),
        cited_seq=max(props["seq"], props.get("cited_seq") or 0),
        evidence=tuple(row["evidence"]),
        conflicts=tuple(row["conflicts"]),
        reached=_reached(row.get("reached") or ()),
        stale=bool(props.get("stale")),
    )


def symbol_keys_named(
    db: Database, principal: str, project: str, names: Sequence[str]
) -> list[str]:
    """The keys of the project's symbols whose name or qualified name is in ``names``."""
    records = db.read("recall/symbols_named", principal=principal, project=project, names=names)
    return [str(record["key"]) for record in records]


def structured_hits(
    db: Database,
    principal: str,
    keys: Sequence[str],
    prefixes: Sequence[str],
    subjects: Sequence[str],
    limit: int,
) -> list[int]:
    """Creation seqs of beliefs matched exactly, best first.

    Anchored to ``keys``, to files (key ``prefixes``), or about ``subjects``: exact
    anchors first, then files, then subjects; newest first within each.
    """
    records = db.read(
        "recall/belief_structured",
        principal=principal,
        keys=list(keys),
        prefixes=list(prefixes),
        subjects=list(subjects),
        limit=limit,
    )
    return [int(record["seq"]) for record in records]


def _walk(seqs: Sequence[int], seeds: Sequence[int], entities: EntityReach) -> dict[str, object]:
    """A candidates query's parameters for the arms' hits and the graph arm's walk.

    Args:
        seqs: The arms' hits (creation seqs).
        seeds: The graph arm's seeds, best first.
        entities: How the walk goes through shared entities (its ``per_seed`` is
            passed by the caller: the belief query takes its own).
    """
    return {
        "seqs": list(seqs),
        "seeds": list(seeds),
        "entity_hops": entities.hops,
        "max_mentions": entities.max_mentions,
        "max_share": entities.max_share,
        "min_mentions": entities.min_mentions,
    }


def belief_candidates(
    db: Database,
    principal: str,
    seqs: Sequence[int],
    seeds: Sequence[int],
    *,
    per_seed: int,
    entities: EntityReach,
    types: Sequence[BeliefType] | None,
    as_of: datetime | None,
    project: str | None,
    ceiling: Sensitivity,
) -> Fetched[BeliefCandidate]:
    """The hits and the seeds' graph neighbours that pass the hard filters, by seq.

    Args:
        db: The database.
        principal: Whose beliefs.
        seqs: The arms' hits (creation seqs).
        seeds: The graph arm's seeds, best first.
        per_seed: How many neighbours of each seed to fetch (nearest, newest first).
        entities: How the graph arm walks through shared entities.
        types: Only these belief types (None: all).
        as_of: Read as of then (None: live beliefs now).
        project: The project asked about (a local belief stays in its own; a "not
            here" correction keeps one out).
        ceiling: The most sensitive level the call may see.
    """
    records = db.read(
        "recall/belief_candidates",
        principal=principal,
        **_walk(seqs, seeds, entities),
        per_seed=per_seed,
        types=[t.value for t in types] if types else None,
        as_of=as_of,
        now=datetime.now(UTC),
        project=project,
        levels=levels_up_to(ceiling),
    )
    return _beliefs(records[0]["rows"])


def episode_candidates(
    db: Database,
    principal: str,
    seqs: Sequence[int],
    seeds: Sequence[int],
    *,
    width: int,
    entities: EntityReach,
    as_of: datetime | None,
    project: str | None,
    ceiling: Sensitivity,
) -> Fetched[EpisodeCandidate]:
    """The hits and what the seeds reach, by seq.

    Their session neighbours (``width`` either side) and the episodes they share rare
    entities with (``entities``); those above ``ceiling`` as seqs only.
    """
    records = db.read(
        "recall/episode_candidates",
        principal=principal,
        **_walk(seqs, seeds, entities),
        width=width,
        per_seed=entities.per_seed,
        as_of=as_of,
        project=project,
        levels=levels_up_to(ceiling),
    )
    rows = records[0]["rows"]
    found: dict[int, EpisodeCandidate] = {}
    for row in rows:
        props = row["episode"]
        if props is None:
            continue
        found[props["seq"]] = EpisodeCandidate(
            id=props["id"],
            seq=props["seq"],
            project=props["project"],
            kind=EpisodeKind(props["kind"]),
            title=props["title"],
            text=props.get("text"),
            outcome=Outcome(props["outcome"]),
            parent=props.get("parent"),
            reply=props.get("reply"),
            position=props.get("position") or 0,
            reached=_reached(row["reached"]),
        )
    return Fetched(found, _withheld(rows, "episode"))


def _withheld(rows: Sequence[Mapping[str, Any]], key: str) -> frozenset[int]:
    """The seqs of the rows that came back without ``key``: above the ceiling."""
    return frozenset(int(row["seq"]) for row in rows if row[key] is None)


def newest_seq(db: Database, principal: str, as_of: datetime | None) -> int:
    """The principal's newest write generation (at ``as_of`` when given), 0 if none."""
    records = db.read("recall/newest_seq", principal=principal, as_of=as_of)
    return int(records[0]["seq"]) if records else 0


def snapshot_candidates(
    db: Database, principal: str, project: str, limit: int, ceiling: Sensitivity
) -> Fetched[BeliefCandidate]:
    """The newest ``limit`` live beliefs a session start in ``project`` may show.

    Its own, principal scope, and other projects' beliefs that may travel there;
    those above ``ceiling`` as seqs only.
    """
    records = db.read(
        "recall/snapshot_candidates",
        principal=principal,
        project=project,
        now=datetime.now(UTC),
        limit=limit,
        levels=levels_up_to(ceiling),
    )
    return _beliefs(records[0]["rows"])
