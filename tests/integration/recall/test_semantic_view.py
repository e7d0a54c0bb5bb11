"""The FAISS view: exact below the threshold, HNSW with removal by filter above it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from graphmem import GraphMem
from graphmem.models import NewBelief
from graphmem.store.beliefs import create_beliefs
from graphmem.store.database import Database
from graphmem.store.embeddings import save_vectors
from graphmem.store.episodes import forget_episodes
from graphmem.store.events import view_events
from graphmem.vectors.counting import CountingEmbedder
from graphmem.vectors.minilm import default_embedder
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.views import SemanticView
from tests.integration.conftest import Graph

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
    surface: str = "belief",
) -> SemanticView:
    """The principal's view of ``surface``, fed from the graph's events, storing back."""
    return SemanticView(
        partial(view_events, database, principal),
        principal,
        "episode" if surface == "episode" else "belief",
        embedder,
        directory,
        exact_max=exact_max,
        sink=partial(save_vectors, database, principal),
    )


def test_a_view_reads_the_writers_vectors_and_embeds_nothing(
    make_memory: Callable[..., GraphMem], database: Database
) -> None:
    memory = make_memory()
    ids = memory.believe_many(
        [{"statement": s, "project": "p", "type": "fact"} for s in STATEMENTS]
    )
    memory.believe("Deploys happen on Tuesdays", project="p", type="fact")
    memory.supersede(ids[1], "Retries use linear backoff", reason="the queue said so")
    long_text = " ".join(
        f"Step {i} of the release copies bundle {i} to the CDN." for i in range(40)
    )
    memory.remember_many(
        [
            {"title": "Release run", "text": long_text, "project": "p"},
            {"title": "Short", "project": "p"},
        ]
    )
    counting = CountingEmbedder(default_embedder())
    view = _belief_view(database, memory.principal, counting, None)
    assert view.sync() == len(STATEMENTS) + 2
    episodes = _belief_view(database, memory.principal, counting, None, surface="episode")
    assert episodes.sync() == 2
    assert counting.texts == 0 and view.embedded == 0 and episodes.embedded == 0
    assert episodes.index.ntotal > 2  # the long episode's windows, read from the store
    query = counting.embed(["how are invoices rounded?"])[0]
    assert view.search(query, 1)[0].seq == memory.get_belief(ids[0]).seq


def test_an_item_stored_without_vectors_is_embedded_once_for_every_view(
    make_memory: Callable[..., GraphMem], database: Database, graph: Graph
) -> None:
    memory = make_memory()
    memory.believe("Invoices round half-down", project="p", type="fact")
    unencoded = NewBelief(statement="Invoices round half-up", project="p", type="fact")
    (new,) = create_beliefs(database, memory.principal, [unencoded], row_numbers=False)
    stored = graph.query(
        "MATCH (b:Belief {id: $id}) RETURN count { (b)-[:EMBEDDED_AS]->() } AS n", id=new
    )
    assert stored == [{"n": 0}]  # as an older graphmem or an import wrote it

    first = CountingEmbedder(default_embedder())
    view = _belief_view(database, memory.principal, first, None)
    view.sync()
    assert view.embedded == 1 and first.texts == 1
    second = CountingEmbedder(default_embedder())
    again = _belief_view(database, memory.principal, second, None)
    again.sync()
    assert again.embedded == 0 and second.texts == 0
    query = second.embed(["invoice rounding"])[0]
    assert [h.seq for h in again.search(query, 2)] == [h.seq for h in view.search(query, 2)]


def test_forgetting_deletes_the_stored_vectors(
    memory: GraphMem, database: Database, graph: Graph
) -> None:
    kept = memory.believe("Logs are written as JSON lines", project="p", type="fact")
    gone = memory.believe("The staging password is in the vault", project="p", type="fact")
    episode = memory.remember({"title": "Rotated the staging password", "project": "p"})
    assert graph.count(memory.principal, "Embedding") == 3
    memory.forget(gone)
    forget_episodes(database, memory.principal, [episode], "user")
    rows = graph.query(
        "MATCH (v:Embedding {principal: $p})<-[:EMBEDDED_AS]-(n) RETURN n.id AS id",
        p=memory.principal,
    )
    assert rows == [{"id": kept}] and graph.count(memory.principal, "Embedding") == 1


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
