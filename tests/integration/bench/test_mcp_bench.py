"""The MCP benchmark end to end on a small store: both paths render the same bytes."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.mcp import run_mcp_bench


def test_mcp_and_direct_recall_render_the_same_bytes(bench_env: Path) -> None:
    figures = run_mcp_bench(beliefs=60, queries=15)
    assert figures["transport"] == "stdio" and figures["queries"] == 15
    assert figures["rendered_mismatches"] == 0
    for path in ("direct", "mcp_stdio"):
        assert 0 < figures[path]["p50_ms"] <= figures[path]["p95_ms"]
