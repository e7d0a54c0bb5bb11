"""What only benchmarks run against the database.

The bare writes ``bench write`` compares with, and the read-back ``bench agents``
checks its agents' writes against. The bare writes are ``:BenchBare`` nodes outside
every principal's memory, removed again afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphmem.store.cypher import cypher
from graphmem.store.database import Database, Value, run


def bare_create(db: Database, run_id: str, rows: Sequence[Mapping[str, Value]]) -> None:
    """Creates one bare node per row in one transaction."""
    db.write(lambda tx: run(tx, "bench/bare_create", rows=list(rows), run=run_id))


def bare_delete(db: Database, run_id: str) -> None:
    """Deletes every bare node of one run."""
    db.run_autocommit(cypher("bench/bare_delete"), run=run_id)


@dataclass(frozen=True)
class AgentsCheck:
    """What one ``bench agents`` run left in its principal's graph."""

    events: int
    """The principal's memory events."""
    distinct_seqs: int
    """Their distinct seqs (equal to ``events`` when each seq has one event)."""
    written: int
    """Nodes written under the run's key prefix."""
    copies: dict[str, int]
    """How many nodes hold each of the run's keys."""
    seqs: dict[str, int]
    """The seq of the (last) node holding each key."""
    created_events: dict[str, int]
    """How many created events each key's node has (summed over copies)."""


def agents_check(db: Database, principal: str, prefix: str, keys: Sequence[str]) -> AgentsCheck:
    """Reads back what the agents wrote under ``prefix`` (``keys``: what they acknowledged)."""
    events = db.read("bench/agents_events", principal=principal)[0]
    copies: dict[str, int] = dict.fromkeys(keys, 0)
    seqs: dict[str, int] = {}
    created: dict[str, int] = {}
    records = db.read("bench/agents_writes", principal=principal, prefix=prefix)
    for record in records:
        key = str(record["key"])
        copies[key] = copies.get(key, 0) + 1
        seqs[key] = int(record["seq"])
        created[key] = created.get(key, 0) + int(record["created"])
    return AgentsCheck(
        events=int(events["events"]),
        distinct_seqs=int(events["seqs"]),
        written=len(records),
        copies=copies,
        seqs=seqs,
        created_events=created,
    )
