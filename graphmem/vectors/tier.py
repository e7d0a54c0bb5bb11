"""The transient tier's byte budget (docs/formation.md): derived files, least recently used out.

The transient tier is what can be rebuilt from the graph: the views under
``<data dir>/views`` (one entry per principal, surface and kind — FAISS semantic or
BM25 lexical: a data file and its meta file). Durable memory lives in Neo4j and is
never touched here. A sweep evicts whole entries, least recently used first, until
the tier fits the budget; the most recently used entry is always kept, and the sweep
says when that still leaves it over budget.
An evicted view is rebuilt from the ``:MemoryEvent`` log the next time it is used.

Recency is the meta file's modification time: a view touches it when it is loaded
and whenever it saves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from graphmem.errors import ConfigError

DEFAULT_BUDGET_MB = 256.0
BUDGET_ENV = "GRAPHMEM_CACHE_BUDGET_MB"
VIEW_DATA_SUFFIXES = (".faiss", ".npz")
"""A view's data file beside its ``.json`` meta: FAISS (semantic) or numpy (lexical)."""


@dataclass(frozen=True)
class CacheEntry:
    """One derived view on disk."""

    name: str
    """``<principal digest>/<surface>-<model id>``."""
    bytes: int
    last_used: float
    files: tuple[Path, ...]


@dataclass(frozen=True)
class SweepReport:
    """What a sweep found and did."""

    budget_bytes: int
    before_bytes: int
    after_bytes: int
    evicted: list[str]
    kept: list[str]
    over_budget: bool
    """True when even the most recently used entry alone exceeds the budget."""


def cache_budget(budget_mb: float | None = None) -> int:
    """The budget in bytes: the argument, else ``GRAPHMEM_CACHE_BUDGET_MB``, else 256 MB.

    Raises:
        ConfigError: The value is not a number ≥ 0.
    """
    raw: object = budget_mb if budget_mb is not None else os.environ.get(BUDGET_ENV)
    if raw is None:
        return int(DEFAULT_BUDGET_MB * 1024 * 1024)
    try:
        value = float(str(raw))
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ConfigError(
            f"{BUDGET_ENV}: {raw!r} is not a size in MB (a number ≥ 0)",
            field="cache_budget_mb",
            rule="non_negative",
        )
    return int(value * 1024 * 1024)


def cache_entries(views_dir: Path) -> list[CacheEntry]:
    """Every view under ``views_dir``, least recently used first (ties by name)."""
    entries = []
    for meta in sorted(views_dir.glob("*/*.json")):
        data = (meta.with_suffix(suffix) for suffix in VIEW_DATA_SUFFIXES)
        files = tuple(path for path in (*data, meta) if path.is_file())
        try:
            size = sum(path.stat().st_size for path in files)
            last_used = meta.stat().st_mtime
        except FileNotFoundError:  # removed by another process meanwhile
            continue
        name = f"{meta.parent.name}/{meta.stem}"
        entries.append(CacheEntry(name, size, last_used, files))
    return sorted(entries, key=lambda entry: (entry.last_used, entry.name))


def plan_eviction(
    entries: list[CacheEntry], budget: int, protected: str | None = None
) -> tuple[list[CacheEntry], list[CacheEntry], bool]:
    """Which entries to evict so the rest fits ``budget``: (evict, keep, over budget).

    ``entries`` are least recently used first. The most recently used is always kept,
    and so is every entry under the principal directory ``protected``: a view that
    saves protects its principal's other views, which recall uses with it. (Without
    that, a principal whose views together exceed the budget had its lexical and
    semantic views evict each other at every save, and each process rebuilt one from
    the event log: at 1M beliefs, 9 minutes.)
    """
    total = sum(entry.bytes for entry in entries)
    evict: list[CacheEntry] = []
    for entry in entries[:-1]:
        if total <= budget:
            break
        if protected is not None and entry.name.split("/", 1)[0] == protected:
            continue
        evict.append(entry)
        total -= entry.bytes
    keep = [entry for entry in entries if entry not in evict]
    return evict, keep, total > budget


def sweep(views_dir: Path, budget: int, protected: str | None = None) -> SweepReport:
    """Evicts least recently used views until the tier fits ``budget``.

    Args:
        views_dir: The views directory.
        budget: Bytes the tier may hold.
        protected: A principal directory (``views_directory(...).name``) whose entries
            stay (see :func:`plan_eviction`).
    """
    entries = cache_entries(views_dir)
    evict, keep, over = plan_eviction(entries, budget, protected)
    for entry in evict:
        for path in entry.files:
            path.unlink(missing_ok=True)
    return SweepReport(
        budget_bytes=budget,
        before_bytes=sum(entry.bytes for entry in entries),
        after_bytes=sum(entry.bytes for entry in keep),
        evicted=[entry.name for entry in evict],
        kept=[entry.name for entry in keep],
        over_budget=over,
    )
