"""The recall pipeline (docs/recall.md), from the arms to the rendered, traced result.

Reads never mutate memory (rule 4): anchor state, weights and scores are computed here
and stored nowhere; the one write is the ``:RecallTrace`` of each call. The arms live
in :mod:`~graphmem.recall.arms`, fusion and weighting in
:mod:`~graphmem.recall.fusion` and :mod:`~graphmem.recall.ranking` (pure functions),
snapshots in :mod:`~graphmem.recall.snapshot`; this module puts them in order.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Generic

from graphmem.anchors.state import anchor_statuses
from graphmem.content import query_subject
from graphmem.errors import GraphMemError, InvalidInput
from graphmem.models import (
    AnchorStatus,
    Arm,
    Conflict,
    Decay,
    EpisodeHit,
    EpisodeSearchResult,
    RecallItem,
    RecallQuery,
    RecallResult,
    SnapshotProfile,
)
from graphmem.recall import snapshot as snapshots
from graphmem.recall.arms import (
    CATCH_UP_SLICE,
    ENTITY_REACH,
    GraphArm,
    LexicalArm,
    RecallArm,
    SemanticArm,
    StructuredArm,
    TimeArm,
)
from graphmem.recall.fusion import fuse, question_share, with_reply_context, with_session_context
from graphmem.recall.lexical import LexicalView
from graphmem.recall.presentation import Offered, Presentation, Presented
from graphmem.recall.ranking import (
    Weighed,
    by_score,
    confidence_band,
    decay_weight,
    rank,
    scope_weight,
)
from graphmem.recall.render import render_beliefs, render_episodes, sha256_of
from graphmem.recall.screen import placeholder, screen
from graphmem.settings import FeedbackSettings
from graphmem.store import recall as store
from graphmem.store.database import Database
from graphmem.store.embeddings import Encoder, save_vectors
from graphmem.store.events import view_events
from graphmem.store.ids import new_id
from graphmem.store.recall import BeliefCandidate, Candidate, EpisodeCandidate, Fetched
from graphmem.store.traces import TraceRecord, TraceWriter
from graphmem.trust.sensitivity import Sensitivity
from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.stored import encoder
from graphmem.vectors.views import (
    SYNC_BATCH,
    SemanticView,
    Surface,
    ViewFeed,
    prefetched,
    view_event_types,
)

GRAPH_PER_SEED = 12
"""How many neighbours of each seed the graph arm fetches (beliefs)."""
GRAPH_WIDTH = 2
"""How far along a session (PART_OF siblings) the graph arm walks from a seed."""
POLICY_VERSION = "recall-v1"
AVAILABLE_ARMS = {
    "belief": frozenset({Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH, Arm.STRUCTURED}),
    "episode": frozenset({Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH, Arm.TIME}),
}
_OFFER_ORDER = (Arm.LEXICAL, Arm.TIME, Arm.STRUCTURED, Arm.SEMANTIC)
"""The database arms answer while the semantic arm embeds in the background; the time
arm reads the lexical view once the lexical arm has caught it up."""
_SEEDING = (Arm.LEXICAL, Arm.STRUCTURED, Arm.SEMANTIC)
"""The arms whose hits the graph arm may seed from."""

Fetch = Callable[[list[int], list[int]], Fetched[Candidate]]
"""Fetches the arms' hits and the graph arm's expansion from its seeds (creation seqs)
through the hard filters and the sensitivity ceiling, in one round trip a recall.

It once fetched in three parts at once, the lexical hits' part while the semantic arm
still embedded the query: no sooner for one agent within the noise, and 3-4 ms more CPU
an operation on both sides, which is what many agents on two cores wait for
(docs/benchmarks.md, "One candidates read a recall")."""


@dataclass(frozen=True)
class _Gathered(Generic[Candidate]):
    """The candidates that passed the hard filters and each fused arm's list."""

    candidates: dict[str, Candidate]
    ranked: dict[str, list[str]]
    scores: dict[str, dict[str, float]]
    """The scoring arms' score of each id they ranked."""
    blocked: int
    """Offered hits the hard filters removed."""
    withheld: int
    """Hits that passed the hard filters but lie above the sensitivity ceiling."""
    timings_ms: dict[str, float]
    view_lag: int = 0
    """The events the views applied before answering (the most of the two)."""


@dataclass(frozen=True)
class _Rendered:
    """What every surface's result shares besides its items."""

    query: str
    project: str | None
    dropped: int
    blocked: int
    withheld: int
    flagged: int
    rendered: str
    rendered_sha256: str
    trace_id: str


@dataclass(frozen=True)
class _Shown:
    """What a hook's presentation injected, and whether the recall had found anything."""

    presentation: Presentation
    presented: Presented
    found: bool


class RecallEngine:
    """Answers one principal's recall, episode-search and snapshot queries."""

    def __init__(
        self,
        db: Database,
        principal: str,
        embedder: Callable[[], Embedder],
        views_dir: Path | None,
        feedback: FeedbackSettings,
    ) -> None:
        self.db = db
        self.principal = principal
        self._embedder_factory = embedder
        self._views_dir = views_dir
        self._views: dict[Surface, SemanticView] = {}
        self._lexical_views: dict[Surface, LexicalView] = {}
        self._views_lock = threading.Lock()
        # The views catch up, and the semantic arm embeds, beside the database arms.
        self._arm_pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="graphmem-arm")
        # Traces are written off the answer's path; flush() waits for them.
        self._traces = TraceWriter(db, principal, feedback)
        # What a recall's slice left of a long catch-up, a page at a time (_catch_up_later).
        self._catch_up_pool = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="graphmem-catch-up"
        )
        self._catching_up: set[Surface] = set()
        self._closing = threading.Event()
        # The surfaces written by this client since their last recall began catching up.
        self._wrote: set[Surface] = set()

    def flush(self) -> None:
        """Waits until every recall trace is written; raises the first failure."""
        self._traces.flush()

    def close(self) -> None:
        """Writes pending traces and stops the worker threads."""
        self._closing.set()
        try:
            self._traces.close()
        finally:
            self._catch_up_pool.shutdown(wait=True, cancel_futures=True)
            self._arm_pool.shutdown(wait=True)

    def wrote(self) -> None:
        """Notes that this client wrote memory.

        Its next recall catches the views up with every event, not one slice: a client
        reads its own writes, however many it made.
        """
        with self._views_lock:
            self._wrote.update(("belief", "episode"))

    def _catch_up_most(self, surface: Surface) -> int | None:
        """How many events a recall catches up on: all after a write, else a slice."""
        with self._views_lock:
            wrote = surface in self._wrote
            self._wrote.discard(surface)
        return None if wrote else CATCH_UP_SLICE

    def _catch_up_later(self, surface: Surface) -> None:
        """Catches the surface's views up in the background, unless that already runs."""
        with self._views_lock:
            if surface in self._catching_up or self._closing.is_set():
                return
            self._catching_up.add(surface)
        self._catch_up_pool.submit(self._catch_up_rest, surface)

    def _catch_up_rest(self, surface: Surface) -> None:
        """Applies the surface's remaining events a page at a time.

        Each page holds the view's lock alone, so a recall meanwhile waits for one
        page at most.
        """
        try:
            while not self._closing.is_set():
                applied = 0
                if surface in self._views:
                    applied = self._views[surface].sync(most=SYNC_BATCH)
                if surface in self._lexical_views:
                    applied = max(applied, self._lexical_views[surface].sync(most=SYNC_BATCH))
                if applied < SYNC_BATCH:
                    return  # the end of the log: caught up
        except GraphMemError:
            return  # the next recall catches up its slice and starts this again
        finally:
            with self._views_lock:
                self._catching_up.discard(surface)

    def view(self, surface: Surface) -> SemanticView:
        """The semantic view of one surface (created on first use)."""
        with self._views_lock:
            if surface not in self._views:
                self._views[surface] = SemanticView(
                    partial(view_events, self.db, self.principal),
                    self.principal,
                    surface,
                    self._embedder_factory(),
                    self._views_dir,
                    sink=partial(save_vectors, self.db, self.principal),
                )
            return self._views[surface]

    def embedder(self) -> Embedder:
        """The client's embedder (loaded on first use)."""
        return self._embedder_factory()

    def encoder(self) -> Encoder:
        """Embeds what this client writes, once, for every view (store/embeddings.py)."""
        return encoder(self._embedder_factory())

    def warm(self) -> None:
        """Loads the embedder and both belief views now, so the first recall need not."""
        self._embedder_factory().embed(["warm"])
        self.view("belief")
        self.lexical_view("belief")

    def lexical_view(self, surface: Surface) -> LexicalView:
        """The lexical view of one surface (created on first use)."""
        with self._views_lock:
            if surface not in self._lexical_views:
                self._lexical_views[surface] = LexicalView(
                    partial(view_events, self.db, self.principal),
                    self.principal,
                    surface,
                    self._views_dir,
                )
            return self._lexical_views[surface]

    def rebuild_views(self, surface: Surface) -> int:
        """Rebuilds both views of one surface from the graph; returns the events read."""
        replayed = self.view(surface).rebuild()
        self.lexical_view(surface).rebuild()
        return replayed

    def forget_text(self, statement: str) -> None:
        """Removes a forgotten belief from this client's caches and belief views now."""
        embedder = self.view("belief").embedder
        if isinstance(embedder, CachedEmbedder):
            embedder.discard([statement])
        self.view("belief").sync(purge=True)
        self.lexical_view("belief").sync()

    # --- the arms and the one candidates round trip -----------------------------

    def _arms(self, surface: Surface, request: RecallQuery) -> dict[Arm, RecallArm]:
        unavailable = sorted(set(request.arms) - AVAILABLE_ARMS[surface])
        if unavailable:
            allowed = ", ".join(sorted(AVAILABLE_ARMS[surface]))
            raise InvalidInput(
                f"arms: {', '.join(unavailable)} not available for {surface}s; use {allowed}",
                field="arms",
                rule="available",
            )
        seeding = Arm.GRAPH in request.arms  # the graph arm expands from the others
        semantic = Arm.SEMANTIC in request.arms or seeding
        lexical = Arm.LEXICAL in request.arms or seeding or Arm.TIME in request.arms
        arms: dict[Arm, RecallArm] = {}
        if semantic or lexical:  # one read of the event log catches both views up
            watermarks = [self.view(surface).watermark] if semantic else []
            watermarks += [self.lexical_view(surface).watermark] if lexical else []
            feed = self._arm_pool.submit(self._catch_up, surface, min(watermarks))
            most = self._catch_up_most(surface)
            if semantic:  # first: it starts in the background
                arms[Arm.SEMANTIC] = SemanticArm(
                    self.view(surface), request.query, self._arm_pool, feed, most
                )
            if lexical:
                arms[Arm.LEXICAL] = LexicalArm(
                    self.lexical_view(surface), request.query, self._arm_pool, feed, most
                )
        if surface == "belief" and (Arm.STRUCTURED in request.arms or seeding):
            arms[Arm.STRUCTURED] = StructuredArm(self.db, self.principal, request)
        if Arm.TIME in request.arms:
            arms[Arm.TIME] = TimeArm(self.lexical_view(surface), request)
        if seeding:
            arms[Arm.GRAPH] = GraphArm()
        return arms

    def _catch_up(self, surface: Surface, since: int) -> ViewFeed:
        """Reads the events after ``since`` once, for both views of the surface."""
        types = view_event_types(surface)
        read = partial(view_events, self.db, self.principal)
        return prefetched(read(since, types, SYNC_BATCH), since, types, SYNC_BATCH, read)

    def _gather(
        self, surface: Surface, request: RecallQuery, fetch: Fetch[Candidate]
    ) -> _Gathered[Candidate]:
        """Runs the arms, applies the hard filters once and ranks each arm's list."""
        arms = self._arms(surface, request)
        offered: dict[Arm, list[int]] = {}
        for arm in _OFFER_ORDER:
            if arm in arms:
                offered[arm] = arms[arm].offer({})
        seeding = {arm: seqs for arm, seqs in offered.items() if arm in _SEEDING}
        # The graph arm expands the fused best and the lexical arm's own best.
        seeds: list[int] = []
        if Arm.GRAPH in arms:
            graph = arms[Arm.GRAPH]
            best = graph.offer(seeding)
            if offered.get(Arm.LEXICAL):
                best += graph.offer({Arm.LEXICAL: offered[Arm.LEXICAL]})
            seeds = list(dict.fromkeys(best))
        started = time.perf_counter()
        hits = {seq for seqs in offered.values() for seq in seqs}
        found: Fetched[Candidate] = Fetched({}, frozenset())
        if hits or seeds:
            found = fetch(sorted(hits), seeds)
        timings = {"candidates": (time.perf_counter() - started) * 1000}
        ranked: dict[str, list[str]] = {}
        scores: dict[str, dict[str, float]] = {}
        candidates = found.candidates
        for arm, arm_hits in {**offered, Arm.GRAPH: seeds}.items():
            if arm not in arms:
                continue
            each = arms[arm]
            if isinstance(each, GraphArm):  # last: it weighs its seeds by the others' scores
                each.weigh(_strength(ranked, scores, candidates))
            ids = each.rank(arm_hits, candidates)
            if ids:
                ranked[arm.value] = ids
            if ids and each.scores is not None:
                scores[arm.value] = {
                    candidates[seq].id: score
                    for seq, score in each.scores.items()
                    if seq in candidates
                }
        asked = {arm.value for arm in request.arms}
        ranked = {arm: ids for arm, ids in ranked.items() if arm in asked}
        scores = {arm: by_id for arm, by_id in scores.items() if arm in asked}
        for each in arms.values():
            timings.update(each.timings_ms)
        lag = max(
            (
                each.caught_up
                for each in arms.values()
                if isinstance(each, SemanticArm | LexicalArm)
            ),
            default=0,
        )
        if lag >= CATCH_UP_SLICE:  # more may be waiting: the rest in the background
            self._catch_up_later(surface)
        withheld = hits & found.withheld
        gone = hits - candidates.keys() - withheld
        return _Gathered(
            {c.id: c for c in candidates.values()},
            ranked,
            scores,
            len(gone),
            len(withheld),
            timings,
            lag,
        )

    def _fetch_beliefs(self, request: RecallQuery) -> Fetch[BeliefCandidate]:
        return lambda seqs, seeds: store.belief_candidates(
            self.db,
            self.principal,
            seqs,
            seeds,
            per_seed=GRAPH_PER_SEED,
            entities=ENTITY_REACH,
            types=request.types,
            as_of=request.as_of,
            project=request.project,
            ceiling=request.ceiling,
        )

    def _fetch_episodes(self, request: RecallQuery) -> Fetch[EpisodeCandidate]:
        return lambda seqs, seeds: store.episode_candidates(
            self.db,
            self.principal,
            seqs,
            seeds,
            width=GRAPH_WIDTH,
            entities=ENTITY_REACH,
            as_of=request.as_of,
            project=request.project,
            ceiling=request.ceiling,
        )

    # --- the surfaces -----------------------------------------------------------

    def recall(
        self, request: RecallQuery, presentation: Presentation | None = None
    ) -> RecallResult:
        """Recalls beliefs (see :meth:`graphmem.GraphMem.recall`).

        With a ``presentation`` (a hook's), the result holds what it chose to show.
        """
        started = time.perf_counter()
        gathered = self._gather("belief", request, self._fetch_beliefs(request))
        candidates = gathered.candidates
        fused, arm_ranks = fuse(gathered.ranked, gathered.scores)
        anchors = self._anchors([candidates[i] for i in fused], request.project)
        newest = (
            store.newest_seq(self.db, self.principal, request.as_of)
            if request.decay is not Decay.NONE
            else 0
        )
        weighed = [
            Weighed(
                id=belief_id,
                relevance=relevance,
                confidence=candidates[belief_id].confidence,
                state=candidates[belief_id].state,
                anchor_weight=anchors[belief_id].anchor_weight,
                scope_weight=_scope_weight(request.project, candidates[belief_id]),
                decay=decay_weight(request.decay, newest - candidates[belief_id].cited_seq),
                disputed=candidates[belief_id].disputed,
                stale=candidates[belief_id].stale,
            )
            for belief_id, relevance in fused.items()
        ]
        # A presentation chooses from every ranked item: its floor reads the arms' own
        # scores, and in a large memory the top k can hold word matches alone.
        chosen = rank(weighed)[: None if presentation is not None else request.k]
        items = [
            _item(candidates[c.id], anchors[c.id], arm_ranks.get(c.id, {}), c.score) for c in chosen
        ]
        returned = {item.id for item in items}
        conflicts = sorted(
            {
                Conflict(a=min(item.id, other), b=max(item.id, other))
                for item in items
                for other in candidates[item.id].conflicts
                if other in returned
            },
            key=lambda conflict: (conflict.a, conflict.b),
        )
        rendered = render_beliefs(request.query, request.project, items, conflicts)
        shown: _Shown | None = None
        if presentation is not None:
            found = bool(items)
            chosen_scores = [
                Offered(
                    item,
                    {
                        arm: by_id[item.id]
                        for arm, by_id in gathered.scores.items()
                        if item.id in by_id
                    },
                )
                for item in items
            ]
            presented = presentation.present(chosen_scores)
            items, rendered = presented.items, presented.text
            kept = {item.id for item in items}
            conflicts = [c for c in conflicts if c.a in kept and c.b in kept]
            shown = _Shown(presentation, presented, found)
        shared = self._traced_search(
            "belief", request, gathered, items, rendered, len(fused), arm_ranks, started, shown
        )
        return RecallResult(items=items, conflicts=conflicts, **asdict(shared))

    def search_episodes(self, request: RecallQuery) -> EpisodeSearchResult:
        """Searches episodes (see :meth:`graphmem.GraphMem.search_episodes`)."""
        started = time.perf_counter()
        gathered = self._gather("episode", request, self._fetch_episodes(request))
        episodes = gathered.candidates
        arm_fused, arm_ranks = fuse(gathered.ranked, gathered.scores)
        in_context = with_session_context(
            arm_fused,
            {episode_id: episodes[episode_id].parent for episode_id in arm_fused},
            {episode_id: episodes[episode_id].position for episode_id in arm_fused},
        )
        fused = with_reply_context(
            in_context,
            {episode_id: question_share(episodes[episode_id].text) for episode_id in in_context},
            {
                episode_id: reply
                for episode_id in in_context
                if (reply := episodes[episode_id].reply) is not None and reply in episodes
            },
        )
        items = [
            _hit(episodes[episode_id], arm_ranks.get(episode_id, {}), fused[episode_id])
            for episode_id in by_score(fused)[: request.k]
        ]
        rendered = render_episodes(request.query, request.project, items)
        shared = self._traced_search(
            "episode", request, gathered, items, rendered, len(fused), arm_ranks, started
        )
        return EpisodeSearchResult(items=items, **asdict(shared))

    def snapshot(
        self,
        project: str,
        profile: SnapshotProfile | str,
        ceiling: Sensitivity = Sensitivity.CONFIDENTIAL,
        presentation: Presentation | None = None,
    ) -> RecallResult:
        """What to load at the start of a session in ``project`` (docs/recall.md).

        With a ``presentation`` (a hook's brief), it chooses from the profile's items
        in their order, under its own budget instead of the profile's token cap.

        Raises:
            InvalidInput: Unknown profile.
        """
        if profile not in snapshots.SNAPSHOT_PROFILES:
            choices = ", ".join(snapshots.SNAPSHOT_PROFILES)
            raise InvalidInput(f"profile: use one of {choices}", field="profile", rule="enum")
        chosen_profile = SnapshotProfile(profile)
        started = time.perf_counter()
        item_cap, token_cap = snapshots.SNAPSHOT_PROFILES[chosen_profile]
        fetched = store.snapshot_candidates(
            self.db, self.principal, project, snapshots.SNAPSHOT_POOL, ceiling
        )
        beliefs = list(fetched.candidates.values())
        anchors = self._anchors(beliefs, project)
        weighted = [
            snapshots.Weighted(
                belief,
                Weighed(
                    belief.id,
                    1.0,
                    belief.confidence,
                    belief.state,
                    anchors[belief.id].anchor_weight,
                    _scope_weight(project, belief),
                    disputed=belief.disputed,
                    stale=belief.stale,
                ).score,
            )
            for belief in beliefs
        ]
        query = f"snapshot ({chosen_profile.value})"
        ordered = [_item(b, anchors[b.id], {}, 0.0) for b in snapshots.choose(weighted, item_cap)]
        shown: _Shown | None = None
        if presentation is not None:
            presented = presentation.present([Offered(item, {}) for item in ordered])
            items, rendered = presented.items, presented.text
            shown = _Shown(presentation, presented, bool(ordered))
        else:
            items = snapshots.within_tokens(
                ordered, lambda kept: render_beliefs(query, project, kept, []), token_cap
            )
            rendered = render_beliefs(query, project, items, [])
        request = RecallQuery(query=query, project=project, k=item_cap, ceiling=ceiling)
        timings = {"total": (time.perf_counter() - started) * 1000}
        dropped = len(weighted) - len(items)
        withheld = len(fetched.withheld)
        shared = self._traced(
            "snapshot", request, items, rendered, dropped, 0, withheld, {}, timings, shown
        )
        return RecallResult(items=items, conflicts=[], **asdict(shared))

    # --- shared steps -------------------------------------------------------------

    def _anchors(
        self, beliefs: Sequence[BeliefCandidate], project: str | None
    ) -> dict[str, AnchorStatus]:
        statuses = anchor_statuses(self.db, self.principal, beliefs, project, with_candidates=False)
        return {status.belief_id: status for status in statuses}

    def _traced_search(
        self,
        surface: Surface,
        request: RecallQuery,
        gathered: _Gathered[Candidate],
        items: Sequence[RecallItem | EpisodeHit],
        rendered: str,
        fused: int,
        arm_ranks: Mapping[str, Mapping[str, int]],
        started: float,
        shown: _Shown | None = None,
    ) -> _Rendered:
        """Records a search's trace (see :meth:`_traced`).

        Args:
            surface: The surface searched.
            request: What was asked.
            gathered: What the arms and the hard filters found (its counts and timings).
            items: What the call returns.
            rendered: The rendered block.
            fused: How many candidates fusion ranked (the rest of ``items``: dropped).
            arm_ranks: Each item's rank in each arm.
            started: When the call began (``time.perf_counter()``), for its total time.
            shown: What a hook's presentation chose to inject, if one did.
        """
        timings = {**gathered.timings_ms, "total": (time.perf_counter() - started) * 1000}
        return self._traced(
            surface,
            request,
            items,
            rendered,
            fused - len(items),
            gathered.blocked,
            gathered.withheld,
            arm_ranks,
            timings,
            shown,
            gathered.view_lag,
        )

    def _traced(
        self,
        surface: str,
        request: RecallQuery,
        items: Sequence[RecallItem | EpisodeHit],
        rendered: str,
        dropped: int,
        blocked: int,
        withheld: int,
        arm_ranks: Mapping[str, Mapping[str, int]],
        timings_ms: Mapping[str, float],
        shown: _Shown | None = None,
        view_lag: int = 0,
    ) -> _Rendered:
        """Records the call's :RecallTrace (in the background).

        An injection (``shown``) records its session, event and tokens; it is a miss
        only when the recall found nothing, not when the hook chose to show nothing.
        ``view_lag`` is how many events the views caught up on before answering.
        """
        flagged = sum(1 for item in items if item.flagged is not None)
        found = shown.found if shown is not None else bool(items)
        trace = TraceRecord(
            id=shown.presentation.trace_id if shown is not None else new_id(),
            surface=surface,
            query=request.query,
            project=request.project,
            as_of=request.as_of,
            k=request.k,
            arms=[arm.value for arm in request.arms],
            decay=request.decay.value,
            item_ids=[item.id for item in items],
            bands=[item.confidence_band if isinstance(item, RecallItem) else "" for item in items],
            dropped=dropped,
            blocked=blocked,
            withheld=withheld,
            flagged=flagged,
            rendered_sha256=sha256_of(rendered),
            at=datetime.now(UTC),
            operator_arm_ranks=json.dumps(
                {item.id: dict(arm_ranks.get(item.id, {})) for item in items}, sort_keys=True
            ),
            operator_latency_ms=json.dumps(
                {name: round(ms, 3) for name, ms in sorted(timings_ms.items())}
            ),
            operator_policy_version=POLICY_VERSION,
            operator_view_lag=view_lag,
            # A live belief recall that returned nothing is a miss (docs/recall.md).
            miss_subject=query_subject(request.query)
            if surface == "belief" and not found and request.as_of is None
            else None,
            session_id=shown.presentation.session_id if shown is not None else None,
            hook_event=shown.presentation.hook_event if shown is not None else None,
            injected_tokens=shown.presented.tokens if shown is not None else None,
        )
        self._traces.submit(trace)
        return _Rendered(
            query=request.query,
            project=request.project,
            dropped=dropped,
            blocked=blocked,
            withheld=withheld,
            flagged=flagged,
            rendered=rendered,
            rendered_sha256=trace.rendered_sha256,
            trace_id=trace.id,
        )


def _strength(
    ranked: Mapping[str, Sequence[str]],
    scores: Mapping[str, Mapping[str, float]],
    candidates: Mapping[int, Candidate],
) -> dict[int, float]:
    """Each candidate's fused score in the seeding arms, by creation seq."""
    seeding = {arm.value: ranked[arm.value] for arm in _SEEDING if arm.value in ranked}
    fused, _ = fuse(seeding, scores)
    seq_of = {candidate.id: seq for seq, candidate in candidates.items()}
    return {seq_of[node_id]: score for node_id, score in fused.items()}


def _scope_weight(project: str | None, belief: BeliefCandidate) -> float:
    return scope_weight(project, belief.origins, belief.scope, belief.portability)


def _item(
    belief: BeliefCandidate, anchor: AnchorStatus, arm_ranks: Mapping[str, int], score: float
) -> RecallItem:
    flagged = screen(belief.statement)
    return RecallItem(
        id=belief.id,
        statement=belief.statement if flagged is None else placeholder(flagged),
        flagged=flagged,
        type=belief.type,
        confidence_band=confidence_band(belief.confidence),
        project=belief.project,
        origins=sorted(belief.origins),
        scope=belief.scope,
        anchor_state=anchor.state,
        applies_here=anchor.applies_here,
        evidence=sorted(belief.evidence),
        arm_ranks=dict(arm_ranks),
        score=round(score, 8),
        stale=belief.stale,
    )


def _hit(episode: EpisodeCandidate, arm_ranks: Mapping[str, int], score: float) -> EpisodeHit:
    flagged = screen(f"{episode.title}\n{episode.text or ''}")
    return EpisodeHit(
        id=episode.id,
        title=episode.title if flagged is None else placeholder(flagged),
        text=episode.text if flagged is None else None,
        project=episode.project,
        kind=episode.kind,
        outcome=episode.outcome,
        arm_ranks=dict(arm_ranks),
        score=round(score, 8),
        flagged=flagged,
    )
