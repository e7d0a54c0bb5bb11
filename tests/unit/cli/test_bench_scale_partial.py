"""`bench scale` over several sizes keeps the sizes done when a larger one fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.cli import bench as bench_cli
from graphmem.errors import DatabaseError


def _figures(size: int) -> dict[str, Any]:
    return {
        "beliefs": size,
        "projects": 10,
        "superseded": size // 20,
        "embedder": "hashed-v1",
        "ingest": {
            "beliefs_per_s": 2000.0,
            "beliefs_per_s_with_catch_up": 900.0,
            "catch_up_seconds": 1.0,
            "embedder_alone_per_s": 17000.0,
            "with_catch_up_over_embedder_alone": 0.053,
            "supersessions_per_s": 50.0,
        },
        "view_from_empty": {
            "vectors": size,
            "seconds": 0.1,
            "vectors_per_s": 100.0 * size,
            "texts_embedded": 0,
            "over_embedder_alone": 0.6,
        },
        "recall": {
            "queries": 5,
            "p50_ms": 20.0,
            "p95_ms": 30.0,
            "p95_over_p50": 1.5,
            "step_p50_ms": {"lexical": 4.0, "total": 20.0},
        },
        "client_rss_mb": 500.0,
        "client_rss_mb_after": {"write": 450.0, "recall": 500.0},
        "fresh_client_rss_mb": {
            "recalls": 5,
            "at_start_mb": 90.0,
            "serving_mb": 300.0,
            "peak_mb": 310.0,
        },
        "peak_rss_mb": 600.0,
        "faiss_bytes": 1024,
        "lexical_file_bytes": 512,
        "neo4j_store_bytes": None,
        "neo4j_store_growth_bytes": None,
    }


def _failing_at_second(
    sizes: list[int], *args: object, finished: Callable[[dict[str, Any]], None], **kwargs: object
) -> list[dict[str, Any]]:
    finished(_figures(sizes[0]))
    raise DatabaseError("Neo4j refused the statement: Java heap space")


@pytest.mark.parametrize("as_json", [True, False])
def test_the_sizes_done_are_printed_before_the_error(
    monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    monkeypatch.setattr(bench_cli, "run_growth_bench", _failing_at_second)
    flags = ["--json"] if as_json else []
    result = CliRunner().invoke(app, ["bench", "scale", "--beliefs", "10,1000", *flags])
    assert result.exit_code == DatabaseError.exit_code
    if as_json:
        printed = json.loads(result.stdout)
        assert printed["complete"] is False
        assert [size["beliefs"] for size in printed["sizes"]] == [10]
    else:
        assert "10 beliefs in 10 projects" in result.stdout
        assert "recall: p50 20.0 ms, p95 30.0 ms" in result.stdout
    assert "Java heap space" in result.stderr
