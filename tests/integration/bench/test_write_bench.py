"""The write benchmark beside its bare baseline (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.write import run_write_bench
from tests.integration.conftest import Graph


def test_both_rates_are_measured_and_the_bare_nodes_are_removed(
    bench_env: Path, graph: Graph
) -> None:
    figures = run_write_bench(beliefs=300, batch_size=100, singles=3)
    assert figures["batches"] == 3
    assert figures["beliefs_per_s"] > 0 and figures["bare_create_per_s"] > 0
    ratio = figures["beliefs_per_s"] / figures["bare_create_per_s"]
    assert abs(figures["ratio_to_bare"] - ratio) < 0.001
    assert graph.query("MATCH (n:BenchBare) RETURN count(n) AS n") == [{"n": 0}]
