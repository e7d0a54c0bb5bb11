"""``graphmem bench agents``: many agent processes on one server at once.

Each process count runs for the same time against one Neo4j. Every process is one
agent, a client of its own, of one shared scratch principal, working in a project of
its own: 80% recalls and 20% writes, episodes and beliefs in turn, each with an
idempotency key. Per count the bench prints the operations per second of all agents
together, p50/p95 per operation and how long the clock stamps took (the wait for the
clock included; the 1-process count is the same-run baseline). Last, one agent runs
again beside a bulk writer (batches of 1,000 beliefs back to back): how long a single
write waits on the clock while an import runs, and how the agent's recall holds up
while its view catches up on the import (the writer embeds what it writes, with the
agents' embedder; the agent's view reads the stored vectors).

After each count a check reads the principal back: every seq held by one event, every
acknowledged write present exactly once with one created event, nothing written that
was not acknowledged, and each agent's writes in strictly increasing seq order.

Each count also says what an operation cost in CPU (:mod:`graphmem.bench.cpu`): the
agent processes' own (every thread), the part of it their embedder took, and the
server's, when graphmem runs that server on this machine.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from graphmem.bench.cpu import (
    CpuWindow,
    local_server_pid,
    per_operation_ms,
)
from graphmem.bench.scale import _statement, scale_beliefs
from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.client import GraphMem
from graphmem.errors import GraphMemError, InvalidInput
from graphmem.models import BeliefType
from graphmem.settings import ConnectionSettings, resolve_data_dir
from graphmem.store.bench import AgentsCheck, agents_check
from graphmem.store.clock import CLOCK_WAITS
from graphmem.store.database import Database
from graphmem.store.ids import new_id
from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.counting import CountingEmbedder
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.minilm import MiniLMEmbedder, default_arithmetic
from graphmem.vectors.protocol import Embedder

RECALL_SHARE = 0.8
"""The share of each agent's operations that are recalls; the rest are writes."""
EMBEDDERS = ("minilm", "hashed")
BULK_BATCH = 1_000
"""Rows per batch of the bulk writer that ``--bulk`` runs beside one agent."""
BULK_AGENT = -1
"""The bulk writer's agent number in the outcomes."""
_SEED_BATCH = 1_000
_START_SECONDS = 600
"""How long an agent may take to load its model and views before the bench gives up."""
_OPERATIONS = ("recall", "episode", "belief")


@dataclass(frozen=True)
class _Job:
    """What one agent process is asked to do."""

    principal: str
    agent: int
    project: str
    prefix: str
    seconds: float
    embedder: str
    seed: int


@dataclass
class AgentOutcome:
    """What one agent process did (sent back to the bench)."""

    agent: int
    latencies_ms: dict[str, list[float]] = field(default_factory=dict)
    stamps_ms: list[float] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    """The idempotency keys of the writes acknowledged, in the order written."""
    errors: list[str] = field(default_factory=list)
    cpu_s: float = 0.0
    """CPU seconds the process used while its clock ran, every thread of it."""
    embed_cpu_s: float = 0.0
    """The part of ``cpu_s`` its embedder took (a cached text costs none)."""


def _embedder(name: str) -> tuple[Embedder, CountingEmbedder]:
    """The agents' embedder, and the counter of its model's texts and CPU."""
    if name == "hashed":
        hashed = CountingEmbedder(HashedEmbedder())
        return hashed, hashed
    model = CountingEmbedder(MiniLMEmbedder())
    return CachedEmbedder(model), model


def _write(memory: GraphMem, job: _Job, rng: random.Random, key: str, episode: bool) -> None:
    statement, subject = _statement(rng)
    if episode:
        memory.remember(
            {"project": job.project, "title": statement, "text": subject, "idempotency_key": key}
        )
    else:
        memory.believe(
            statement,
            project=job.project,
            type=rng.choice(list(BeliefType)),
            subject=subject,
            idempotency_key=key,
        )


def _agent(job: _Job, start: Any, outcomes: Any) -> None:
    """One agent process: warms up, waits for the others, then works until its time is up.

    Args:
        job: What to do.
        start: A barrier every agent and the bench wait on before the clock starts.
        outcomes: Where the agent's :class:`AgentOutcome` goes.
    """
    outcome = AgentOutcome(job.agent, {name: [] for name in _OPERATIONS})
    rng = random.Random(job.seed)
    embedder, model = _embedder(job.embedder)
    try:
        with GraphMem(job.principal, embedder=embedder) as memory:
            # Untimed warm-up: the views load, and each write's statements are planned.
            memory.recall(_statement(rng)[0], project=job.project)
            writes = 0
            for warm_up in ("episode", "belief"):
                key = f"{job.prefix}{job.agent}-{writes}"
                writes += 1
                _write(memory, job, rng, key, episode=warm_up == "episode")
                outcome.written.append(key)
            CLOCK_WAITS.drain()
            start.wait()
            deadline = time.monotonic() + job.seconds
            cpu_before, embed_before = time.process_time(), model.cpu_seconds
            while time.monotonic() < deadline:
                started = time.perf_counter()
                try:
                    if rng.random() < RECALL_SHARE:
                        operation = "recall"
                        memory.recall(_statement(rng)[0], project=job.project)
                    else:
                        operation = "episode" if writes % 2 == 0 else "belief"
                        key = f"{job.prefix}{job.agent}-{writes}"
                        writes += 1
                        _write(memory, job, rng, key, episode=operation == "episode")
                        outcome.written.append(key)
                except GraphMemError as error:
                    outcome.errors.append(f"{type(error).__name__}: {error}")
                    continue
                outcome.latencies_ms[operation].append((time.perf_counter() - started) * 1000)
            outcome.cpu_s = time.process_time() - cpu_before
            outcome.embed_cpu_s = model.cpu_seconds - embed_before
        outcome.stamps_ms = [seconds * 1000 for seconds in CLOCK_WAITS.drain()]
    except Exception as error:  # reported by the bench, never lost with the process
        outcome.errors.append(f"{type(error).__name__}: {error}")
        start.abort()
    outcomes.put(outcome)


def _bulk_writer(job: _Job, start: Any, outcomes: Any) -> None:
    """An importer beside the agents: batches of ``BULK_BATCH`` keyed beliefs, back to back.

    It embeds with the agents' embedder, as a writer does (one store, one model): the
    vectors it stores are the ones the agents' views read.

    Args:
        job: Its principal, project, key prefix and time (``agent`` is ``BULK_AGENT``).
        start: The barrier the agents wait on.
        outcomes: Where its :class:`AgentOutcome` goes (``written`` in seq order).
    """
    outcome = AgentOutcome(job.agent, {"bulk_batch": []})
    try:
        with GraphMem(job.principal, embedder=_embedder(job.embedder)[0]) as memory:
            start.wait()
            deadline = time.monotonic() + job.seconds
            batch = 0
            while time.monotonic() < deadline:
                keys = [f"{job.prefix}bulk-{batch}-{row}" for row in range(BULK_BATCH)]
                rows = [
                    {**row, "project": job.project, "idempotency_key": key}
                    for row, key in zip(
                        scale_beliefs(BULK_BATCH, projects=1, seed=batch), keys, strict=True
                    )
                ]
                started = time.perf_counter()
                memory.believe_many(rows)
                outcome.latencies_ms["bulk_batch"].append((time.perf_counter() - started) * 1000)
                outcome.written.extend(keys)
                batch += 1
    except Exception as error:  # reported by the bench, never lost with the process
        outcome.errors.append(f"{type(error).__name__}: {error}")
        start.abort()
    outcomes.put(outcome)


def _spread(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0, "p50_ms": None, "p95_ms": None}
    return {
        "count": len(values),
        "p50_ms": round(statistics.median(values), 2),
        "p95_ms": round(percentile(values, 95), 2),
    }


def check_writes(found: AgentsCheck, outcomes: Sequence[AgentOutcome]) -> dict[str, Any]:
    """The write model's guarantees, checked against what the agents acknowledged.

    Args:
        found: What the principal's graph holds (see :func:`~graphmem.store.bench.agents_check`).
        outcomes: What each agent acknowledged, in its own order.
    """
    acknowledged = [key for outcome in outcomes for key in outcome.written]
    lost = [key for key in acknowledged if found.copies.get(key, 0) == 0]
    duplicated = [key for key, copies in found.copies.items() if copies > 1]
    events_off = [key for key, events in found.created_events.items() if events != 1]
    unordered = [
        outcome.agent
        for outcome in outcomes
        if any(
            found.seqs.get(before, 0) >= found.seqs.get(after, 0)
            for before, after in zip(outcome.written, outcome.written[1:], strict=False)
        )
    ]
    passed = (
        found.events == found.distinct_seqs
        and not lost
        and not duplicated
        and not events_off
        and not unordered
        and found.written == len(acknowledged)
    )
    return {
        "passed": passed,
        "events": found.events,
        "distinct_seqs": found.distinct_seqs,
        "writes_acknowledged": len(acknowledged),
        "writes_found": found.written,
        "lost": len(lost),
        "duplicated": len(duplicated),
        "created_events_not_one": len(events_off),
        "agents_out_of_seq_order": unordered,
    }


def _run_count(
    settings: ConnectionSettings,
    principal: str,
    processes: int,
    seconds: float,
    embedder: str,
    run_id: str,
    server_pid: int | None,
    bulk: bool = False,
) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")  # no driver or thread state inherited
    start = context.Barrier(processes + 1 + int(bulk))
    outcomes_queue = context.Queue()
    prefix = f"agents-{run_id}-{processes}{'-bulk' if bulk else ''}-"
    jobs = [
        _Job(principal, agent, f"agent-{agent}", prefix, seconds, embedder, seed=1_000 + agent)
        for agent in range(processes)
    ]
    workers = [context.Process(target=_agent, args=(job, start, outcomes_queue)) for job in jobs]
    if bulk:
        importer = _Job(principal, BULK_AGENT, "bulk", prefix, seconds, embedder, seed=0)
        workers.append(context.Process(target=_bulk_writer, args=(importer, start, outcomes_queue)))
    for worker in workers:
        worker.start()
    began = time.perf_counter()
    server = CpuWindow(server_pid, seconds)  # the agents' clock: from the start, `seconds`
    try:
        try:
            start.wait()
            began = time.perf_counter()
            server.open()
        except threading.BrokenBarrierError:
            pass  # an agent could not start: its outcome says why
        # Every agent sends one outcome, after its work and before it exits.
        outcomes = [outcomes_queue.get(timeout=seconds + _START_SECONDS) for _ in workers]
        elapsed = time.perf_counter() - began
    finally:
        for worker in workers:
            worker.join()
    outcomes.sort(key=lambda outcome: outcome.agent)
    errors = [error for outcome in outcomes for error in outcome.errors]
    if start.broken:
        raise GraphMemError(f"an agent process could not start: {errors[0]}")
    agents = [outcome for outcome in outcomes if outcome.agent != BULK_AGENT]
    latencies = {
        name: [ms for outcome in agents for ms in outcome.latencies_ms.get(name, [])]
        for name in _OPERATIONS
    }
    operations = sum(len(values) for values in latencies.values())
    keys = [key for outcome in outcomes for key in outcome.written]
    with closing(Database(settings)) as db:
        found = agents_check(db, principal, prefix, keys)
    return {
        "processes": processes,
        "seconds": round(elapsed, 1),
        "operations": operations,
        "operations_per_s": round(operations / elapsed, 1),
        **{name: _spread(values) for name, values in latencies.items()},
        "clock_stamp": _spread([ms for outcome in agents for ms in outcome.stamps_ms]),
        "bulk_batches": _spread(
            [ms for outcome in outcomes for ms in outcome.latencies_ms.get("bulk_batch", [])]
        )
        if bulk
        else None,
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "check": check_writes(found, outcomes),
        "cpu_ms_per_op": {
            "agents": per_operation_ms(sum(outcome.cpu_s for outcome in agents), operations),
            "embedder": per_operation_ms(
                sum(outcome.embed_cpu_s for outcome in agents), operations
            ),
            "server": per_operation_ms(server.used(), operations),
        },
    }


def run_agents_bench(
    counts: Sequence[int],
    seconds: float,
    beliefs: int,
    embedder: str,
    bulk: bool = True,
    progress: Callable[[str], None] = lambda stage: None,
) -> dict[str, Any]:
    """Runs each process count in turn against one scratch principal; returns the figures.

    Args:
        counts: How many agent processes at once, one run each (1 first: the baseline).
        seconds: How long each count runs.
        beliefs: Beliefs written before the first count, so recalls have memory to search.
        embedder: ``minilm`` (the real model) or ``hashed`` (cheap word hashing).
        bulk: Last, one agent again with a bulk writer beside it (batches of
            ``BULK_BATCH`` beliefs): how long its writes wait on the clock then.
        progress: Told the name of each stage as it starts.

    Raises:
        InvalidInput: An unknown embedder, or a count below 1.
    """
    if embedder not in EMBEDDERS:
        raise InvalidInput(
            f"embedder: use one of {', '.join(EMBEDDERS)}", field="embedder", rule="enum"
        )
    if not counts or min(counts) < 1:
        raise InvalidInput("processes: give counts of at least 1", field="processes", rule="min")
    arithmetic = default_arithmetic() if embedder == "minilm" else None  # the agents' too
    run_id = new_id()
    with scratch_memory(_embedder(embedder)[0]) as memory:
        server_pid = local_server_pid(memory.settings, resolve_data_dir())
        progress(f"writing {beliefs:,} beliefs")
        rows = list(scale_beliefs(beliefs, projects=10))
        for offset in range(0, len(rows), _SEED_BATCH):
            memory.believe_many(rows[offset : offset + _SEED_BATCH])
        progress("embedding them")
        memory.recall("warm up the views", k=1)  # the agents load the saved views
        figures = []
        for processes in sorted(set(counts)):
            progress(f"{processes} agent process(es) for {seconds:g} s")
            figures.append(
                _run_count(
                    memory.settings,
                    memory.principal,
                    processes,
                    seconds,
                    embedder,
                    run_id,
                    server_pid,
                )
            )
        beside = None
        if bulk:
            progress(f"1 agent process beside a bulk writer for {seconds:g} s")
            beside = _run_count(
                memory.settings,
                memory.principal,
                1,
                seconds,
                embedder,
                run_id,
                server_pid,
                bulk=True,
            )
    return {
        "embedder": embedder,
        "arithmetic": arithmetic,
        "cores": os.cpu_count(),
        "seed_beliefs": beliefs,
        "recall_share": RECALL_SHARE,
        "counts": figures,
        "beside_bulk_writer": beside,
    }
