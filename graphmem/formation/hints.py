"""Formation hints consumed (docs/formation.md): look for candidates where recall missed.

A hint names a subject recall kept missing on (see :meth:`graphmem.GraphMem.hints`).
Consuming it means looking for candidates on that subject: the episodes not yet
consolidated whose words hold every content word of the subject (analysed as the
lexical arm analyses text: lower-cased, stemmed, function words dropped from the
subject) go through the normal formation pipeline, oldest first. An episode already
consolidated has given all its candidates, so it is not looked at again. The hint is
then marked consumed, with the episodes looked at and the beliefs they formed or
reinforced, whether or not anything came of it. Re-derivation consolidates every
episode, so it consumes every open hint, each with the episodes that mention it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from graphmem.formation.extract import Extractor
from graphmem.formation.pipeline import consolidate
from graphmem.models import (
    ConsolidationResult,
    Episode,
    FormationHint,
    FormationPolicy,
    HintOutcome,
)
from graphmem.recall.terms import document_terms, query_terms
from graphmem.store import episodes as episode_store
from graphmem.store.database import Database
from graphmem.store.hints import consume_hints, open_hints
from graphmem.vectors.views import SemanticView

HINTS_PER_RUN = 100
"""Open hints one consolidation run consumes (the oldest first)."""
EPISODE_SCAN = 1_000
"""Unconsolidated episodes (the oldest) one run looks through for a hint's subject."""
EPISODE_BATCH = 200
"""Episodes read per round."""


def subject_terms(subject: str) -> frozenset[str]:
    """The content words of a hint's subject, analysed like a recall query."""
    return frozenset(query_terms(subject))


def episode_terms(episode: Episode) -> frozenset[str]:
    """Every word of an episode's title, text and structured items, analysed."""
    parts = [
        episode.title,
        episode.text or "",
        *episode.observations,
        *episode.inferences,
        *episode.decisions,
        *episode.failed_attempts,
        *episode.unresolved,
    ]
    return frozenset(document_terms("\n".join(parts)))


def mentions(subject: frozenset[str], words: frozenset[str]) -> bool:
    """Whether text with these words is on a subject: it holds every content word."""
    return bool(subject) and subject <= words


class HintMatcher:
    """Collects, per hint, the episodes on its subject and what formation made of them."""

    def __init__(self, hints: Iterable[FormationHint]) -> None:
        self._hints = [(hint, subject_terms(hint.subject)) for hint in hints]
        self._results: dict[str, list[ConsolidationResult]] = {h.id: [] for h, _ in self._hints}

    def __bool__(self) -> bool:
        return bool(self._hints)

    def matching(self, episode: Episode) -> list[str]:
        """The ids of the hints whose subject ``episode`` is on."""
        if not self._hints:
            return []
        words = episode_terms(episode)
        return [hint.id for hint, terms in self._hints if mentions(terms, words)]

    def record(self, hint_ids: Sequence[str], result: ConsolidationResult) -> None:
        """Notes what consolidating one episode on these hints' subjects did."""
        for hint_id in hint_ids:
            self._results[hint_id].append(result)

    def outcomes(self) -> list[HintOutcome]:
        """One outcome per hint, in the order the hints were given."""
        return [
            HintOutcome(hint_id=hint.id, subject=hint.subject, results=self._results[hint.id])
            for hint, _ in self._hints
        ]

    def rows(self) -> list[dict[str, str | list[str]]]:
        """What ``hint/consume`` records on each hint."""
        return [
            {"id": outcome.hint_id, "episodes": outcome.episodes, "formed": outcome.formed}
            for outcome in self.outcomes()
        ]


def consume(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    extractor: Extractor,
    now: datetime,
    limit: int = HINTS_PER_RUN,
) -> list[HintOutcome]:
    """Consumes the open hints (the oldest ``limit``): consolidates the episodes on them.

    The unconsolidated episodes on a hint's subject are consolidated oldest first;
    returns what each consumed hint led to. A hint that another run consumed meanwhile
    is left out of the result.

    Raises:
        ConcurrentWrite: Concurrent writers kept changing what an episode's decisions
            rest on (see :func:`graphmem.formation.pipeline.consolidate`).
    """
    matcher = HintMatcher(open_hints(db, principal, now, limit))
    if not matcher:
        return []
    ids = episode_store.unconsolidated_ids(db, principal, EPISODE_SCAN)
    for start in range(0, len(ids), EPISODE_BATCH):
        for episode in episode_store.get_episodes(
            db, principal, ids[start : start + EPISODE_BATCH]
        ):
            on = matcher.matching(episode)
            if on:
                matcher.record(on, consolidate(db, principal, episode, view, policy, extractor))
    consumed = set(consume_hints(db, principal, matcher.rows(), "consolidate", now))
    return [outcome for outcome in matcher.outcomes() if outcome.hint_id in consumed]
