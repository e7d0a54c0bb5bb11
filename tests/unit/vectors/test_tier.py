"""The transient tier's eviction plan and budget setting (no database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import ConfigError
from graphmem.vectors.tier import CacheEntry, cache_budget, plan_eviction


def _entry(name: str, size: int, used: float) -> CacheEntry:
    return CacheEntry(name, size, used, (Path(name),))


def test_least_recently_used_go_first_until_it_fits() -> None:
    entries = [_entry("old", 40, 1.0), _entry("mid", 30, 2.0), _entry("new", 20, 3.0)]
    evict, keep, over = plan_eviction(entries, budget=55)
    assert [e.name for e in evict] == ["old"]
    assert [e.name for e in keep] == ["mid", "new"] and not over


def test_the_most_recent_entry_is_kept_even_over_budget() -> None:
    entries = [_entry("old", 40, 1.0), _entry("new", 100, 2.0)]
    evict, keep, over = plan_eviction(entries, budget=10)
    assert [e.name for e in evict] == ["old"] and [e.name for e in keep] == ["new"]
    assert over


def test_a_saving_principals_views_are_kept_and_others_go_first() -> None:
    entries = [
        _entry("aaa/belief-lexical", 40, 1.0),
        _entry("bbb/belief-lexical", 30, 2.0),
        _entry("aaa/belief-minilm", 100, 3.0),
    ]
    evict, keep, over = plan_eviction(entries, budget=50, protected="aaa")
    assert [e.name for e in evict] == ["bbb/belief-lexical"]
    assert [e.name for e in keep] == ["aaa/belief-lexical", "aaa/belief-minilm"] and over
    # Unprotected, the same principal's older view would be evicted by its newer one.
    evict, _, _ = plan_eviction(entries, budget=50)
    assert [e.name for e in evict] == ["aaa/belief-lexical", "bbb/belief-lexical"]


def test_nothing_to_evict_within_budget() -> None:
    assert plan_eviction([_entry("a", 5, 1.0)], budget=5) == ([], [_entry("a", 5, 1.0)], False)
    assert plan_eviction([], budget=0) == ([], [], False)


def test_budget_precedence_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHMEM_CACHE_BUDGET_MB", raising=False)
    assert cache_budget() == 256 * 1024 * 1024
    monkeypatch.setenv("GRAPHMEM_CACHE_BUDGET_MB", "1.5")
    assert cache_budget() == int(1.5 * 1024 * 1024)
    assert cache_budget(2) == 2 * 1024 * 1024  # the argument wins
    monkeypatch.setenv("GRAPHMEM_CACHE_BUDGET_MB", "lots")
    with pytest.raises(ConfigError) as caught:
        cache_budget()
    assert caught.value.details["field"] == "cache_budget_mb"
