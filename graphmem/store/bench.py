"""The bare writes benchmarks compare graphmem's write path with (``bench write``).

Only benchmarks call this: it writes ``:BenchBare`` nodes outside every principal's
memory, and removes them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.store.database import Database, Value, drain, run

_DELETE_BATCH = 5_000


def bare_create(db: Database, run_id: str, rows: Sequence[Mapping[str, Value]]) -> int:
    """Creates one bare node per row in one transaction; returns how many."""
    created = db.write(lambda tx: run(tx, "bench/bare_create", rows=list(rows), run=run_id))
    return int(created[0]["created"])


def bare_delete(db: Database, run_id: str) -> int:
    """Deletes every bare node of one run; returns how many."""
    return drain(db, "bench/bare_delete", "deleted", _DELETE_BATCH, run=run_id)
