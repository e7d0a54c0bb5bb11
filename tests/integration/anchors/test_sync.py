"""Indexing: the derived code graph, rule 1, and bad input that never stops a run."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphmem import GraphMem
from graphmem.anchors.parsing import PARALLEL_THRESHOLD
from tests.integration.conftest import Graph

TOTAL = "python:billing/invoice.py::Invoice.total#method"


def _export(graph: Graph, principal: str) -> list[dict[str, object]]:
    """The project's code graph as sorted plain data: nodes and edges."""
    nodes = graph.query(
        "MATCH (n:File|Symbol {principal: $p}) RETURN labels(n)[0] AS label, "
        "properties(n) AS props ORDER BY label, coalesce(n.key, n.path)",
        p=principal,
    )
    edges = graph.query(
        "MATCH (a:File|Symbol {principal: $p})-[r:CONTAINS|REFERENCES]->(b) "
        "RETURN coalesce(a.key, a.path) AS a, type(r) AS type, b.key AS b ORDER BY a, type, b",
        p=principal,
    )
    return [*nodes, *edges]


def _memory_checksum(graph: Graph, principal: str) -> tuple[int, str]:
    rows = graph.query(
        "MATCH (n {principal: $p}) WHERE NOT n:File AND NOT n:Symbol "
        "RETURN labels(n) AS labels, properties(n) AS props",
        p=principal,
    )
    text = sorted(json.dumps(row, sort_keys=True, default=str) for row in rows)
    return len(rows), hashlib.sha256("\n".join(text).encode()).hexdigest()


def test_index_builds_files_symbols_and_edges(
    memory: GraphMem, graph: Graph, project_root: Path
) -> None:
    summary = memory.index_code(project_root, "shop")
    assert (summary.files_seen, summary.files_parsed, summary.symbols_added) == (2, 2, 7)
    keys = {
        row["key"]
        for row in graph.query(
            "MATCH (s:Symbol {principal: $p}) RETURN s.key AS key", p=memory.principal
        )
    }
    assert TOTAL in keys and "javascript:web/cart.js::Cart.count#method" in keys
    contains = graph.query(
        "MATCH (:Symbol {key: 'python:billing/invoice.py::Invoice#class', principal: $p})"
        "-[:CONTAINS]->(s) RETURN s.key AS key ORDER BY key",
        p=memory.principal,
    )
    assert [row["key"].split("::")[1] for row in contains] == [
        "Invoice.__init__#constructor",
        "Invoice.total#method",
    ]
    refs = graph.query(
        "MATCH (a:Symbol {principal: $p})-[:REFERENCES]->(b) RETURN a.key AS a, b.key AS b",
        p=memory.principal,
    )
    assert {(r["a"].split("::")[1], r["b"].split("::")[1]) for r in refs} == {
        ("render#function", "Invoice.total#method"),
    }


def test_rule_1_second_index_writes_nothing_and_rebuild_keeps_memory(
    memory: GraphMem, graph: Graph, project_root: Path
) -> None:
    episode = memory.remember({"project": "shop", "title": "t", "paths": ["billing/invoice.py"]})
    memory.index_code(project_root, "shop")
    memory.believe(
        "total sums cents", project="shop", type="fact", anchor=TOTAL, evidence=[episode]
    )
    exported = _export(graph, memory.principal)
    before = _memory_checksum(graph, memory.principal)

    again = memory.index_code(project_root, "shop")
    assert (again.writes, again.files_parsed, again.files_skipped) == (0, 0, 2)
    assert _export(graph, memory.principal) == exported

    rebuilt = memory.index_code(project_root, "shop", rebuild=True)
    assert rebuilt.files_parsed == 2
    assert _export(graph, memory.principal) == exported
    assert _memory_checksum(graph, memory.principal) == before
    # The derived links are back after the rebuild.
    anchored = graph.query(
        "MATCH (:Belief {principal: $p})-[:ANCHORED_TO]->(s) RETURN s.key AS key",
        p=memory.principal,
    )
    assert [row["key"] for row in anchored] == [TOTAL]
    touched = graph.query(
        "MATCH (:Episode {principal: $p})-[:TOUCHED]->(s) RETURN count(s) AS n", p=memory.principal
    )
    assert touched[0]["n"] == 4  # every symbol of billing/invoice.py


def test_changed_and_deleted_files_update_the_graph(memory: GraphMem, project_root: Path) -> None:
    memory.index_code(project_root, "shop")
    invoice = project_root / "billing" / "invoice.py"
    invoice.write_text(invoice.read_text().replace("line.cents", "line.amount"))
    (project_root / "web" / "cart.js").unlink()
    summary = memory.index_code(project_root, "shop")
    assert (summary.files_parsed, summary.files_removed) == (1, 1)
    assert (summary.symbols_added, summary.symbols_changed, summary.symbols_removed) == (
        0,
        2,
        3,
    )  # total and its class


def test_bad_files_are_counted_with_reasons_and_never_stop_the_run(
    memory: GraphMem, project_root: Path, tmp_path: Path
) -> None:
    bad = project_root / "bad"
    bad.mkdir()
    (bad / "binary.py").write_bytes(b"\x00\x01\x02 not text")
    (bad / "latin1.py").write_bytes(b"name = 'caf\xe9'\n")
    (bad / "huge.py").write_text("x = 1\n" * 200_000)
    (bad / "broken.py").write_text("def f(:\n    pass\n")
    (bad / "notes.txt").write_text("not code\n")
    (tmp_path / "outside.py").write_text("SECRET = 1\n")
    (bad / "escape.py").symlink_to(tmp_path / "outside.py")
    os.mkfifo(bad / "pipe.py")
    summary = memory.index_code(project_root, "shop")
    reasons = {failure["path"]: failure["reason"] for failure in summary.failed}
    assert reasons == {
        "bad/binary.py": "binary",
        "bad/latin1.py": "invalid UTF-8",
        "bad/huge.py": "too large (over 1 MB)",
        "bad/broken.py": "syntax error",
        "bad/pipe.py": "unreadable: not a regular file",
    }
    assert summary.ignored == {"symlink out of root": 1, "unsupported language": 1}
    assert summary.files_parsed == 2 and summary.symbols_added == 7
    # Still failing next time: reported again, nothing rewritten.
    again = memory.index_code(project_root, "shop")
    assert {f["path"] for f in again.failed} == set(reasons) and again.writes == 0


def test_parallel_parsing_gives_the_same_graph_as_one_process(
    make_memory: Callable[..., GraphMem], graph: Graph, tmp_path: Path
) -> None:
    root = tmp_path / "many"
    for index in range(PARALLEL_THRESHOLD + 8):
        module = root / f"pkg{index % 4}" / f"mod{index}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(
            f"class C{index}:\n    def run(self):\n        return helper()\n\n"
            f"def helper():\n    return {index}\n"
        )
    serial, parallel = make_memory(), make_memory()
    one = serial.index_code(root, "many", workers=1)
    two = parallel.index_code(root, "many", workers=2)
    assert one.files_parsed == two.files_parsed == PARALLEL_THRESHOLD + 8
    assert one.symbols_added == two.symbols_added == 3 * (PARALLEL_THRESHOLD + 8)
    assert _without_principal(_export(graph, serial.principal)) == _without_principal(
        _export(graph, parallel.principal)
    )


def _without_principal(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**row, "props": {k: v for k, v in row["props"].items() if k != "principal"}}
        if "props" in row
        else row
        for row in rows
    ]


def test_an_update_leaves_the_graph_a_cold_index_of_the_new_tree_would_build(
    make_memory: Callable[..., GraphMem], graph: Graph, project_root: Path
) -> None:
    updated, cold = make_memory(), make_memory()
    updated.index_code(project_root, "shop")
    invoice = project_root / "billing" / "invoice.py"
    # total moves out of Invoice into a new class (a kept key cannot move: its
    # qualified name is in the key, so it is removed and created); render now calls a
    # helper, and Invoice.__init__ stays with a changed body.
    invoice.write_text(
        "class Invoice:\n    def __init__(self, lines):\n        self.lines = list(lines)\n\n\n"
        "class Totals:\n    def total(self):\n        return 0\n\n\n"
        "def helper():\n    return 1\n\n\n"
        "def render(invoice):\n    return helper()\n"
    )
    updated.index_code(project_root, "shop")
    cold.index_code(project_root, "shop")
    assert _without_principal(_export(graph, updated.principal)) == _without_principal(
        _export(graph, cold.principal)
    )
