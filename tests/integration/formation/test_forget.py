"""Forgetting on a real Neo4j: the text leaves the graph, the views and the caches."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, NotFound
from graphmem.cli import app
from graphmem.vectors.minilm import default_embedder
from tests.integration.conftest import Graph

SECRET = "The staging root password is tangerine-42"


def _text_anywhere(graph: Graph, principal: str, text: str) -> list[str]:
    rows = graph.query(
        "MATCH (n) WHERE n.principal = $p AND any(k IN keys(n) WHERE "
        "  CASE WHEN valueType(n[k]) STARTS WITH 'LIST' "
        "  THEN any(x IN n[k] WHERE toString(x) CONTAINS $t) "
        "  ELSE toString(n[k]) CONTAINS $t END) "
        "RETURN labels(n)[0] AS label ORDER BY label",
        p=principal,
        t=text,
    )
    return [row["label"] for row in rows]


def test_forget_leaves_only_a_tombstone(make_memory: Callable[..., GraphMem], graph: Graph) -> None:
    writer = make_memory()
    reader = make_memory(writer.principal)  # another client with its own FAISS view
    untrusted = writer.remember(
        {"project": "ops", "title": "pasted", "trust": "untrusted", "observations": [SECRET]}
    )
    writer.consolidate(untrusted)  # logs the held-back candidate, with its text
    belief = writer.believe(SECRET, project="ops", type="fact")
    assert reader.recall("staging root password").items == []  # a secret: withheld
    assert [i.id for i in reader.recall("staging root password", ceiling="secret").items] == [
        belief
    ]
    assert _text_anywhere(graph, writer.principal, "tangerine") == [
        "Belief",
        "Episode",
        "MemoryEvent",
    ]

    writer.forget(belief)

    assert _text_anywhere(graph, writer.principal, "tangerine") == []  # the item went too
    assert writer.get_episode(untrusted).observations == []
    assert graph.count(writer.principal, "Tombstone") == 1
    assert reader.recall("staging root password", ceiling="secret").items == []
    for client in (writer, reader):  # both views dropped the vector
        view = client._engine.view("belief")
        assert view.index.ntotal == 0
    assert SECRET not in default_embedder()
    with pytest.raises(NotFound):
        writer.forget(belief)


def test_cli_consolidate_forget_events(neo4j_env: dict[str, str]) -> None:
    runner = CliRunner()
    episode = {"project": "ops", "title": "t", "observations": ["Backups run at 3am UTC"]}
    done = runner.invoke(app, ["remember", "-", "--json"], env=neo4j_env, input=json.dumps(episode))
    episode_id = json.loads(done.stdout)["id"]
    done = runner.invoke(app, ["consolidate", "--json"], env=neo4j_env)
    assert done.exit_code == 0, done.stderr
    (result,) = json.loads(done.stdout)
    assert result["episode_id"] == episode_id and len(result["created"]) == 1
    done = runner.invoke(app, ["consolidate"], env=neo4j_env)
    assert done.exit_code == 0 and "nothing to consolidate" in done.stdout
    done = runner.invoke(app, ["forget", result["created"][0]], env=neo4j_env)
    assert done.exit_code == 0 and "forgot" in done.stdout
    done = runner.invoke(app, ["events", "--json"], env=neo4j_env)
    types = [event["type"] for event in json.loads(done.stdout)]
    assert types == [
        "episode.created",
        "episode.consolidated",
        "belief.created",
        "belief.deleted",
    ]
