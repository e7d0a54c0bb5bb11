"""``graphmem bench formation``: does memory flatten when sessions repeat themselves?

A pool of facts (an area, a component, a choice), each in three phrasings. Every
session observes a seeded random handful of them in a random phrasing and is
consolidated. Reported: live beliefs after each session (a working novelty gate
makes this flatten rather than grow linearly), the duplicate rate at the end (live
beliefs that repeat a fact another live belief already states), wrong merges (a
candidate that reinforced a belief of another fact), and consolidation time per
episode. Everything runs under a scratch principal that is deleted afterwards.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.models import MAX_BATCH_ROWS

_AREAS = ("billing", "search", "auth", "checkout", "reporting", "notifications")
_CHOICES = {
    "database": ("Postgres", "MySQL", "SQLite", "CockroachDB", "MongoDB", "DynamoDB"),
    "message queue": ("Kafka", "RabbitMQ", "SQS", "NATS", "Redis Streams", "Pulsar"),
    "cache": ("Redis", "Memcached", "Varnish", "an in-process LRU", "Hazelcast", "Caffeine"),
    "deploy target": ("Kubernetes", "ECS", "Nomad", "Fly.io", "bare VMs", "Lambda"),
    "CI provider": ("GitHub Actions", "GitLab CI", "Buildkite", "CircleCI", "Jenkins", "Drone"),
}
_PHRASINGS = (
    "The {thing} for {area} is {value}",
    "{area} uses {value} as its {thing}",
    "For {area} we run {value} as the {thing}",
)


def fact_pool() -> list[tuple[str, ...]]:
    """Every fact in its phrasings: one (area, thing) slot each, 30 facts."""
    pool = []
    for thing, values in _CHOICES.items():
        for area, value in zip(_AREAS, values, strict=True):
            pool.append(tuple(p.format(thing=thing, area=area, value=value) for p in _PHRASINGS))
    return pool


def run_formation_bench(
    sessions: int = 50,
    per_session: int = 8,
    seed: int = 5,
    progress: Callable[[int], None] = lambda done: None,
) -> dict[str, Any]:
    """Consolidates ``sessions`` sessions of repeated facts; returns the figures."""
    rng = random.Random(seed)
    pool = fact_pool()
    fact_of = {phrasing: index for index, phrasings in enumerate(pool) for phrasing in phrasings}
    live_per_session: list[int] = []
    timings: list[float] = []
    wrong_merges = merges = 0
    seen: set[int] = set()
    with scratch_memory() as memory:
        belief_fact: dict[str, int] = {}
        for session in range(sessions):
            picked = rng.sample(range(len(pool)), per_session)
            seen.update(picked)
            said = [rng.choice(pool[index]) for index in picked]
            episode = memory.remember(
                {"project": "bench", "title": f"session {session}", "observations": said}
            )
            started = time.perf_counter()
            result = memory.consolidate(episode)
            timings.append((time.perf_counter() - started) * 1000)
            for belief_id in result.created:
                belief_fact[belief_id] = fact_of[memory.get_belief(belief_id).statement]
            for rejected in result.rejected:
                if rejected.gate == "novelty" and rejected.similar_to is not None:
                    merges += 1
                    wrong = belief_fact[rejected.similar_to] != fact_of[rejected.statement]
                    wrong_merges += wrong
            live_per_session.append(len(memory.list_beliefs(limit=MAX_BATCH_ROWS)))
            progress(1)
        live = memory.list_beliefs(limit=MAX_BATCH_ROWS)
    copies = Counter(fact_of[belief.statement] for belief in live)
    duplicates = sum(count - 1 for count in copies.values())
    fifth = max(1, sessions // 5)
    first, last = live_per_session[:fifth], live_per_session[-fifth:]
    return {
        "sessions": sessions,
        "facts_in_pool": len(pool),
        "facts_seen": len(seen),
        "observations": sessions * per_session,
        "live_beliefs_per_session": live_per_session,
        "growth_per_session": {
            "first_fifth": round((first[-1] - first[0]) / max(1, len(first) - 1), 2),
            "last_fifth": round((last[-1] - last[0]) / max(1, len(last) - 1), 2),
        },
        "live_beliefs": len(live),
        "duplicate_rate": round(duplicates / max(1, len(live)), 4),
        "merges": merges,
        "wrong_merges": wrong_merges,
        "consolidation_ms": {
            "p50": round(statistics.median(timings), 2),
            "max": round(max(timings), 2),
        },
    }
