"""index_code from a script with no `if __name__ == "__main__":` guard (issue 9).

multiprocessing's spawn workers would re-run such a script in every worker (writing
its belief again, then failing with BrokenProcessPool); graphmem's parse workers never
import the caller's main module.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from graphmem.anchors.parsing import PARALLEL_THRESHOLD
from tests.integration.conftest import Graph

SCRIPT = """\
import sys
from graphmem import GraphMem

mem = GraphMem(sys.argv[1])
mem.believe("Written once by an unguarded script", project="scripted", type="fact")
summary = mem.index_code(sys.argv[2], project="scripted", workers=2)
print(summary.files_parsed)
mem.close()
"""


def test_a_script_without_a_main_guard_indexes_once(
    neo4j_env: dict[str, str], graph: Graph, tmp_path: Path
) -> None:
    files = PARALLEL_THRESHOLD + 16  # enough to start the worker processes
    tree = tmp_path / "tree"
    tree.mkdir()
    for index in range(files):
        (tree / f"mod{index}.py").write_text(f"def f{index}():\n    return {index}\n")
    script = tmp_path / "unguarded.py"
    script.write_text(SCRIPT)
    principal = neo4j_env["GRAPHMEM_PRINCIPAL"]
    done = subprocess.run(
        [sys.executable, str(script), principal, str(tree)],
        env={**neo4j_env, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(files)
    assert graph.count(principal, "Belief") == 1
    assert graph.count(principal, "Symbol") == files
