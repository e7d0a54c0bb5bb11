"""The many-agents benchmark: real agent processes against the test server."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.agents import run_agents_bench


def test_one_agent_works_passes_the_check_and_says_what_an_operation_cost(
    bench_env: Path,
) -> None:
    figures = run_agents_bench([1], seconds=1, beliefs=20, embedder="hashed", bulk=False)
    (count,) = figures["counts"]
    assert count["errors"] == 0 and count["check"]["passed"]
    assert count["operations"] == sum(
        count[name]["count"] for name in ("recall", "episode", "belief")
    )
    assert count["operations"] > 0
    cpu = count["cpu_ms_per_op"]
    assert 0 < cpu["embedder"] < cpu["agents"]  # every recall and write embeds its text
    # The test server is not one graphmem runs from this data directory: not read.
    assert cpu["server"] is None
    assert figures["cores"] >= 1
    assert figures["arithmetic"] is None  # only MiniLM has a choice of arithmetic
