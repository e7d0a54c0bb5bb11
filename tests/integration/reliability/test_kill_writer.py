"""kill -9 of a writer in the middle of its batch: the batch is all there or not at all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from graphmem.settings import ConnectionSettings
from graphmem.store.ids import new_id
from tests.integration.conftest import Graph

ROOT = Path(__file__).resolve().parents[3]
BATCH = 5_000


def _env(settings: ConnectionSettings) -> dict[str, str]:
    return {
        **os.environ,
        "GRAPHMEM_NEO4J_URI": settings.uri,
        "GRAPHMEM_NEO4J_USER": settings.user,
        "GRAPHMEM_NEO4J_PASSWORD": settings.password,
    }


def _count(graph: Graph, principal: str) -> int:
    rows = graph.query("MATCH (b:Belief {principal: $p}) RETURN count(b) AS c", p=principal)
    return int(rows[0]["c"])


def test_a_writer_killed_mid_batch_leaves_all_or_nothing(
    neo4j_settings: ConnectionSettings, graph: Graph
) -> None:
    outcomes = []
    for delay in (0.2, 0.8, 1.4):  # the batch takes about 2 s here
        principal = f"test-{new_id()}"
        writer = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.integration.reliability.writer",
                "batch",
                principal,
                str(BATCH),
            ],
            cwd=ROOT,
            env=_env(neo4j_settings),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "sending"
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        time.sleep(1.0)  # a transaction the server still runs either commits or not
        written = _count(graph, principal)
        assert written in (0, BATCH), f"partial batch after kill at {delay}s: {written}"
        events = graph.query(
            "MATCH (e:MemoryEvent {principal: $p}) RETURN count(e) AS c", p=principal
        )
        assert events[0]["c"] == written  # one event per belief, or none
        outcomes.append(written)
    assert 0 in outcomes  # at least one kill really landed mid-batch
