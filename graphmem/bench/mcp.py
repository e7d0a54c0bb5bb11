"""``graphmem bench mcp``: what MCP over stdio adds to a recall.

A scratch principal gets synthetic beliefs; then each query is recalled twice, in
turn: through the client in this process (the baseline) and through ``graphmem mcp``
run as a child process and called with the official SDK client over stdio. Both read
the same store with the same queries, interleaved so the machine's noise falls on
both alike; the rendered bytes must be the same.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import anyio

from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.bench.write import synthetic_beliefs
from graphmem.client import GraphMem

PROJECT = "bench-mcp"
WARM_UP = 10


def _queries(count: int) -> list[str]:
    rows = synthetic_beliefs(count, projects=1, seed=23)
    return [f"what about {row['subject']}: {row['statement'].split(' (')[0]}" for row in rows]


def _summary(latencies_ms: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(latencies_ms), 2),
        "p95_ms": round(percentile(latencies_ms, 95), 2),
    }


async def _measure(
    memory: GraphMem, queries: list[str], progress: Callable[[int], None]
) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem", "mcp", "--principal", memory.principal, "--project", PROJECT],
        env=dict(os.environ),
    )
    direct_ms: list[float] = []
    mcp_ms: list[float] = []
    mismatches = 0
    async with Client(params) as mcp:
        for index, query in enumerate([*queries[:WARM_UP], *queries]):
            started = time.perf_counter()
            expected = memory.recall(query, project=PROJECT).rendered
            direct_elapsed = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            answer = await mcp.call_tool("recall", {"query": query})
            mcp_elapsed = (time.perf_counter() - started) * 1000
            if answer.is_error:
                raise RuntimeError(f"recall over MCP failed: {answer.content}")
            if index < WARM_UP:
                continue
            direct_ms.append(direct_elapsed)
            mcp_ms.append(mcp_elapsed)
            text = "".join(part.text for part in answer.content if part.type == "text")
            mismatches += text != expected
            progress(1)
    overhead = [m - d for m, d in zip(mcp_ms, direct_ms, strict=True)]
    direct, over_mcp = _summary(direct_ms), _summary(mcp_ms)
    return {
        "direct": direct,
        "mcp_stdio": over_mcp,
        "overhead_p50_ms": round(over_mcp["p50_ms"] - direct["p50_ms"], 2),
        "overhead_median_of_pairs_ms": round(statistics.median(overhead), 2),
        "ratio_p50": round(over_mcp["p50_ms"] / direct["p50_ms"], 3),
        "rendered_mismatches": mismatches,
    }


def run_mcp_bench(
    beliefs: int, queries: int, progress: Callable[[int], None] = lambda n: None
) -> dict[str, Any]:
    """Writes ``beliefs`` under a scratch principal and times ``queries`` recalls both ways.

    Returns:
        Recall p50/p95 direct and over stdio MCP, the overhead at p50 (and the median
        of the per-query differences), and how many rendered answers differed.
    """
    with scratch_memory() as memory:
        rows = [{**row, "project": PROJECT} for row in synthetic_beliefs(beliefs, projects=1)]
        for offset in range(0, len(rows), 1_000):
            memory.believe_many(rows[offset : offset + 1_000])
        asked = _queries(queries)
        figures: dict[str, Any] = anyio.run(_measure, memory, asked, progress)
    return {"beliefs": beliefs, "queries": queries, "transport": "stdio", **figures}
