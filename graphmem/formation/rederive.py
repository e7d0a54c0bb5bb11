"""Re-derivation (docs/formation.md): form a principal's beliefs again from all its episodes.

Opt-in and explicit. Every belief formation made is retired (explicitly stated
beliefs stay), then every episode is consolidated again, oldest first, under a new
policy version recorded on every belief it forms (with new ids). Corrections and
tombstones are replayed before each commit, so corrections still hold and forgotten
statements stay forgotten. The reset runs in transactions of 1,000 beliefs or episodes
(never one holding the clock for the whole memory) and each episode is another: if it
stops half way, running it again starts over cleanly.

Every episode is looked at again, so every open formation hint is consumed at the end,
each with the episodes on its subject and what they formed (see
:mod:`graphmem.formation.hints`); the order of formation stays oldest first.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from graphmem.formation.extract import Extractor
from graphmem.formation.hints import HintMatcher
from graphmem.formation.pipeline import consolidate
from graphmem.models import MAX_BATCH_ROWS, FormationPolicy, RederivationSummary
from graphmem.store import episodes
from graphmem.store.database import Database
from graphmem.store.formation import reset_formation
from graphmem.store.hints import consume_hints, open_hints
from graphmem.vectors.views import SemanticView

BATCH_EPISODES = 1_000
"""Episodes read per round while re-deriving."""


def rederive(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    extractor: Extractor,
    progress: Callable[[int], None] = lambda done: None,
) -> RederivationSummary:
    """Retires formed beliefs, then consolidates every episode again under ``policy``.

    Args:
        db: The database.
        principal: Whose memory.
        view: The principal's belief view (the novelty gate searches it).
        policy: The formation policy; its ``version`` is recorded on every belief.
        extractor: Where candidates come from.
        progress: Called with the number of episodes done so far.
    """
    started = datetime.now(UTC)
    hints = HintMatcher(open_hints(db, principal, started, MAX_BATCH_ROWS))
    retired = reset_formation(db, principal, policy.version, policy.authority)
    done = created = reinforced = rejected = 0
    while batch := episodes.unconsolidated_ids(db, principal, BATCH_EPISODES):
        for episode in episodes.get_episodes(db, principal, batch):
            on = hints.matching(episode)
            result = consolidate(db, principal, episode, view, policy, extractor)
            hints.record(on, result)
            created += len(result.created)
            reinforced += len(result.reinforced)
            rejected += len(result.rejected)
            done += 1
            progress(done)
    consumed = consume_hints(db, principal, hints.rows(), "rederive", datetime.now(UTC))
    return RederivationSummary(
        policy_version=policy.version,
        retired=retired,
        episodes=done,
        created=created,
        reinforced=reinforced,
        rejected=rejected,
        hints=len(consumed),
    )
