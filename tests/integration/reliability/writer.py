"""A writer process the reliability tests kill: `python -m tests.integration.reliability.writer`.

Reads its connection from GRAPHMEM_NEO4J_* and its work from argv, never a secret:
``batch PRINCIPAL N`` writes one batch of N keyed beliefs; ``stream PRINCIPAL N``
writes N keyed beliefs one at a time, printing each acknowledged key, retrying a key
until the server answers again.
"""

from __future__ import annotations

import sys
import time

from neo4j.exceptions import DriverError

from graphmem import GraphMem, GraphMemError


def _belief(principal: str, index: int) -> dict[str, object]:
    return {
        "statement": f"reliability fact {index} of {principal}",
        "project": "reliability",
        "type": "fact",
        "idempotency_key": f"reliability-{index}",
    }


def batch(principal: str, count: int) -> None:
    """One all-or-nothing batch; prints ``sending`` just before it goes out."""
    with GraphMem(principal, migrate=False) as memory:
        rows = [_belief(principal, index) for index in range(count)]
        print("sending", flush=True)
        memory.believe_many(rows)
        print("done", flush=True)


def stream(principal: str, count: int) -> None:
    """Keyed single writes, each printed once acknowledged; retried across outages."""
    memory: GraphMem | None = None
    index = 0
    while index < count:
        try:
            if memory is None:
                memory = GraphMem(principal, migrate=False)
            memory.believe_many([_belief(principal, index)])
        except (GraphMemError, DriverError, OSError):  # down, or coming back: retry the key
            if memory is not None:
                memory.close()
            memory = None
            time.sleep(0.2)
            continue
        print(f"ack reliability-{index}", flush=True)
        index += 1
    if memory is not None:
        memory.close()


if __name__ == "__main__":
    command, principal, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"batch": batch, "stream": stream}[command](principal, count)
