"""The graph arm's score of nodes reached through shared entities."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.recall.arms import ENTITY_REACH, HOP_DECAY, spread
from graphmem.store.recall import Reach


@dataclass(frozen=True)
class _Node:
    id: str
    seq: int
    reached: tuple[Reach, ...]


def test_a_shared_name_counts_as_its_distance_from_a_strong_seed() -> None:
    assert HOP_DECAY.get(ENTITY_REACH.hops, 0.0) > 0  # entity reach is never worth nothing
    found = [
        _Node("named", 1, (Reach(seed=10, hops=ENTITY_REACH.hops),)),
        _Node("next", 2, (Reach(seed=20, hops=1),)),
    ]
    scores = spread(found, {10: 1.0, 20: 0.2})
    assert scores == {1: HOP_DECAY[ENTITY_REACH.hops], 2: 0.2 * HOP_DECAY[1]}
    assert scores[1] > scores[2]  # the best hit's shared name beats a weak seed's next turn


def test_the_walk_skips_common_names_and_stays_bounded() -> None:
    assert 0 < ENTITY_REACH.max_share < 1
    assert ENTITY_REACH.max_mentions > 1 and ENTITY_REACH.per_seed > 0
