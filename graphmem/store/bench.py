"""The bare writes benchmarks compare graphmem's write path with (``bench write``).

Only benchmarks call this: it writes ``:BenchBare`` nodes outside every principal's
memory, and removes them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.store.cypher import cypher
from graphmem.store.database import Database, Value, run


def bare_create(db: Database, run_id: str, rows: Sequence[Mapping[str, Value]]) -> None:
    """Creates one bare node per row in one transaction."""
    db.write(lambda tx: run(tx, "bench/bare_create", rows=list(rows), run=run_id))


def bare_delete(db: Database, run_id: str) -> None:
    """Deletes every bare node of one run."""
    db.run_autocommit(cypher("bench/bare_delete"), run=run_id)
