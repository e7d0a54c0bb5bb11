"""The recall arms (docs/recall.md) behind one protocol.

An arm works in two steps around the one round trip that applies the hard filters:

1. :meth:`RecallArm.offer` names creation seqs before the filters: the lexical,
   semantic and structured arms offer their hits; the graph arm offers its seeds,
   the best of the others' hits fused.
2. :meth:`RecallArm.rank` turns what passed the filters into the arm's ranked ids:
   the hits that survived, in the arm's order; for the graph arm, the candidates the
   round trip reached from its seeds, nearest first.

An arm is built per query, so one that works in the background (the semantic arm
catches its view up and embeds the query while the lexical arm runs) starts then.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from graphmem.anchors.languages import language_for_path
from graphmem.models import Arm, RecallQuery
from graphmem.recall.fusion import reciprocal_rank_fusion
from graphmem.recall.lexical import LexicalView
from graphmem.recall.when import time_window
from graphmem.store import recall as store
from graphmem.store.database import Database
from graphmem.store.recall import EntityReach, Reach
from graphmem.vectors.protocol import Vectors
from graphmem.vectors.views import SYNC_BATCH, SemanticView, ViewFeed

ARM_FETCH = 50
"""How many candidates each arm fetches before the hard filters."""
CATCH_UP_SLICE = SYNC_BATCH
"""The most events a recall's views catch up on before answering (one page of the log):
a recall's latency does not grow with how much others wrote since its last call. The
engine catches up on the rest in the background (``RecallEngine``)."""
FUSION_DEPTH = 12
"""How deep the graph arm's seed choice looks into each arm's hits. Every arm
contributes every survivor: fusion weighs them by score, so a weak tail cannot outvote a
strong head (see ``recall/fusion.py``)."""
HOP_DECAY: dict[int, float] = {1: 0.7, 2: 0.4}
"""What a node the graph arm reached counts, times its seed's strength, by distance
(one hop: a session's next turn, a belief's shared symbol or source episode; two: the
turns two away, shared entities). A neighbour of the best hit counts more than one of
the fifth seed: the arm ranked by distance alone gave a weak seed's neighbours as much
as the best's, and crowded out other sessions' hits. On LoCoMo, conversations 1-5 |
6-10 (re-fusing captured arm lists, graph weight 0.4 -> 0.3): R@10 0.797 | 0.770 ->
0.803 | 0.783, MRR 0.589 | 0.559 -> 0.607 | 0.576, multi-hop 0.427 | 0.417 -> 0.458 |
0.451; decays from 0.5 to 1.0 (one hop) and 0.25 to 0.7 (two) all gained on both."""
TIME_MARGIN = timedelta(days=3)
"""How far the time arm widens a named window on each side (LoCoMo: a named day holds
a gold turn 80% of the time, within 3 days 94%)."""
_ANY_REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
"""Resolving against a far reference first tells whether the query names a time at
all, before the real reference is looked up."""
GRAPH_SEEDS = 5
"""The best fused lexical/semantic candidates the graph arm expands from."""
ENTITY_REACH = EntityReach(hops=2, per_seed=12, max_mentions=100, max_share=0.05, min_mentions=5)
"""The graph arm's walk through shared entities: a node that shares a name with a seed
counts as 2 hops away (``HOP_DECAY``), and each seed keeps the 12 that share the rarest
names; a name more than 5% of the principal's nodes (or more than 100) mention says
little about either and is skipped, unless at most 5 do (so the walk works in small
stores too)."""
SEMANTIC_MIN_SIMILARITY = 0.2
"""Below this cosine a neighbour is unrelated: the semantic arm does not offer it."""


class Reachable(Protocol):
    """A candidate as the arms see it: its id, creation seq and graph-arm reach."""

    @property
    def id(self) -> str:
        """The node's id."""
        ...

    @property
    def seq(self) -> int:
        """The node's creation seq."""
        ...

    @property
    def reached(self) -> tuple[Reach, ...]:
        """How the graph arm reached it."""
        ...


T = TypeVar("T")
Offered = Mapping[Arm, Sequence[int]]


class RecallArm(Protocol):
    """One arm of recall (see the module docstring)."""

    arm: Arm
    timings_ms: dict[str, float]
    """How long its steps took (operator trace fields)."""
    scores: dict[int, float] | None
    """Its score of each seq it offered, once offered; None for an arm that only orders."""

    def offer(self, offered: Offered) -> list[int]:
        """Creation seqs before the hard filters, best first.

        Args:
            offered: What the arms before it offered (the graph arm seeds from them).
        """
        ...

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """Its ranked ids among the candidates that passed the filters (``found``).

        Args:
            offered: What this arm offered.
            found: The candidates that passed the hard filters, by creation seq.
        """
        ...


def _timed(timings: dict[str, float], step: str, work: Callable[[], T]) -> T:
    started = time.perf_counter()
    try:
        return work()
    finally:
        timings[step] = (time.perf_counter() - started) * 1000


def _surviving(offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
    return [found[seq].id for seq in offered if seq in found]


class LexicalArm:
    """BM25 over the principal's own lexical view of the surface.

    Built, it starts catching the view up on ``executor`` (beside the semantic arm),
    from the events ``feed`` resolves to (at most ``most`` of them; None: all).
    """

    arm = Arm.LEXICAL

    def __init__(
        self,
        view: LexicalView,
        query: str,
        executor: Executor,
        feed: Future[ViewFeed],
        most: int | None = CATCH_UP_SLICE,
    ) -> None:
        self._view = view
        self._query = query
        self.timings_ms: dict[str, float] = {}
        self.scores: dict[int, float] | None = {}
        self._synced: Future[int] = executor.submit(
            _timed,
            self.timings_ms,
            "lexical_sync",
            lambda: view.sync(feed.result(), most=most),
        )

    @property
    def caught_up(self) -> int:
        """The events its view applied before answering: how far behind it was."""
        return self._synced.result() if self._synced.done() else 0

    def offer(self, offered: Offered) -> list[int]:
        """The best BM25 hits' seqs in the caught-up view.

        It searches the view as it stands while the event log is read, and again only
        if the view moved meanwhile (memory was written since the last recall): the
        answer is always the caught-up view's, and a recall after no write waits for
        no log read. The second search is timed as ``lexical_again``.
        """
        searched_at = self._view.watermark
        hits = _timed(self.timings_ms, "lexical", lambda: self._view.search(self._query, ARM_FETCH))
        self._synced.result()
        if self._view.watermark != searched_at:
            hits = _timed(
                self.timings_ms, "lexical_again", lambda: self._view.search(self._query, ARM_FETCH)
            )
        self.scores = {hit.seq: hit.score for hit in hits}
        return [hit.seq for hit in hits]

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """The hits that passed the filters, in BM25 order."""
        return _surviving(offered, found)


class TimeArm:
    """BM25 among the episodes that happened in the time the query names, if any.

    "What did we decide in May 2023?", "the deploy two weeks ago": the window comes
    from :func:`~graphmem.recall.when.time_window`, resolved against the query's
    ``as_of`` or else when the principal's newest episode happened (the store, never
    the clock: without ``as_of``, "last week" is the week before the latest memory),
    widened by ``TIME_MARGIN`` on each side (an episode is dated when it was recorded,
    often a little after what it tells of). The lexical view holds each episode's
    date, so this arm reads nothing from the database; a query that names no time
    offers nothing.
    """

    arm = Arm.TIME

    def __init__(self, view: LexicalView, request: RecallQuery) -> None:
        self._view = view
        self._request = request
        self.timings_ms: dict[str, float] = {}
        self.scores: dict[int, float] | None = {}

    def offer(self, offered: Offered) -> list[int]:
        """The best BM25 hits dated within the named time (the lexical view has synced)."""
        return _timed(self.timings_ms, "time", self._offer)

    def _offer(self) -> list[int]:
        request = self._request
        if time_window(request.query, _ANY_REFERENCE) is None:
            return []
        reference = request.as_of or self._view.latest_time()
        window = time_window(request.query, reference) if reference else None
        if window is None:
            return []
        between = (window.start - TIME_MARGIN, window.end + TIME_MARGIN)
        hits = self._view.search(request.query, ARM_FETCH, between=between)
        self.scores = {hit.seq: hit.score for hit in hits}
        return [hit.seq for hit in hits]

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """The hits that passed the filters, in BM25 order."""
        return _surviving(offered, found)


class SemanticArm:
    """The FAISS view's nearest neighbours of the query's embedding, above a gate.

    Built, it starts catching the view up (from the events ``feed`` resolves to, at
    most ``most`` of them; None: all) and embedding the query on ``executor``.
    """

    arm = Arm.SEMANTIC

    def __init__(
        self,
        view: SemanticView,
        query: str,
        executor: Executor,
        feed: Future[ViewFeed],
        most: int | None = CATCH_UP_SLICE,
    ) -> None:
        self._view = view
        self.timings_ms: dict[str, float] = {}
        self.scores: dict[int, float] | None = {}
        self._synced: Future[int] = executor.submit(
            _timed,
            self.timings_ms,
            "sync",
            lambda: view.sync(feed=feed.result(), most=most),
        )
        self._vector: Future[Vectors] = executor.submit(
            _timed, self.timings_ms, "embed", lambda: view.embedder.embed([query])
        )

    @property
    def caught_up(self) -> int:
        """The events its view applied before answering: how far behind it was."""
        return self._synced.result() if self._synced.done() else 0

    def offer(self, offered: Offered) -> list[int]:
        """The nearest vectors' seqs, once the view has caught up."""
        self._synced.result()
        vector = self._vector.result()[0]
        hits = _timed(self.timings_ms, "semantic", lambda: self._view.search(vector, ARM_FETCH))
        kept = [hit for hit in hits if hit.similarity >= SEMANTIC_MIN_SIMILARITY]
        self.scores = {hit.seq: hit.similarity for hit in kept}
        return [hit.seq for hit in kept]

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """The hits that passed the filters, nearest first."""
        return _surviving(offered, found)


class StructuredArm:
    """Exact matches on beliefs.

    Anchor keys, symbols named in the project, anchored files (``paths``), subjects.
    """

    arm = Arm.STRUCTURED

    def __init__(self, db: Database, principal: str, request: RecallQuery) -> None:
        self._db = db
        self._principal = principal
        self._request = request
        self.timings_ms: dict[str, float] = {}
        self.scores: dict[int, float] | None = None

    def offer(self, offered: Offered) -> list[int]:
        """Beliefs matched exactly by what the request names."""
        return _timed(self.timings_ms, "structured", self._offer)

    def _offer(self) -> list[int]:
        request = self._request
        keys = [s for s in request.symbols or [] if "::" in s]
        names = [s for s in request.symbols or [] if "::" not in s]
        if names and request.project is not None:
            keys += store.symbol_keys_named(self._db, self._principal, request.project, names)
        prefixes = []
        for path in request.paths or []:
            spec = language_for_path(path)
            if spec is not None:
                prefixes.append(f"{spec.name}:{path}::")
        if not (keys or prefixes or request.subjects):
            return []
        return store.structured_hits(
            self._db,
            self._principal,
            sorted(set(keys)),
            sorted(set(prefixes)),
            list(request.subjects or []),
            ARM_FETCH,
        )

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """The matches that passed the filters: anchors, then files, then subjects."""
        return _surviving(offered, found)


class GraphArm:
    """Expansion from the best hits of the others over the memory graph.

    Beliefs: shared anchored symbols (and their containers), subjects and source
    episodes. Episodes: the ``PART_OF`` siblings within two positions. Both: the
    nodes that mention a rare entity the seed mentions (``ENTITY_REACH``). The seeds are
    chosen before the hard filters, so one round trip fetches the hits, their
    neighbours and the filters' verdict; a seed that is then filtered out is not
    returned, and lends nothing to what lies next to it. A reached node scores its
    seed's strength (the seeding arms' fused score, see :meth:`weigh`) times
    ``HOP_DECAY`` of its distance, the best of its seeds. The engine expands the fused
    best and the best lexical hits alone; the arm ranks what either reached.
    """

    arm = Arm.GRAPH

    def __init__(self) -> None:
        self.timings_ms: dict[str, float] = {}
        self.scores: dict[int, float] | None = {}
        self._strength: dict[int, float] = {}

    def offer(self, offered: Offered) -> list[int]:
        """The seeds: the best ``GRAPH_SEEDS`` hits of the other arms, fused."""
        fused = reciprocal_rank_fusion(
            {arm.value: [str(seq) for seq in seqs[:FUSION_DEPTH]] for arm, seqs in offered.items()}
        )
        best = sorted(fused, key=lambda seq: (-fused[seq], int(seq)))[:GRAPH_SEEDS]
        return [int(seq) for seq in best]

    def weigh(self, strength: Mapping[int, float]) -> None:
        """Records how strongly the seeding arms found each candidate (seq -> fused score).

        Called before :meth:`rank`, once the seeding arms have ranked what passed the
        filters.
        """
        self._strength = dict(strength)

    def rank(self, offered: Sequence[int], found: Mapping[int, Reachable]) -> list[str]:
        """What the seeds reached, by score (see the class docstring), then id."""
        seeds = {seed: self._strength.get(seed, 0.0) for seed in offered}
        scores = self.scores = spread(found.values(), seeds)
        return [found[seq].id for seq in sorted(scores, key=lambda s: (-scores[s], found[s].id))]


def spread(found: Iterable[Reachable], strength: Mapping[int, float]) -> dict[int, float]:
    """Each reached node's score: the best of its seeds' strength times ``HOP_DECAY``.

    Args:
        found: The candidates that passed the filters, with how the seeds reached them.
        strength: Each seed's strength (a seed missing or at 0 lends nothing).

    Returns:
        Creation seq -> score, for the nodes with a score above 0.
    """
    scores: dict[int, float] = {}
    for candidate in found:
        best = max(
            (
                strength.get(reach.seed, 0.0) * HOP_DECAY.get(reach.hops, 0.0)
                for reach in candidate.reached
            ),
            default=0.0,
        )
        if best > 0:
            scores[candidate.seq] = best
    return scores
