"""``graphmem bench scale``: ingest and recall latency at 100k beliefs, on 2 cores.

Synthetic but varied beliefs (several hundred words of vocabulary, subjects, types,
anchors, a share superseded) under a scratch principal, deleted afterwards.
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.models import BeliefType

_AREAS = (
    "billing",
    "auth",
    "search",
    "checkout",
    "inventory",
    "notifications",
    "reporting",
    "onboarding",
    "payments",
    "shipping",
    "analytics",
    "profiles",
    "uploads",
    "exports",
    "scheduling",
    "permissions",
    "webhooks",
    "caching",
    "logging",
    "migrations",
)
_THINGS = (
    "invoice totals",
    "session tokens",
    "retry budget",
    "rate limiter",
    "cache keys",
    "feature flags",
    "database indexes",
    "queue consumers",
    "API pagination",
    "CSV exports",
    "timezone handling",
    "currency rounding",
    "password hashing",
    "email templates",
    "background jobs",
    "connection pool",
    "request timeouts",
    "audit trail",
    "error codes",
    "schema migrations",
    "file uploads",
    "search ranking",
    "webhook signatures",
    "health checks",
    "log levels",
    "metrics labels",
    "test fixtures",
    "build cache",
    "dependency pins",
    "config loading",
)
_CLAIMS = (
    "must be idempotent because clients retry on timeouts",
    "are computed lazily and cached for five minutes",
    "break when the locale uses a comma as decimal separator",
    "should never log personal data",
    "need an explicit transaction around the two writes",
    "are validated against the JSON schema before saving",
    "use exponential backoff with jitter capped at thirty seconds",
    "fail silently if the environment variable is missing",
    "were moved behind the v2 endpoint last quarter",
    "depend on the clock being UTC in every container",
    "are slow without the composite index on tenant and created_at",
    "must be rotated every ninety days by the platform team",
    "leak memory when the generator is not closed",
    "return 409 on a duplicate idempotency key",
    "are rendered server side to keep the bundle small",
    "run in a separate worker pool to protect latency",
    "are read from the replica, so they may lag by seconds",
    "should be feature-flagged until the migration finishes",
    "are tested with the frozen clock fixture",
    "overflow at two billion rows: use bigint",
)
_QUALIFIERS = (
    "",
    " in production",
    " on the write path",
    " on the read path",
    " for EU tenants",
    " since the 3.2 release",
    " during nightly batch runs",
    " for anonymous users",
)


def _statement(rng: random.Random) -> tuple[str, str]:
    thing = rng.choice(_THINGS)
    area = rng.choice(_AREAS)
    claim = rng.choice(_CLAIMS)
    return f"In {area}, {thing} {claim}{rng.choice(_QUALIFIERS)}", f"{area} {thing}"


def scale_beliefs(count: int, projects: int, seed: int = 3) -> Iterator[dict[str, Any]]:
    """Yields belief rows: varied statements, subjects, types, some anchored."""
    rng = random.Random(seed)
    types = list(BeliefType)
    for index in range(count):
        statement, subject = _statement(rng)
        project = rng.randrange(projects)
        row: dict[str, Any] = {
            "statement": f"{statement} (#{index})",
            "subject": subject,
            "project": f"service-{project}",
            "type": rng.choice(types),
            "confidence": round(rng.uniform(0.2, 1.0), 2),
        }
        if rng.random() < 0.2:
            module = rng.randrange(40)
            row["anchor"] = f"python:svc{project}/mod{module}.py::Handler{module}.run#method"
            row["anchor_unverifiable"] = True
        yield row


def run_scale_bench(
    beliefs: int,
    projects: int,
    queries: int = 1_000,
    superseded_share: float = 0.05,
    progress: Callable[[str, int], None] = lambda stage, n: None,
) -> dict[str, Any]:
    """Writes, supersedes, embeds, then times recall; returns the figures."""
    rng = random.Random(11)
    with scratch_memory() as memory:
        started = time.perf_counter()
        ids: list[str] = []
        batch: list[dict[str, Any]] = []
        for row in scale_beliefs(beliefs, projects):
            batch.append(row)
            if len(batch) == 1_000:
                ids.extend(memory.believe_many(batch))
                progress("write", len(batch))
                batch = []
        if batch:
            ids.extend(memory.believe_many(batch))
            progress("write", len(batch))
        write_seconds = time.perf_counter() - started

        started = time.perf_counter()
        superseded = rng.sample(ids, int(len(ids) * superseded_share))
        for old in superseded:
            memory.supersede(old, f"Revised: {_statement(rng)[0]}", reason="bench revision")
        supersede_seconds = time.perf_counter() - started

        started = time.perf_counter()
        embedded = memory.reindex()["belief"]
        embed_seconds = time.perf_counter() - started
        progress("embed", embedded)

        latencies: list[float] = []
        returned: list[int] = []
        for _ in range(queries):
            text, _ = _statement(rng)
            project = f"service-{rng.randrange(projects)}"
            query_started = time.perf_counter()
            result = memory.recall(text, project=project, k=10)
            latencies.append((time.perf_counter() - query_started) * 1000)
            returned.append(len(result.items))
            progress("recall", 1)
    written = beliefs + len(superseded)
    return {
        "beliefs": beliefs,
        "projects": projects,
        "superseded": len(superseded),
        "ingest": {
            "beliefs_per_s_without_embedding": round(beliefs / write_seconds, 1),
            "supersessions_per_s": round(len(superseded) / supersede_seconds, 1),
            "embedded": embedded,
            "embed_seconds": round(embed_seconds, 1),
            "beliefs_per_s_with_embedding": round(
                written / (write_seconds + supersede_seconds + embed_seconds), 1
            ),
        },
        "recall": {
            "queries": queries,
            "p50_ms": round(statistics.median(latencies), 2),
            "p95_ms": round(percentile(latencies, 95), 2),
            "mean_items": round(statistics.fmean(returned), 2),
        },
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
