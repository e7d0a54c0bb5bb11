"""Concurrent writers: exact counts, distinct ids, one strictly increasing seq."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from graphmem import GraphMem
from graphmem.settings import ConnectionSettings
from tests.integration.conftest import Graph, race

PROCESSES = 4
WRITES_EACH = 250


def _writer(settings: ConnectionSettings, principal: str, worker: int) -> None:
    with GraphMem(
        principal, uri=settings.uri, user=settings.user, password=settings.password, migrate=False
    ) as memory:
        for index in range(WRITES_EACH):
            memory.believe(f"worker {worker} fact {index}", project=f"p{worker}", type="fact")


def _keyed_writer(
    settings: ConnectionSettings, principal: str, key: str, start: Any, results: Any
) -> None:
    with GraphMem(
        principal, uri=settings.uri, user=settings.user, password=settings.password, migrate=False
    ) as memory:
        start.wait(timeout=60)  # all writers race for the same key at once
        results.put(memory.believe("same write", project="p", type="fact", idempotency_key=key))


def test_four_processes_times_250_writes(
    neo4j_settings: ConnectionSettings, make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    principal = make_memory().principal
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_writer, args=(neo4j_settings, principal, worker))
        for worker in range(PROCESSES)
    ]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=600)
        if process.is_alive():
            process.terminate()
        assert process.exitcode == 0
    rows = graph.query(
        "MATCH (b:Belief {principal: $p}) RETURN b.id AS id, b.seq AS seq, b.statement AS s",
        p=principal,
    )
    assert len(rows) == PROCESSES * WRITES_EACH
    assert len({row["id"] for row in rows}) == len(rows)
    seqs = sorted(row["seq"] for row in rows)
    assert len(set(seqs)) == len(seqs)
    for worker in range(PROCESSES):  # each writer's later write has the higher seq
        mine = sorted(
            (int(row["s"].rsplit(" ", 1)[1]), row["seq"])
            for row in rows
            if row["s"].startswith(f"worker {worker} ")
        )
        assert len(mine) == WRITES_EACH
        in_write_order = [seq for _, seq in mine]
        assert in_write_order == sorted(in_write_order)
    events = graph.query("MATCH (e:MemoryEvent {principal: $p}) RETURN e.seq AS seq", p=principal)
    assert sorted(e["seq"] for e in events) == seqs


def test_concurrent_retries_with_one_key_leave_one_node(
    neo4j_settings: ConnectionSettings, make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    principal = make_memory().principal
    ids = race(_keyed_writer, [(neo4j_settings, principal, "k")] * PROCESSES, timeout=120)
    assert len(set(ids)) == 1
    assert graph.count(principal, "Belief") == 1
