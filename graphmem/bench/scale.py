"""``graphmem bench scale``: ingest and recall latency as memory grows, on 2 cores.

Synthetic but varied beliefs (several hundred words of vocabulary, subjects, types,
20% anchored, 5% superseded) under a scratch principal per size, deleted afterwards.
Each size prints recall p50/p95, the client's memory, the FAISS view's bytes and the
Neo4j store's size. Sizes up to ``REAL_EMBEDDER_MAX`` embed with MiniLM; above it the
cheap :class:`~graphmem.vectors.hashed.HashedEmbedder` runs unless asked otherwise (a
million statements through MiniLM take about two hours here), and every size says
which embedder it used.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile, rss_mb
from graphmem.client import GraphMem
from graphmem.errors import InvalidInput
from graphmem.models import BeliefType
from graphmem.provision.manager import managed_home
from graphmem.settings import ConnectionSettings, read_connection_record, resolve_data_dir
from graphmem.store.database import Database
from graphmem.store.events import view_events
from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.counting import CountingEmbedder
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.minilm import MODEL_ID, MiniLMEmbedder
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.views import SemanticView, views_directory

REAL_EMBEDDER_MAX = 100_000
"""The largest size ``--embedder auto`` embeds with MiniLM."""
EMBEDDER_CHOICES = ("auto", "minilm", "hashed")
SUPERSEDED_SHARE = 0.05
"""The share of each size's beliefs superseded, one at a time."""
FRESH_CLIENT_QUERIES = 100
"""Recalls the fresh client process makes before its memory is read."""
EMBED_SAMPLE = 2_000
"""How many of the size's statements the embedder alone embeds: the rate that ingest
with embedding is compared with, measured in the same run."""

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
    superseded_share: float = SUPERSEDED_SHARE,
    embedder: Embedder | None = None,
    progress: Callable[[str, int], None] = lambda stage, n: None,
    finished: Callable[[dict[str, Any]], None] = lambda figures: None,
) -> dict[str, Any]:
    """Writes, supersedes, embeds, then times recall at one size; returns the figures.

    Args:
        beliefs: How many beliefs to write.
        projects: How many projects they spread over.
        queries: How many recalls to time.
        superseded_share: The share of beliefs superseded one at a time.
        embedder: The embedder (None: the default MiniLM).
        progress: Called with (stage, how many more done).
        finished: Called with the figures before the scratch principal is deleted, so
            a failure to delete it (reported after) does not lose them.
    """
    rng = random.Random(11)
    with scratch_memory(embedder) as memory:
        store_before = _store_bytes(memory.settings)
        started = time.perf_counter()
        ids: list[str] = []
        batch: list[dict[str, Any]] = []
        sample: list[str] = []
        for row in scale_beliefs(beliefs, projects):
            if len(sample) < EMBED_SAMPLE:
                sample.append(row["statement"])
            batch.append(row)
            if len(batch) == 1_000:
                ids.extend(memory.believe_many(batch))
                progress("write", len(batch))
                batch = []
        if batch:
            ids.extend(memory.believe_many(batch))
            progress("write", len(batch))
        write_seconds = time.perf_counter() - started
        rss_after = {"write": rss_mb()}

        started = time.perf_counter()
        superseded = rng.sample(ids, int(len(ids) * superseded_share))
        for old in superseded:
            memory.supersede(old, f"Revised: {_statement(rng)[0]}", reason="bench revision")
            progress("supersede", 1)
        supersede_seconds = time.perf_counter() - started
        rss_after["supersede"] = rss_mb()

        # The first recall catches the views up from the vectors the writes stored.
        # (reindex() would also relink every entity and rescan every text for secrets:
        # at 1M beliefs its relink did 81k nodes in its first ~5 minutes, an hour in all.)
        started = time.perf_counter()
        _catch_up(memory)
        catch_up_seconds = time.perf_counter() - started
        rss_after["catch_up"] = rss_mb()
        written = beliefs + len(superseded)
        progress("catch up", written)
        alone_per_s = _embedder_alone_per_s(embedder, sample)
        built = _view_from_empty(memory, embedder)
        progress("view from empty", written)
        rss_after["view_from_empty"] = rss_mb()

        latencies: list[float] = []
        returned: list[int] = []
        traced: list[str] = []
        asked: list[tuple[str, str]] = []
        for _ in range(queries):
            text, _ = _statement(rng)
            project = f"service-{rng.randrange(projects)}"
            asked.append((text, project))
            query_started = time.perf_counter()
            result = memory.recall(text, project=project, k=10)
            latencies.append((time.perf_counter() - query_started) * 1000)
            returned.append(len(result.items))
            traced.append(result.trace_id)
            progress("recall", 1)
        steps = _step_medians(memory, traced)
        views = views_directory(resolve_data_dir() / "views", memory.principal)
        faiss_bytes = sum(path.stat().st_size for path in views.glob("belief-*.faiss"))
        lexical_bytes = sum(path.stat().st_size for path in views.glob("belief-lexical.npz"))
        rss_after["recall"] = rss_mb()
        fresh = _fresh_client(memory.principal, embedder, asked[:FRESH_CLIENT_QUERIES])
        store_after = _store_bytes(memory.settings)
        with_embedding = written / (write_seconds + supersede_seconds + catch_up_seconds)
        p50 = statistics.median(latencies)
        figures = {
            "beliefs": beliefs,
            "projects": projects,
            "superseded": len(superseded),
            "embedder": embedder.model_id if embedder is not None else MODEL_ID,
            "ingest": {
                "beliefs_per_s": round(beliefs / write_seconds, 1),
                "supersessions_per_s": round(len(superseded) / supersede_seconds, 1),
                "written": written,
                "catch_up_seconds": round(catch_up_seconds, 1),
                "beliefs_per_s_with_catch_up": round(with_embedding, 1),
                "embedder_alone_per_s": round(alone_per_s, 1),
                "with_catch_up_over_embedder_alone": round(with_embedding / alone_per_s, 3),
            },
            "view_from_empty": {
                **built,
                "over_embedder_alone": round(built["vectors_per_s"] / alone_per_s, 1),
            },
            "recall": {
                "queries": queries,
                "p50_ms": round(p50, 2),
                "p95_ms": round(percentile(latencies, 95), 2),
                "p95_over_p50": round(percentile(latencies, 95) / p50, 2),
                "mean_items": round(statistics.fmean(returned), 2),
                "step_p50_ms": steps,
            },
            "client_rss_mb": rss_after["recall"],
            "client_rss_mb_after": rss_after,
            "fresh_client_rss_mb": fresh,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "faiss_bytes": faiss_bytes,
            "lexical_file_bytes": lexical_bytes,
            "neo4j_store_bytes": store_after,
            "neo4j_store_growth_bytes": (
                store_after - store_before
                if store_after is not None and store_before is not None
                else None
            ),
        }
        finished(figures)
    return figures


def run_growth_bench(
    sizes: Sequence[int],
    projects: int,
    queries: int = 1_000,
    embedder: str = "auto",
    progress: Callable[[int, str, int], None] = lambda size, stage, n: None,
    finished: Callable[[dict[str, Any]], None] = lambda figures: None,
) -> list[dict[str, Any]]:
    """Runs :func:`run_scale_bench` at each size, smallest first; one figure set each.

    Args:
        sizes: The belief counts.
        projects: Projects per size.
        queries: Recalls timed per size.
        embedder: ``minilm``, ``hashed``, or ``auto`` (MiniLM up to
            ``REAL_EMBEDDER_MAX`` beliefs, hashed above).
        progress: Called with (size, stage, how many more done).
        finished: Called with each size's figures once measured (before its scratch
            principal is deleted), so a failure at a larger size (an hour in, at 1M)
            keeps the smaller ones.

    Raises:
        InvalidInput: ``embedder`` is none of ``EMBEDDER_CHOICES``.
    """
    if embedder not in EMBEDDER_CHOICES:
        raise InvalidInput(
            f"embedder: use one of {', '.join(EMBEDDER_CHOICES)}", field="embedder", rule="enum"
        )
    figures = []
    for size in sorted(sizes):
        cheap = embedder == "hashed" or (embedder == "auto" and size > REAL_EMBEDDER_MAX)
        # A fresh embedder per size: the sizes share their first statements, and a
        # cache carried over would make the larger size's embedding look faster.
        fresh: Embedder = HashedEmbedder() if cheap else CachedEmbedder(MiniLMEmbedder())
        figures.append(
            run_scale_bench(
                size,
                projects,
                queries,
                embedder=fresh,
                progress=partial(progress, size),
                finished=finished,
            )
        )
    return figures


def _catch_up(memory: GraphMem) -> None:
    """Recalls until the views have caught up with every write.

    A recall catches up a slice of the log; its trace says how many events it applied.
    """
    while True:
        result = memory.recall("catch the views up", k=1)
        if memory.get_trace(result.trace_id, operator=True)["operator_view_lag"] == 0:
            return


def _step_medians(memory: GraphMem, trace_ids: Sequence[str]) -> dict[str, float]:
    """Each recall step's median time (ms) over the traces: where a recall's time goes.

    A step some recalls skip (``lexical_again`` runs only after a write) is the median
    over the recalls that ran it. Steps run in parallel, so they need not sum to the total.
    """
    times: dict[str, list[float]] = {}
    for trace_id in trace_ids:
        latency = memory.get_trace(trace_id, operator=True)["operator_latency_ms"]
        for step, ms in json.loads(str(latency)).items():
            times.setdefault(step, []).append(float(ms))
    return {step: round(statistics.median(each), 2) for step, each in sorted(times.items())}


def _view_from_empty(memory: GraphMem, embedder: Embedder | None) -> dict[str, Any]:
    """Builds the belief view from nothing, as a new or restarted server does, and times it.

    It reads the vectors the writes stored; the embedder it is given counts the texts it
    is asked for, which should be none.
    """
    counting = CountingEmbedder(embedder if embedder is not None else MiniLMEmbedder())
    database = Database(memory.settings)
    try:
        view = SemanticView(
            partial(view_events, database, memory.principal),
            memory.principal,
            "belief",
            counting,
        )
        started = time.perf_counter()
        view.sync()
        seconds = time.perf_counter() - started
    finally:
        database.close()
    vectors = int(view.index.ntotal)  # one per belief: a statement fits one window
    return {
        "vectors": vectors,
        "seconds": round(seconds, 2),
        "vectors_per_s": round(vectors / max(seconds, 1e-9), 1),
        "texts_embedded": counting.texts,
    }


def _uncached(embedder: Embedder | None) -> Embedder | None:
    """The embedder under the bench's cache, if it has one."""
    return embedder.inner if isinstance(embedder, CachedEmbedder) else embedder


def _embedder_alone_per_s(embedder: Embedder | None, texts: Sequence[str]) -> float:
    """How fast the bench's embedder alone embeds ``texts``, in texts per second.

    Its cache, if it has one, is bypassed: ingest has just filled it with these texts.
    """
    raw = _uncached(embedder)
    model = raw if raw is not None else MiniLMEmbedder()
    started = time.perf_counter()
    model.embed(list(texts))
    return len(texts) / max(time.perf_counter() - started, 1e-9)


def _fresh_client(
    principal: str, embedder: Embedder | None, queries: list[tuple[str, str]]
) -> dict[str, float | None]:
    """A new client process's memory on this memory (:mod:`graphmem.bench.fresh_client`)."""
    raw = _uncached(embedder)
    request = {
        "principal": principal,
        "embedder": "hashed" if isinstance(raw, HashedEmbedder) else "minilm",
        "queries": queries,
    }
    done = subprocess.run(
        [sys.executable, "-m", "graphmem.bench.fresh_client"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float | None] = json.loads(done.stdout)
    return figures


def _store_bytes(settings: ConnectionSettings) -> int | None:
    """The managed Neo4j's store and transaction logs, in bytes.

    The whole database, every principal's data included; the growth across one size's
    run is what that size added (Neo4j does not shrink its files when data goes).
    None unless the client talks to the managed server of the data directory.
    """
    data_dir = resolve_data_dir()
    record = read_connection_record(data_dir)
    if record is None or record.get("uri") != settings.uri:
        return None
    data = managed_home(data_dir) / "data"
    parts = [data / "databases" / settings.database, data / "transactions" / settings.database]
    if not all(part.is_dir() for part in parts):
        return None
    return sum(path.stat().st_size for part in parts for path in part.rglob("*") if path.is_file())
