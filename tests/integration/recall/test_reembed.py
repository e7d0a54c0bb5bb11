"""`reembed`: the explicit, resumable migration of stored vectors to the client's model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from graphmem import GraphMem, InvalidInput
from graphmem.models import NewBelief, NewEpisode
from graphmem.settings import ConnectionSettings
from graphmem.store.beliefs import create_beliefs
from graphmem.store.database import Database
from graphmem.store.embeddings import count_unembedded
from graphmem.store.episodes import create_episodes
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.minilm import default_embedder
from tests.integration.conftest import Graph


def _models(graph: Graph, principal: str) -> dict[str, int]:
    rows = graph.query(
        "MATCH (v:Embedding {principal: $p}) RETURN v.model AS model, count(*) AS n",
        p=principal,
    )
    return {row["model"]: row["n"] for row in rows}


def test_reembed_stores_what_was_written_without_vectors_and_resumes(
    make_memory: Callable[..., GraphMem], database: Database, graph: Graph
) -> None:
    memory = make_memory()
    beliefs = [
        NewBelief(statement=f"Service {i} retries three times", project="p", type="fact")
        for i in range(5)
    ]
    create_beliefs(database, memory.principal, beliefs, row_numbers=True)  # no vectors
    episodes = [NewEpisode(title=f"Deploy {i}", text="It went out.", project="p") for i in range(3)]
    create_episodes(database, memory.principal, episodes, row_numbers=True)
    model = default_embedder().model_id  # the client's
    assert count_unembedded(database, memory.principal, model) == {"belief": 5, "episode": 3}

    reports: list[tuple[int, int]] = []
    done = memory.reembed(batch=2, progress=lambda d, t: reports.append((d, t)))
    assert done == {"belief": 5, "episode": 3}
    assert reports == [(2, 8), (4, 8), (5, 8), (7, 8), (8, 8)]  # a commit per batch
    assert count_unembedded(database, memory.principal, model) == {"belief": 0, "episode": 0}
    assert _models(graph, memory.principal) == {model: 8}
    assert memory.reembed() == {"belief": 0, "episode": 0}  # nothing left: a no-op


def test_a_new_model_replaces_the_old_ones_vectors(
    make_memory: Callable[..., GraphMem],
    neo4j_settings: ConnectionSettings,
    graph: Graph,
    tmp_path: Path,
) -> None:
    memory = make_memory()
    memory.believe_many(
        [
            {"statement": f"Queue {i} is drained nightly", "project": "p", "type": "fact"}
            for i in range(3)
        ]
    )
    (before,) = _models(graph, memory.principal)
    hashed = HashedEmbedder()
    with GraphMem(
        memory.principal,
        uri=neo4j_settings.uri,
        user=neo4j_settings.user,
        password=neo4j_settings.password,
        data_dir=tmp_path / "hashed",
        embedder=hashed,
    ) as other:
        assert other.reembed() == {"belief": 3, "episode": 0}
        assert _models(graph, memory.principal) == {hashed.model_id: 3} != {before: 3}
        assert other.recall("which queue is drained nightly?", project="p").items


def test_reembed_refuses_a_batch_out_of_range(memory: GraphMem) -> None:
    with pytest.raises(InvalidInput) as raised:
        memory.reembed(batch=0)
    assert raised.value.field == "batch" and raised.value.rule == "range"
