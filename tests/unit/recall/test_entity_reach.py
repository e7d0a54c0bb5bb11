"""The graph arm's order when some nodes are reached through shared entities."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.recall.arms import ENTITY_REACH, reached_from
from graphmem.store.recall import Reach


@dataclass(frozen=True)
class _Node:
    id: str
    seq: int
    reached: tuple[Reach, ...]


def test_at_one_distance_rarer_shared_names_come_first_then_seed_rank() -> None:
    hops = ENTITY_REACH.hops
    found = [
        _Node("sibling", 1, (Reach(seed=10, hops=hops),)),
        _Node("common", 2, (Reach(seed=10, hops=hops, rarity=0.05),)),
        _Node("rare", 3, (Reach(seed=20, hops=hops, rarity=0.5),)),
        _Node("near", 4, (Reach(seed=20, hops=1),)),
    ]
    assert reached_from(found, [10, 20]) == ["near", "rare", "common", "sibling"]


def test_the_walk_skips_common_names_and_stays_bounded() -> None:
    assert 0 < ENTITY_REACH.max_share < 1
    assert ENTITY_REACH.max_mentions > 1 and ENTITY_REACH.per_seed > 0
