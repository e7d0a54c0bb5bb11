"""The transient tier on a real Neo4j: LRU eviction of views, durable memory untouched."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.settings import ConnectionSettings
from graphmem.store.ids import new_id
from tests.integration.conftest import Graph


def test_tiny_budget_evicts_lru_keeps_newest_and_spares_memory(
    neo4j_settings: ConnectionSettings,
    tmp_path: Path,
    graph: Graph,
) -> None:
    data_dir = tmp_path / "data"
    env = {
        "GRAPHMEM_DATA_DIR": str(data_dir),
        "GRAPHMEM_NEO4J_URI": neo4j_settings.uri,
        "GRAPHMEM_NEO4J_PASSWORD": neo4j_settings.password,
    }
    principals = [f"test-{new_id()}" for _ in range(3)]
    for principal in principals:  # each saves a belief view; oldest first
        with GraphMem(
            principal,
            uri=neo4j_settings.uri,
            password=neo4j_settings.password,
            data_dir=data_dir,
        ) as memory:
            memory.believe(f"{principal} keeps its notes in Markdown", project="p", type="fact")
            memory.recall("notes", project="p")
        time.sleep(0.05)  # distinct modification times
    views = sorted(
        (data_dir / "views").glob("*/*.json"),
        key=lambda path: (os.path.getmtime(path), f"{path.parent.name}/{path.stem}"),
    )
    # One semantic (FAISS) view each: a lexical view this small is replayed from the log
    # rather than saved (it saves once its postings are merged).
    assert len(views) == 3
    runner = CliRunner()
    status = json.loads(runner.invoke(app, ["cache", "status", "--json"], env=env).stdout)
    assert [e["name"] for e in status["entries"]] == [
        f"{path.parent.name}/{path.stem}" for path in views
    ]
    before = [graph.count(p, "Belief") for p in principals]

    done = runner.invoke(app, ["cache", "sweep", "--budget-mb", "0", "--json"], env=env)
    report = json.loads(done.stdout)

    assert report["evicted"] == [e["name"] for e in status["entries"][:2]]  # LRU first
    assert report["kept"] == [status["entries"][2]["name"]]  # the newest stays
    assert report["over_budget"] is True  # and alone it is still over a 0 MB budget
    assert [graph.count(p, "Belief") for p in principals] == before  # durable: untouched
    with GraphMem(
        principals[0], uri=neo4j_settings.uri, password=neo4j_settings.password, data_dir=data_dir
    ) as memory:  # an evicted view is rebuilt from the event log on use
        assert len(memory.recall("notes", project="p").items) == 1
