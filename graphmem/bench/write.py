"""``graphmem bench write``: batched belief throughput and single-write latency."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.models import BeliefType

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
    with scratch_memory() as memory:
        rows = list(synthetic_beliefs(beliefs, projects=10))
        batch_seconds: list[float] = []
        started = time.perf_counter()
        for offset in range(0, len(rows), batch_size):
            chunk = rows[offset : offset + batch_size]
            episode = memory.remember(
                {"project": chunk[0]["project"], "title": f"bench batch {offset}"}
            )
            chunk = [{**row, "evidence": [episode]} for row in chunk]
            batch_started = time.perf_counter()
            memory.believe_many(chunk)
            batch_seconds.append(time.perf_counter() - batch_started)
            progress(len(chunk))
        total_seconds = time.perf_counter() - started
        single_ms: list[float] = []
        for row in synthetic_beliefs(singles, projects=10, seed=11):
            single_started = time.perf_counter()
            memory.believe(**row)
            single_ms.append((time.perf_counter() - single_started) * 1000)
            progress(1)
    batch_rate = beliefs / sum(batch_seconds)
    return {
        "beliefs": beliefs,
        "batch_size": batch_size,
        "batches": len(batch_seconds),
        "beliefs_per_s": round(batch_rate, 1),
        "beliefs_per_s_with_episodes": round(beliefs / total_seconds, 1),
        "batch_seconds_median": round(statistics.median(batch_seconds), 4)
        if batch_seconds
        else None,
        "single_writes": singles,
        "single_write_p50_ms": round(statistics.median(single_ms), 2),
        "single_write_p95_ms": round(percentile(single_ms, 95), 2),
    }
