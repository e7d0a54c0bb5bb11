"""Parsing in graphmem's own worker processes gives what parsing in-process gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graphmem.anchors import parsing
from graphmem.anchors.parsing import (
    _BARE_PACKAGE,
    PARALLEL_THRESHOLD,
    extract_task,
    parse_files,
)


def test_workers_and_in_process_parsing_agree_in_order() -> None:
    tasks = [
        (
            f"pkg/m{index}.py",
            "python",
            f"class C{index}:\n    def f(self):\n        return 1\n".encode(),
        )
        for index in range(PARALLEL_THRESHOLD + 5)
    ]
    tasks.append(("bad.py", "python", b"\x00binary"))
    in_workers = list(parse_files(tasks, workers=2))
    in_process = [extract_task(task) for task in tasks]
    assert in_workers == in_process
    assert [e.path for e in in_workers] == [t[0] for t in tasks]
    assert in_workers[-1].error == "binary"


def test_a_worker_loads_the_parent_s_graphmem_without_the_client() -> None:
    # The worker's program with a report of what it imported in place of serving.
    program = _BARE_PACKAGE + (
        "import json; import graphmem.anchors.parse_worker as worker; "
        "print(json.dumps([worker.__file__, sorted(sys.modules)]))"
    )
    package_dir = Path(parsing.__file__).resolve().parents[1]
    answer = subprocess.run(
        [sys.executable, "-c", program, str(package_dir)],
        capture_output=True,
        check=True,
        text=True,
    )
    worker_file, modules = json.loads(answer.stdout)
    assert Path(worker_file).resolve().parent == package_dir / "anchors"
    assert "graphmem.anchors.extract" in modules
    assert not {"neo4j", "graphmem.client", "graphmem.store.database"} & set(modules)
