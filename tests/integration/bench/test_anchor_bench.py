"""The anchor benchmark beside its bare parse (real Neo4j)."""

from __future__ import annotations

from pathlib import Path

from graphmem.bench.anchors import bare_parse, run_anchor_bench


def test_cold_and_bare_parse_cover_the_same_files(bench_env: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    for index in range(6):
        (tree / f"mod{index}.py").write_text(f"class C{index}:\n    def run(self):\n        pass\n")
    (tree / "notes.txt").write_text("not code")
    assert bare_parse(tree)[0] == 6
    figures = run_anchor_bench(tree, "bench-tree", workers=1)
    assert figures["files"] == 6 and figures["symbols"] == 12
    assert figures["cold"]["ratio_to_bare"] > 0
    assert figures["bare_parse"]["files_per_s"] > 0
    assert figures["warm"]["writes"] == 0
