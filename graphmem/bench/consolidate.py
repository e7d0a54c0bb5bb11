"""``graphmem bench consolidate``: what the largest episode costs to consolidate.

Each round consolidates, under a scratch principal, a typical small episode (three
short observations, a decision) as the baseline, then a maximum-size one (``MAX_ITEMS``
items of ``MAX_ITEM_CHARS`` characters in each of observations, inferences, decisions
and failed attempts). Texts are fresh every round (seeded), so no embedding is cached.
Reported: the median seconds of each (wall clock, and this process's CPU time, which a
busy shared machine inflates less) and their ratio.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from graphmem.bench.scratch import scratch_memory
from graphmem.formation.gates import CONSIDERED_PER_EPISODE
from graphmem.models import MAX_ITEM_CHARS, MAX_ITEMS

PARTS = ("observations", "inferences", "decisions", "failed_attempts")
_WORDS = tuple(
    f"{stem}{n}" for stem in ("build", "cache", "queue", "shard", "lock") for n in range(400)
)


def _item(rng: random.Random, label: str, size: int) -> str:
    text = f"{label}: " + " ".join(rng.choice(_WORDS) for _ in range(size // 4))
    return text[:size]


def small_episode(rng: random.Random, round_number: int) -> dict[str, Any]:
    """A typical episode: a few short observations and one decision."""
    return {
        "project": "bench",
        "kind": "task",
        "title": f"small {round_number}",
        "observations": [_item(rng, f"fact {round_number}.{i}", 80) for i in range(3)],
        "decisions": [_item(rng, f"choice {round_number}", 80)],
    }


def largest_episode(rng: random.Random, round_number: int) -> dict[str, Any]:
    """The largest episode the limits allow."""
    return {
        "project": "bench",
        "kind": "task",
        "title": f"largest {round_number}",
        **{
            part: [
                _item(rng, f"{part} {round_number}.{i}", MAX_ITEM_CHARS) for i in range(MAX_ITEMS)
            ]
            for part in PARTS
        },
    }


def run_consolidate_bench(
    rounds: int = 3, seed: int = 7, progress: Callable[[int], None] = lambda done: None
) -> dict[str, Any]:
    """Times ``rounds`` small and largest consolidations; returns the figures."""
    rng = random.Random(seed)
    small: list[float] = []
    largest: list[float] = []
    largest_cpu: list[float] = []
    created = rejected = 0
    with scratch_memory() as memory:
        memory.consolidate(memory.remember(small_episode(rng, -1)))  # loads the model
        for round_number in range(rounds):
            for timings, episode in (
                (small, small_episode(rng, round_number)),
                (largest, largest_episode(rng, round_number)),
            ):
                episode_id = memory.remember(episode)
                started, cpu = time.perf_counter(), time.process_time()
                result = memory.consolidate(episode_id)
                timings.append(time.perf_counter() - started)
            largest_cpu.append(time.process_time() - cpu)
            created, rejected = len(result.created), len(result.rejected)
            progress(1)
    small_s, largest_s = statistics.median(small), statistics.median(largest)
    return {
        "rounds": rounds,
        "candidates": len(PARTS) * MAX_ITEMS,
        "considered_at_most": CONSIDERED_PER_EPISODE,
        "largest_created": created,
        "largest_rejected": rejected,
        "small_s": round(small_s, 3),
        "largest_s": round(largest_s, 3),
        "largest_max_s": round(max(largest), 3),
        "largest_cpu_s": round(statistics.median(largest_cpu), 3),
        "ratio": round(largest_s / small_s, 1) if small_s else None,
    }
