"""Parsing in graphmem's own worker processes gives what parsing in-process gives."""

from __future__ import annotations

from graphmem.anchors.parsing import PARALLEL_THRESHOLD, extract_task, parse_files


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
