"""``graphmem bench write``: batched belief throughput and single-write latency.

Beside graphmem's batched writes the bench times a bare ``UNWIND ... CREATE`` of the
same rows, in the same batches, on the same server, each bare batch just before its
graphmem batch so the machine's drift hits both alike; it prints both rates and their
ratio.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.models import BeliefType
from graphmem.store.bench import bare_create, bare_delete
from graphmem.store.database import Database
from graphmem.store.ids import new_id

_SUBJECTS = (
    "invoice rounding",
    "retry policy",
    "database migrations",
    "auth tokens",
    "cache keys",
    "test fixtures",
    "logging format",
    "feature flags",
    "CI pipeline",
    "API pagination",
    "error handling",
    "dependency pins",
    "timezone handling",
    "file uploads",
    "rate limits",
)
_VERBS = ("must", "should", "never", "always", "tends to", "is expected to", "cannot")
_ACTIONS = (
    "use Decimal built from strings",
    "retry with exponential backoff",
    "run inside one transaction",
    "expire after 15 minutes",
    "include the tenant id",
    "be reset between tests",
    "emit JSON lines",
    "default to off in production",
    "fail fast on lint errors",
    "return a cursor, not an offset",
    "wrap errors with context",
    "pin upper bounds",
    "store UTC and render local time",
    "stream to disk above 10 MB",
    "allow 100 requests a minute",
)


def synthetic_beliefs(count: int, projects: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    """Yields varied, realistic belief rows (deterministic for a seed)."""
    rng = random.Random(seed)
    types = list(BeliefType)
    for index in range(count):
        subject = rng.choice(_SUBJECTS)
        yield {
            "statement": f"{subject.capitalize()} {rng.choice(_VERBS)} {rng.choice(_ACTIONS)} "
            f"(case {index})",
            "subject": subject,
            "project": f"project-{rng.randrange(projects)}",
            "type": rng.choice(types),
            "confidence": round(rng.uniform(0.2, 1.0), 2),
        }


def run_write_bench(
    beliefs: int,
    batch_size: int,
    singles: int,
    progress: Callable[[int], None] = lambda advanced: None,
) -> dict[str, Any]:
    """Writes ``beliefs`` in batches, then ``singles`` one at a time; returns the figures.

    Each batch row cites one of the batch's episodes as evidence, so the figures include
    provenance edges. Everything is written under a scratch principal that is deleted
    afterwards.
    """
    run_id = new_id()
    # A connection of its own for the bare baseline (the client's is private).
    with scratch_memory() as memory, closing(Database(memory.settings)) as db:
        rows = list(synthetic_beliefs(beliefs, projects=10))
        batch_seconds: list[float] = []
        bare_seconds: list[float] = []
        started = time.perf_counter()
        try:
            for offset in range(0, len(rows), batch_size):
                chunk = rows[offset : offset + batch_size]
                bare_started = time.perf_counter()
                bare_create(db, run_id, [{**row, "type": str(row["type"])} for row in chunk])
                bare_seconds.append(time.perf_counter() - bare_started)
                episode = memory.remember(
                    {"project": chunk[0]["project"], "title": f"bench batch {offset}"}
                )
                chunk = [{**row, "evidence": [episode]} for row in chunk]
                batch_started = time.perf_counter()
                memory.believe_many(chunk)
                batch_seconds.append(time.perf_counter() - batch_started)
                progress(len(chunk))
            total_seconds = time.perf_counter() - started - sum(bare_seconds)
        finally:
            bare_delete(db, run_id)
        single_ms: list[float] = []
        for row in synthetic_beliefs(singles, projects=10, seed=11):
            single_started = time.perf_counter()
            memory.believe(**row)
            single_ms.append((time.perf_counter() - single_started) * 1000)
            progress(1)
    batch_rate = beliefs / sum(batch_seconds)
    bare_rate = beliefs / sum(bare_seconds)
    return {
        "beliefs": beliefs,
        "batch_size": batch_size,
        "batches": len(batch_seconds),
        "beliefs_per_s": round(batch_rate, 1),
        "bare_create_per_s": round(bare_rate, 1),
        "ratio_to_bare": round(batch_rate / bare_rate, 3),
        "beliefs_per_s_with_episodes": round(beliefs / total_seconds, 1),
        "batch_seconds_median": round(statistics.median(batch_seconds), 4)
        if batch_seconds
        else None,
        "single_writes": singles,
        "single_write_p50_ms": round(statistics.median(single_ms), 2),
        "single_write_p95_ms": round(percentile(single_ms, 95), 2),
    }
