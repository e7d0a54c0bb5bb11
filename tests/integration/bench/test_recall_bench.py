"""The recall benchmark end to end on a tiny generic data set (real Neo4j)."""

from __future__ import annotations

import json
from pathlib import Path

from graphmem.bench.recall import load_generic, run_recall_bench

DATA = Path(__file__).resolve().parents[2] / "data" / "tiny_memory_set.json"


def test_tiny_set_reports_every_arm_and_writes_ranked_lines(
    bench_env: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ranked.jsonl"
    report = run_recall_bench(load_generic(DATA), k=10, out=out)
    assert report["questions"] == 3 and report["turns"] == 5
    figures = {"R@5", "R@10", "hit@10", "all@10", "NDCG@10", "MRR"}
    sessions = {"session_any@5", "session_any@10"}
    for arms in ("fused", "lexical", "semantic", "graph", "bm25_okapi", "bm25_lucene"):
        assert set(report[arms]["overall"]) == figures | sessions
        assert report[arms]["latency_ms"]["p50"] > 0
    for baseline in ("bm25_okapi", "bm25_lucene"):  # the baselines rank the same turns
        assert report[baseline]["overall"]["hit@10"] == 1.0
    assert report["best_baseline"] in {"bm25_okapi", "bm25_lucene"}
    assert report["fused"]["overall"]["hit@10"] == 1.0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["question_id"] for line in lines] == ["q1", "q2", "q3"]
    # q3 is asked as of 2024-03-15: the April session had not happened yet.
    assert not {"s2:1", "s2:2"} & set(lines[2]["ranked"])
    assert lines[0]["ranked"][0] == "s1:1"
    views = bench_env / "views"
    assert not views.exists() or list(views.iterdir()) == []  # scratch views removed too


def test_arm_subsets_and_a_deeper_out(bench_env: Path, tmp_path: Path) -> None:
    out = tmp_path / "ranked.jsonl"
    report = run_recall_bench(load_generic(DATA), k=50, out=out, arm_sets=["lexical"])
    assert {"lexical", "bm25_okapi", "bm25_lucene"} <= set(report) and "fused" not in report
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(len(line["ranked"]) <= 50 for line in lines)
