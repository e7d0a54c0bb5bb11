"""Concurrent consolidation of one episode: one winner, no deadlock, no copies."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphmem import GraphMem
from graphmem.settings import ConnectionSettings
from tests.integration.conftest import Graph, race

PROCESSES = 4
ROUNDS = 3
DEADLOCK = "Neo.TransientError.Transaction.DeadlockDetected"


class _Counter(logging.Handler):
    """Counts the driver's retry warnings for a deadlock."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.deadlocks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if DEADLOCK in record.getMessage():
            self.deadlocks += 1


def _consolidator(
    settings: ConnectionSettings,
    principal: str,
    episode_ids: list[str],
    data_dir: Path,
    start: Any,
    results: Any,
) -> None:
    counter = _Counter()
    driver_log = logging.getLogger("neo4j")
    driver_log.addHandler(counter)
    driver_log.setLevel(logging.WARNING)
    with (
        warnings.catch_warnings(record=True) as caught,
        GraphMem(
            principal,
            uri=settings.uri,
            user=settings.user,
            password=settings.password,
            data_dir=data_dir,
            migrate=False,
        ) as memory,
    ):
        warnings.simplefilter("always")
        outcomes = []
        for episode_id in episode_ids:
            start.wait(timeout=120)  # every worker races for the same episode at once
            result = memory.consolidate(episode_id)
            outcomes.append((episode_id, result.already_consolidated, len(result.created)))
    deadlocks = counter.deadlocks + sum(DEADLOCK in str(w.message) for w in caught)
    results.put((outcomes, deadlocks))


def _episode(round_number: int) -> dict[str, Any]:
    return {
        "project": "shop",
        "kind": "task",
        "title": f"round {round_number}",
        "observations": [f"round {round_number} fact {i}" for i in range(6)],
        "decisions": [f"round {round_number} choice {i}" for i in range(3)],
        "failed_attempts": [f"round {round_number} dead end {i}" for i in range(3)],
    }


def test_four_processes_consolidate_one_episode_without_deadlock(
    neo4j_settings: ConnectionSettings,
    make_memory: Callable[..., GraphMem],
    graph: Graph,
    tmp_path: Path,
) -> None:
    memory = make_memory()
    principal = memory.principal
    first = memory.consolidate(memory.remember(_episode(-1)))  # live beliefs to compare with
    episode_ids = [memory.remember(_episode(n)) for n in range(ROUNDS)]
    reports = race(
        _consolidator,
        [(neo4j_settings, principal, episode_ids, tmp_path / f"w{n}") for n in range(PROCESSES)],
        timeout=300,
    )
    assert [deadlocks for _, deadlocks in reports] == [0] * PROCESSES
    created = len(first.created)
    for episode_id in episode_ids:
        runs = [o for outcomes, _ in reports for o in outcomes if o[0] == episode_id]
        winners = [o for o in runs if not o[1]]
        assert len(runs) == PROCESSES
        assert len(winners) == 1
        assert winners[0][2] > 0
        created += winners[0][2]
    rows = graph.query(
        "MATCH (b:Belief {principal: $p}) RETURN b.statement AS s, count(*) AS copies",
        p=principal,
    )
    assert rows and all(row["copies"] == 1 for row in rows)
    assert len(rows) == created
