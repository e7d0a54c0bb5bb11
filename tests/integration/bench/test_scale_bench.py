"""The growth-curve benchmark end to end at two tiny sizes (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.scale import run_growth_bench
from graphmem.vectors.hashed import HashedEmbedder


def test_each_size_reports_its_figures_and_its_embedder(bench_env: Path) -> None:
    seen: set[tuple[int, str]] = set()
    figures = run_growth_bench(
        [400, 200],
        projects=3,
        queries=10,
        embedder="hashed",
        progress=lambda size, stage, n: seen.add((size, stage)),
    )
    assert [each["beliefs"] for each in figures] == [200, 400]  # smallest first
    for each in figures:
        assert each["embedder"] == HashedEmbedder.model_id
        assert each["superseded"] == each["beliefs"] // 20
        written = each["beliefs"] + each["superseded"]
        assert each["ingest"]["written"] == written
        built = each["view_from_empty"]  # from the stored vectors, embedding nothing
        assert built["vectors"] == written and built["texts_embedded"] == 0
        assert built["vectors_per_s"] > 0 and built["over_embedder_alone"] > 0
        assert each["recall"]["queries"] == 10 and each["recall"]["mean_items"] == 10
        assert each["recall"]["p95_over_p50"] >= 1
        steps = each["recall"]["step_p50_ms"]  # read back from the recalls' traces
        assert {"total", "lexical", "semantic", "candidates"} <= steps.keys()
        assert 0 < steps["lexical"] <= steps["total"]
        assert each["faiss_bytes"] > each["beliefs"] * HashedEmbedder.dim * 4
        assert each["client_rss_mb"] > 0
        # the lexical view is saved once its pending postings merge (4,096 at least), so
        # at these sizes its file may not exist yet
        assert isinstance(each["lexical_file_bytes"], int) and each["lexical_file_bytes"] >= 0
        stages_measured = ["write", "supersede", "catch_up", "view_from_empty", "recall"]
        assert list(each["client_rss_mb_after"]) == stages_measured
        assert each["client_rss_mb_after"]["recall"] == each["client_rss_mb"]
        fresh = each["fresh_client_rss_mb"]  # a process of its own, with its views loaded
        assert fresh["serving_mb"] > fresh["at_start_mb"] > 0
    assert figures[1]["faiss_bytes"] > figures[0]["faiss_bytes"]
    stages = {"write", "supersede", "catch up", "view from empty", "recall"}
    assert {stage for _, stage in seen} == stages
    assert not any((bench_env / "views").glob("*/belief-*"))  # scratch views removed
