"""Consolidation (docs/formation.md): one episode through the gates, then one commit.

Deciding is :func:`graphmem.formation.gates.decide`, over what a store-backed
:class:`~graphmem.formation.gates.FormationContext` reads (tombstones, corrections,
live neighbours in the semantic view, slot holders, held-back candidates).
Committing is :func:`graphmem.store.formation.commit_formation`, which re-checks
under the clock lock that every belief it supersedes, conflicts with or reinforces is
still live. If one is not (another writer got there first), the whole episode is
decided again.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.errors import ConcurrentWrite
from graphmem.formation.extract import Extractor
from graphmem.formation.gates import Decision, Neighbours, decide
from graphmem.models import (
    Authority,
    Conflict,
    ConsolidationResult,
    Episode,
    FormationPolicy,
    Supersession,
)
from graphmem.store import formation as store
from graphmem.store.database import Database
from graphmem.store.embeddings import Encoder
from graphmem.store.formation import (
    HeldBack,
    LiveBelief,
    Slot,
    StaleDecision,
    StoredCorrection,
    commit_formation,
)
from graphmem.vectors.protocol import Vectors
from graphmem.vectors.stored import encoder
from graphmem.vectors.views import SemanticView

NOVELTY_NEIGHBOURS = 10
"""How many nearest *live* beliefs the novelty gate compares each candidate with."""
NOVELTY_MAX_FETCH = 2_560
"""The widest FAISS search it makes to find them past superseded and retired vectors."""
UNTRUSTED_LOOKBACK = 500
"""How many held-back untrusted candidates a trusted episode may affirm."""
ATTEMPTS = 3
"""How often an episode is decided again when a concurrent writer made it stale."""


class StoreContext:
    """The gates' reads for one principal: the store and the belief view."""

    def __init__(self, db: Database, principal: str, view: SemanticView) -> None:
        self._db = db
        self._principal = principal
        self._view = view

    def forgotten(self, digests: Sequence[str]) -> set[str]:
        """Which content digests were forgotten."""
        return store.forgotten_digests(self._db, self._principal, digests)

    def corrections(self) -> Sequence[StoredCorrection]:
        """Every correction, oldest first."""
        return store.corrections(self._db, self._principal)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """The view's embedder (cached)."""
        return self._view.embedder.embed(texts)

    def neighbours(self, vectors: Sequence[Vectors]) -> Neighbours:
        """For each vector, its nearest live beliefs, best first.

        The view keeps superseded and retired vectors (``as_of`` reads need them), so
        a search widens until it has ``NOVELTY_NEIGHBOURS`` live ones or the view is
        spent. Each round looks up the liveness of every new hit in one query.
        """
        self._view.sync()
        live: dict[int, LiveBelief | None] = {}  # seq → belief, None when not live
        near: Neighbours = [[] for _ in vectors]
        pending = list(range(len(vectors)))
        width = NOVELTY_NEIGHBOURS
        while pending:
            hits = {i: self._view.search(vectors[i], width) for i in pending}
            unknown = sorted({hit.seq for found in hits.values() for hit in found} - set(live))
            if unknown:
                live.update({seq: None for seq in unknown})
                live.update(store.live_beliefs(self._db, self._principal, unknown))
            widen = []
            for i in pending:
                near[i] = [
                    (belief, hit.similarity)
                    for hit in hits[i]
                    if (belief := live[hit.seq]) is not None
                ]
                spent = len(hits[i]) < width or width >= NOVELTY_MAX_FETCH
                if len(near[i]) < NOVELTY_NEIGHBOURS and not spent:
                    widen.append(i)
                near[i] = near[i][:NOVELTY_NEIGHBOURS]
            pending, width = widen, width * 4
        return near

    def slot_holders(self, slots: Sequence[Slot]) -> dict[Slot, tuple[str, Authority]]:
        """The newest live holder of each slot."""
        return store.slot_holders(self._db, self._principal, slots)

    def held_back(self) -> Sequence[HeldBack]:
        """The newest candidates the trust gate held back."""
        return store.held_back(self._db, self._principal, UNTRUSTED_LOOKBACK)


def consolidate(
    db: Database,
    principal: str,
    episode: Episode,
    view: SemanticView,
    policy: FormationPolicy,
    extractor: Extractor,
) -> ConsolidationResult:
    """Forms beliefs from one episode (see :meth:`graphmem.GraphMem.consolidate`).

    Raises:
        ConcurrentWrite: Concurrent writers kept changing what this episode's decisions
            rest on, ``ATTEMPTS`` times in a row.
    """
    if episode.consolidated_at is not None:
        return ConsolidationResult(episode_id=episode.id, already_consolidated=True)
    context = StoreContext(db, principal, view)
    for _ in range(ATTEMPTS):
        decision = decide(episode, extractor.extract(episode), policy, context)
        try:
            return _committed(db, principal, decision, encoder(view.embedder))
        except StaleDecision:
            continue
    raise ConcurrentWrite(
        f"episode_id: concurrent writes kept changing the beliefs episode {episode.id} "
        "touches; run consolidate again",
        field="episode_id",
        rule="stable",
    )


def _committed(
    db: Database, principal: str, decision: Decision, encode: Encoder
) -> ConsolidationResult:
    writes = decision.writes
    outcome = commit_formation(db, principal, writes, encode)
    if outcome is None:
        return ConsolidationResult(episode_id=writes.episode_id, already_consolidated=True)
    return ConsolidationResult(
        episode_id=writes.episode_id,
        created=decision.created,
        reinforced=decision.reinforced,
        activated=outcome.activated,
        promoted=outcome.promoted,
        superseded=[Supersession(old=old, new=new) for old, new, _ in writes.supersessions],
        conflicts=[Conflict(a=min(a, b), b=max(a, b)) for a, b in writes.conflicts],
        rejected=decision.rejected,
    )
