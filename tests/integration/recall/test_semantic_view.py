"""The FAISS view: exact below the threshold, HNSW with removal by filter above it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from graphmem import GraphMem
from graphmem.store.database import Database
from graphmem.store.events import view_events
from graphmem.vectors.minilm import default_embedder
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.views import SemanticView

STATEMENTS = [
    "Invoices round half-up",
    "Retries use exponential backoff",
    "Feature flags default to off",
    "Logs are written as JSON lines",
    "Database migrations run in one transaction",
    "Cache keys include the tenant id",
]


def _belief_view(
    database: Database,
    principal: str,
    embedder: Embedder,
    directory: Path | None,
    exact_max: int | None = None,
) -> SemanticView:
    """The principal's belief view, fed from the graph's events."""
    return SemanticView(
        partial(view_events, database, principal),
        principal,
        "belief",
        embedder,
        directory,
        exact_max=exact_max,
    )


def test_switches_to_hnsw_above_the_threshold_and_filters_removals(
    make_memory: Callable[..., GraphMem], database: Database, tmp_path: Path
) -> None:
    memory = make_memory()
    ids = memory.believe_many(
        [{"statement": s, "project": "p", "type": "fact"} for s in STATEMENTS]
    )
    seqs = [memory.get_belief(i).seq for i in ids]
    embedder = default_embedder()
    view = _belief_view(database, memory.principal, embedder, tmp_path, exact_max=3)
    assert view.sync() == len(STATEMENTS)
    assert view.approximate and view.index.ntotal == len(STATEMENTS)
    query = embedder.embed(["how are invoices rounded?"])[0]
    assert view.search(query, 3)[0].seq == seqs[0]

    reloaded = _belief_view(database, memory.principal, embedder, tmp_path, exact_max=3)
    assert reloaded.approximate and reloaded.watermark == view.watermark
    assert [h.seq for h in reloaded.search(query, 6)] == [h.seq for h in view.search(query, 6)]

    view._remove([seqs[0]])  # what a belief.deleted event does
    assert seqs[0] not in [hit.seq for hit in view.search(query, 6)]
    assert len(view.search(query, 6)) == len(STATEMENTS) - 1
    view._reshape()  # a sixth removed is over the rebuild share: rebuilt without it
    assert view.removed == set() and view.index.ntotal == len(STATEMENTS) - 1

    memory.forget(ids[1])  # one removal is under the share, but forgetting purges
    view.sync(purge=True)
    assert view.removed == set() and view.index.ntotal == len(STATEMENTS) - 2
    assert seqs[1] not in view._items()


def test_stays_exact_below_the_threshold(
    make_memory: Callable[..., GraphMem], database: Database
) -> None:
    memory = make_memory()
    memory.believe_many([{"statement": s, "project": "p", "type": "fact"} for s in STATEMENTS])
    view = _belief_view(database, memory.principal, default_embedder(), None)
    view.sync()
    assert not view.approximate and view.index.ntotal == len(STATEMENTS)
    assert view.sync() == 0  # caught up: nothing to apply
