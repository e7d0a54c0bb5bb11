"""``graphmem bench anchors``: cold and warm indexing of a source tree into Neo4j.

Its baseline, measured first in the same run: a bare single-process tree-sitter parse
of the same files (read and parse, nothing extracted or written), which also leaves
every file in the page cache, so the cold index is not charged for a first disk read.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import tree_sitter

from graphmem.anchors.files import list_sources
from graphmem.anchors.languages import load_language
from graphmem.bench.scratch import scratch_memory


def run_anchor_bench(root: Path, project: str, workers: int | None = None) -> dict[str, Any]:
    """Parses ``root`` bare, then indexes it twice under a scratch principal.

    Returns:
        ``{"bare_parse": {"seconds", "files_per_s"}, "cold": {"seconds",
        "files_per_s", "symbols_per_s", "ratio_to_bare"}, "warm": {"seconds",
        "writes"}}`` plus the counts behind them.
    """
    bare_files, bare_seconds = bare_parse(root)
    with scratch_memory() as memory:
        cold = memory.index_code(root, project, workers=workers)
        warm = memory.index_code(root, project, workers=workers)
    cold_rate = cold.files_parsed / cold.seconds
    bare_rate = bare_files / bare_seconds if bare_seconds else 0.0
    return {
        "bare_parse": {"seconds": round(bare_seconds, 3), "files_per_s": round(bare_rate, 1)},
        "cold": {
            "seconds": cold.seconds,
            "files_per_s": round(cold_rate, 1),  # parsed, as the bare parse counts
            "symbols_per_s": round(cold.symbols_added / cold.seconds, 1),
            "ratio_to_bare": round(cold_rate / bare_rate, 3) if bare_rate else None,
        },
        "warm": {"seconds": warm.seconds, "writes": warm.writes},
        "files": cold.files_seen,
        "files_failed": len(cold.failed),
        "symbols": cold.symbols_added,
        "workers": workers,
    }


def bare_parse(root: Path) -> tuple[int, float]:
    """Reads and parses every file ``index`` would, in this process; (files, seconds).

    The listing is not timed; the index's own figures include its listing.
    """
    listing = list_sources(root)
    parsers: dict[str, tree_sitter.Parser] = {}
    parsed = 0
    started = time.perf_counter()
    for source in listing.files:
        if source.lang not in parsers:
            language = load_language(source.lang)  # listed: its grammar is installed
            if language is None:
                continue
            parsers[source.lang] = language.parser()
        try:
            data = (root / source.path).read_bytes()
            data.decode("utf-8")  # what the index rejects unparsed, this skips too
        except (OSError, UnicodeDecodeError):
            continue
        if b"\0" in data[:8192]:
            continue
        parsers[source.lang].parse(data)
        parsed += 1
    return parsed, time.perf_counter() - started
