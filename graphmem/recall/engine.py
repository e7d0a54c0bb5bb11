"""The recall pipeline (design §5): hard filters, arms, fusion, ranking, rendering, trace.

Reads never mutate memory (rule 4): anchor state, weights and scores are computed here
and stored nowhere; the one write is the ``:RecallTrace`` of each call.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from graphmem.anchors.languages import language_for_path
from graphmem.anchors.state import anchor_statuses
from graphmem.content import principal_key
from graphmem.errors import InvalidInput
from graphmem.models import (
    AnchorStatus,
    Arm,
    BeliefState,
    BeliefType,
    Conflict,
    Decay,
    EpisodeHit,
    EpisodeSearchResult,
    Portability,
    RecallItem,
    RecallQuery,
    RecallResult,
    Scope,
    SnapshotProfile,
)
from graphmem.recall.fusion import reciprocal_rank_fusion
from graphmem.recall.lucene import lucene_terms
from graphmem.recall.ranking import Weighed, confidence_band, decay_weight, rank, scope_weight
from graphmem.recall.render import render_beliefs, render_episodes, sha256_of
from graphmem.recall.traces import TraceWriter
from graphmem.store.database import Database
from graphmem.store.events import view_events
from graphmem.store.ids import new_id
from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.protocol import Embedder, Vectors
from graphmem.vectors.views import SemanticView, Surface

T = TypeVar("T")

ARM_FETCH = 50
"""How many candidates each arm fetches before the hard filters."""
LEXICAL_HEAD = 2 * ARM_FETCH
"""How deep the unscoped full-text query looks for the principal's hits before the
lexical arm falls back to the scoped one (see ``queries/recall/lexical.cypher``)."""
FULLTEXT_INDEX: dict[Surface, str] = {"belief": "belief_text_v2", "episode": "episode_text_v2"}
FUSION_DEPTH = 12
"""How many of its best surviving candidates each arm contributes to fusion. Deeper
lists let a weak arm's tail outvote a strong arm's head (LoCoMo R@10, lexical+semantic:
0.55 at 50, 0.64 at 10-15; fused with the graph arm: 0.681 at 15, 0.702 at 12; of 10,
12 and 15, 12 was also best on each half of the conversations alone)."""
GRAPH_SEEDS = 5
"""The best fused lexical/semantic candidates the graph arm expands from."""
GRAPH_WIDTH = 2
"""How far along a session (PART_OF siblings) the graph arm walks from a seed."""
SEMANTIC_MIN_SIMILARITY = 0.2
"""Below this cosine a neighbour is unrelated: the semantic arm does not offer it."""
POLICY_VERSION = "recall-v1"
SNAPSHOT_PROFILES: dict[SnapshotProfile, tuple[int, int]] = {
    SnapshotProfile.INTERACTIVE: (40, 1_500),
    SnapshotProfile.LONG: (80, 3_000),
    SnapshotProfile.CHILD: (15, 500),
}
"""Snapshot profile → (item cap, token cap) (design §5.8)."""
SNAPSHOT_DURABLE_SHARE = 2 / 3
"""About two thirds of a snapshot goes to durable preferences and user beliefs."""
SNAPSHOT_POOL = 2_000
"""Newest live beliefs a snapshot chooses from."""
CHARS_PER_TOKEN = 4
AVAILABLE_ARMS = {
    "belief": frozenset({Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH, Arm.STRUCTURED}),
    "episode": frozenset({Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH}),
}


@dataclass(frozen=True)
class _Belief:
    id: str
    authority: str
    seq: int
    project: str
    statement: str
    type: BeliefType
    confidence: float
    state: BeliefState
    scope: Scope
    portability: Portability
    origins: list[str]
    anchor_key: str | None
    anchor_hash: str | None
    evidence: list[str]
    conflicts: list[str]
    disputed: bool
    cited_seq: int
    """The generation decay counts from: stated, or last supported by an episode."""


@dataclass
class _Gathered:
    """The candidates that passed the hard filters and each enabled arm's list."""

    payloads: dict[str, Any]
    ranked: dict[str, list[str]]
    blocked: int
    timings_ms: dict[str, float]


@dataclass(frozen=True)
class _Candidate:
    """A node that passed the hard filters, and how the graph arm reached it."""

    id: str
    payload: Any
    reached: list[tuple[int, int]]
    """(seed seq, hops) for each graph-arm seed it lies next to."""


Fetch = Callable[[list[int], list[int]], dict[int, _Candidate]]
"""Fetches the arms' hits (creation seqs) and the graph arm's expansion from the seeds
(seqs, best first) through the hard filters: seq → candidate."""


class RecallEngine:
    """Answers one principal's recall and episode-search queries."""

    def __init__(
        self,
        db: Database,
        principal: str,
        embedder: Callable[[], Embedder],
        views_dir: Path | None,
    ) -> None:
        self.db = db
        self.principal = principal
        self._embedder_factory = embedder
        self._views_dir = views_dir
        self._views: dict[Surface, SemanticView] = {}
        self._views_lock = threading.Lock()
        # Lexical (a database round trip) runs beside semantic (embedding on the CPU).
        self._arm_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-arm")
        # Traces are written off the answer's path; flush() waits for them.
        self._traces = TraceWriter(db, principal)

    def flush(self) -> None:
        """Waits until every recall trace is written; raises the first failure."""
        self._traces.flush()

    def close(self) -> None:
        """Writes pending traces and stops the worker threads."""
        try:
            self._traces.close()
        finally:
            self._arm_pool.shutdown(wait=True)

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
                )
            return self._views[surface]

    def forget_text(self, statement: str) -> None:
        """Removes a forgotten belief from this client's caches and belief view now."""
        embedder = self.view("belief").embedder
        if isinstance(embedder, CachedEmbedder):
            embedder.discard([statement])
        self.view("belief").sync(purge=True)

    def _lexical(self, surface: Surface, query: str) -> list[int]:
        terms = lucene_terms(query)
        if not terms:
            return []
        records = self.db.read(
            "recall/lexical",
            index=FULLTEXT_INDEX[surface],
            principal=self.principal,
            terms=terms,
            scoped=f"({terms}) AND principal_key:{principal_key(self.principal)}",
            limit=LEXICAL_HEAD,
            wanted=ARM_FETCH,
        )
        return [record["seq"] for record in records]

    def _semantic(self, view: SemanticView, vector: Future[Vectors]) -> list[int]:
        return [
            hit.seq
            for hit in view.search(vector.result()[0], ARM_FETCH)
            if hit.similarity >= SEMANTIC_MIN_SIMILARITY
        ]

    def _structured(self, request: RecallQuery) -> list[int]:
        keys = [s for s in request.symbols or [] if "::" in s]
        names = [s for s in request.symbols or [] if "::" not in s]
        if names and request.project is not None:
            records = self.db.read(
                "recall/symbols_named",
                principal=self.principal,
                project=request.project,
                names=names,
            )
            keys.extend(record["key"] for record in records)
        prefixes = []
        for path in request.paths or []:
            spec = language_for_path(path)
            if spec is not None:
                prefixes.append(f"{spec.name}:{path}::")
        if not (keys or prefixes or request.subjects):
            return []
        records = self.db.read(
            "recall/belief_structured",
            principal=self.principal,
            keys=sorted(set(keys)),
            prefixes=sorted(set(prefixes)),
            subjects=list(request.subjects or []),
            limit=ARM_FETCH,
        )
        return [record["seq"] for record in records]

    def _gather(self, surface: Surface, request: RecallQuery, fetch: Fetch) -> _Gathered:
        """Runs the arms, applies the hard filters and cuts each list for fusion."""
        unavailable = sorted(set(request.arms) - AVAILABLE_ARMS[surface])
        if unavailable:
            allowed = ", ".join(sorted(AVAILABLE_ARMS[surface]))
            raise InvalidInput(
                f"arms: {', '.join(unavailable)} not available for {surface}s; use {allowed}",
                field="arms",
                rule="available",
            )
        timings: dict[str, float] = {}
        seeding = Arm.GRAPH in request.arms  # the graph arm expands from the others

        def timed(arm: str, work: Callable[[], T]) -> Callable[[], T]:
            def run() -> T:
                started = time.perf_counter()
                try:
                    return work()
                finally:
                    timings[arm] = (time.perf_counter() - started) * 1000

            return run

        semantic: tuple[SemanticView, Future[int], Future[Vectors]] | None = None
        if Arm.SEMANTIC in request.arms or seeding:
            # The view catches up while the query embeds, both beside the lexical arm.
            view = self.view(surface)
            semantic = (
                view,
                self._arm_pool.submit(timed("sync", view.sync)),
                self._arm_pool.submit(timed("embed", lambda: view.embedder.embed([request.query]))),
            )
        offered: dict[str, list[int]] = {}
        if Arm.LEXICAL in request.arms or seeding:
            offered["lexical"] = timed("lexical", lambda: self._lexical(surface, request.query))()
        if surface == "belief" and (Arm.STRUCTURED in request.arms or seeding):
            offered["structured"] = timed("structured", lambda: self._structured(request))()
        if semantic is not None:
            view, synced, vector = semantic
            synced.result()
            offered["semantic"] = timed("semantic", lambda: self._semantic(view, vector))()
        seeds = _graph_seeds(offered) if seeding else []
        started = time.perf_counter()
        found = fetch(sorted({seq for seqs in offered.values() for seq in seqs}), seeds)
        timings["candidates"] = (time.perf_counter() - started) * 1000
        lists = {
            arm: [found[seq].id for seq in seqs if seq in found][:FUSION_DEPTH]
            for arm, seqs in offered.items()
        }
        ranked = {arm: ids for arm, ids in lists.items() if ids and arm in request.arms}
        if seeding:
            graph = _graph_list(found.values(), seeds)[:FUSION_DEPTH]
            if graph:
                ranked["graph"] = graph
        offered_count = sum(len(set(seqs)) for seqs in offered.values())
        blocked = offered_count - sum(
            len({seq for seq in seqs if seq in found}) for seqs in offered.values()
        )
        return _Gathered(
            {candidate.id: candidate.payload for candidate in found.values()},
            ranked,
            blocked,
            timings,
        )

    def _fetch_beliefs(self, request: RecallQuery) -> Fetch:
        def fetch(seqs: list[int], seeds: list[int]) -> dict[int, _Candidate]:
            records = self.db.read(
                "recall/belief_candidates",
                principal=self.principal,
                seqs=seqs,
                seeds=seeds,
                per_seed=FUSION_DEPTH,
                types=[t.value for t in request.types] if request.types else None,
                as_of=request.as_of,
                now=datetime.now(UTC),
                project=request.project,
            )
            beliefs = [(_belief(record), record["reached"]) for record in records]
            return {belief.seq: _candidate(belief.id, belief, near) for belief, near in beliefs}

        return fetch

    def _fetch_episodes(self, request: RecallQuery) -> Fetch:
        def fetch(seqs: list[int], seeds: list[int]) -> dict[int, _Candidate]:
            records = self.db.read(
                "recall/episode_candidates",
                principal=self.principal,
                seqs=seqs,
                seeds=seeds,
                width=GRAPH_WIDTH,
                as_of=request.as_of,
                project=request.project,
            )
            episodes = [(dict(record["episode"]), record["reached"]) for record in records]
            return {
                episode["seq"]: _candidate(episode["id"], episode, near)
                for episode, near in episodes
            }

        return fetch

    def recall(self, request: RecallQuery) -> RecallResult:
        """Recalls beliefs (see :meth:`graphmem.GraphMem.recall`)."""
        started = time.perf_counter()
        gathered = self._gather("belief", request, self._fetch_beliefs(request))
        candidates: dict[str, _Belief] = gathered.payloads
        fused, arm_ranks = reciprocal_rank_fusion(gathered.ranked)
        anchors = {
            status.belief_id: status
            for status in anchor_statuses(
                self.db,
                self.principal,
                [candidates[i] for i in fused],
                request.project,
                with_candidates=False,
            )
        }
        newest = self._newest_seq(request) if request.decay is not Decay.NONE else 0
        weighed: list[Weighed] = []
        for belief_id, rrf in fused.items():
            belief = candidates[belief_id]
            weight = scope_weight(request.project, belief.origins, belief.scope, belief.portability)
            if weight is None:
                continue
            weighed.append(
                Weighed(
                    id=belief_id,
                    rrf=rrf,
                    confidence=belief.confidence,
                    state=belief.state,
                    anchor_penalty=anchors[belief_id].anchor_penalty,
                    scope_weight=weight,
                    decay=decay_weight(request.decay, newest - belief.cited_seq),
                    disputed=belief.disputed,
                )
            )
        chosen = rank(weighed)[: request.k]
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
        timings = {**gathered.timings_ms, "total": (time.perf_counter() - started) * 1000}
        return RecallResult(
            items=items,
            conflicts=conflicts,
            **self._traced(
                "belief",
                request,
                items,
                rendered,
                len(fused) - len(items),
                gathered.blocked,
                arm_ranks,
                timings,
            ),
        )

    def _newest_seq(self, request: RecallQuery) -> int:
        records = self.db.read("recall/newest_seq", principal=self.principal, as_of=request.as_of)
        return int(records[0]["seq"]) if records else 0

    def search_episodes(self, request: RecallQuery) -> EpisodeSearchResult:
        """Searches episodes (see :meth:`graphmem.GraphMem.search_episodes`)."""
        started = time.perf_counter()
        gathered = self._gather("episode", request, self._fetch_episodes(request))
        episodes: dict[str, dict[str, Any]] = gathered.payloads
        fused, arm_ranks = reciprocal_rank_fusion(gathered.ranked)
        ordered = rank(
            [
                Weighed(episode_id, rrf, 1.0, BeliefState.ACTIVE, 1.0, 1.0)
                for episode_id, rrf in fused.items()
            ]
        )
        items = [
            EpisodeHit(
                id=c.id,
                title=episodes[c.id]["title"],
                text=episodes[c.id].get("text"),
                project=episodes[c.id]["project"],
                kind=episodes[c.id]["kind"],
                outcome=episodes[c.id]["outcome"],
                arm_ranks=arm_ranks.get(c.id, {}),
                score=round(c.score, 8),
            )
            for c in ordered[: request.k]
        ]
        rendered = render_episodes(request.query, request.project, items)
        timings = {**gathered.timings_ms, "total": (time.perf_counter() - started) * 1000}
        return EpisodeSearchResult(
            items=items,
            **self._traced(
                "episode",
                request,
                items,
                rendered,
                len(fused) - len(items),
                gathered.blocked,
                arm_ranks,
                timings,
            ),
        )

    def snapshot(self, project: str, profile: SnapshotProfile | str) -> RecallResult:
        """What to load at the start of a session in ``project`` (design §5.8).

        No query: live beliefs that apply in the project, durable preferences and
        user-stated beliefs first (about two thirds), then the rest, each group by
        read-time weight (confidence, state, anchor penalty, scope), then newest, then
        id; the item cap is primary, the token cap a backstop.

        Raises:
            InvalidInput: Unknown profile.
        """
        if profile not in SNAPSHOT_PROFILES:
            raise InvalidInput(
                f"profile: use one of {', '.join(SNAPSHOT_PROFILES)}", field="profile", rule="enum"
            )
        started = time.perf_counter()
        item_cap, token_cap = SNAPSHOT_PROFILES[SnapshotProfile(profile)]
        records = self.db.read(
            "recall/snapshot_candidates",
            principal=self.principal,
            project=project,
            now=datetime.now(UTC),
            limit=SNAPSHOT_POOL,
        )
        beliefs = [_belief(record) for record in records]
        anchors = {
            s.belief_id: s
            for s in anchor_statuses(
                self.db, self.principal, beliefs, project, with_candidates=False
            )
        }
        scored: list[tuple[bool, float, int, _Belief]] = []
        for belief in beliefs:
            weight = scope_weight(project, belief.origins, belief.scope, belief.portability)
            if weight is None:
                continue
            is_durable = belief.type == "preference" or belief.authority == "user"
            factor = Weighed(
                belief.id,
                1.0,
                belief.confidence,
                belief.state,
                anchors[belief.id].anchor_penalty,
                weight,
                disputed=belief.disputed,
            ).score
            scored.append((is_durable, factor, belief.seq, belief))
        order = sorted(scored, key=lambda entry: (-entry[1], -entry[2], entry[3].id))
        durable = [entry[3] for entry in order if entry[0]]
        others = [entry[3] for entry in order if not entry[0]]
        share = round(item_cap * SNAPSHOT_DURABLE_SHARE)
        chosen = durable[:share] + others[: item_cap - min(share, len(durable))]
        chosen += durable[share : share + item_cap - len(chosen)]
        query = f"snapshot ({profile})"
        items: list[RecallItem] = []
        for belief in chosen:
            item = _item(belief, anchors[belief.id], {}, 0.0)
            candidate = render_beliefs(query, project, [*items, item], [])
            if len(candidate) / CHARS_PER_TOKEN > token_cap:
                break
            items.append(item)
        rendered = render_beliefs(query, project, items, [])
        request = RecallQuery(query=query, project=project, k=item_cap)
        timings = {"total": (time.perf_counter() - started) * 1000}
        return RecallResult(
            items=items,
            conflicts=[],
            **self._traced(
                "snapshot",
                request,
                items,
                rendered,
                len(scored) - len(items),
                len(beliefs) - len(scored),
                {},
                timings,
            ),
        )

    def _traced(
        self,
        surface: str,
        request: RecallQuery,
        items: Sequence[RecallItem | EpisodeHit],
        rendered: str,
        dropped: int,
        blocked: int,
        arm_ranks: Mapping[str, Mapping[str, int]],
        timings_ms: Mapping[str, float],
    ) -> dict[str, Any]:
        """Records the call's :RecallTrace (in the background).

        Returns:
            The result fields every surface shares: query, project, counts, rendering
            and the trace id.
        """
        trace_id = new_id()
        bands = [item.confidence_band if isinstance(item, RecallItem) else "" for item in items]
        trace: dict[str, Any] = {
            "id": trace_id,
            "surface": surface,
            "query": request.query,
            "project": request.project,
            "as_of": request.as_of,
            "k": request.k,
            "arms": [arm.value for arm in request.arms],
            "decay": request.decay.value,
            "item_ids": [item.id for item in items],
            "bands": bands,
            "dropped": dropped,
            "blocked": blocked,
            "rendered_sha256": sha256_of(rendered),
            "at": datetime.now(UTC),
            "operator_arm_ranks": json.dumps(
                {item.id: dict(arm_ranks.get(item.id, {})) for item in items}, sort_keys=True
            ),
            "operator_latency_ms": json.dumps(
                {name: round(ms, 3) for name, ms in sorted(timings_ms.items())}
            ),
            "operator_policy_version": POLICY_VERSION,
        }
        self._traces.submit(trace)
        return {
            "query": request.query,
            "project": request.project,
            "dropped": dropped,
            "blocked": blocked,
            "rendered": rendered,
            "rendered_sha256": trace["rendered_sha256"],
            "trace_id": trace_id,
        }


def _graph_seeds(offered: Mapping[str, Sequence[int]]) -> list[int]:
    """The graph arm's seeds: the best ``GRAPH_SEEDS`` hits of the other arms, fused.

    They are chosen before the hard filters so that one round trip fetches the hits
    and their neighbours; a seed that is then filtered out is not returned, but what
    lies next to it may be.
    """
    fused, _ = reciprocal_rank_fusion(
        {arm: [str(seq) for seq in seqs[:FUSION_DEPTH]] for arm, seqs in offered.items()}
    )
    best = sorted(fused, key=lambda seq: (-fused[seq], int(seq)))[:GRAPH_SEEDS]
    return [int(seq) for seq in best]


def _graph_list(found: Iterable[_Candidate], seeds: Sequence[int]) -> list[str]:
    """The graph arm's ranked list: nearest first, then by seed rank, then id."""
    seed_rank = {seed: position for position, seed in enumerate(seeds)}
    reached = [
        (hops, seed_rank[seed], candidate.id)
        for candidate in found
        for seed, hops in candidate.reached
        if seed in seed_rank
    ]
    return list(dict.fromkeys(node_id for _, _, node_id in sorted(reached)))


def _candidate(node_id: str, payload: Any, reached: Iterable[Mapping[str, int]]) -> _Candidate:
    return _Candidate(node_id, payload, [(near["seed"], near["hops"]) for near in reached])


def _item(
    belief: _Belief, anchor: AnchorStatus, arm_ranks: Mapping[str, int], score: float
) -> RecallItem:
    return RecallItem(
        id=belief.id,
        statement=belief.statement,
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
    )


def _belief(record: Mapping[str, Any]) -> _Belief:
    props = record["belief"]
    return _Belief(
        id=props["id"],
        authority=props.get("authority", "agent"),
        seq=props["seq"],
        project=props["project"],
        statement=props["statement"],
        type=BeliefType(props["type"]),
        confidence=props["confidence"],
        state=BeliefState(props["state"]),
        scope=Scope(props["scope"]),
        portability=Portability(props["portability"]),
        origins=list(props["origins"]),
        anchor_key=props.get("anchor_key"),
        anchor_hash=props.get("anchor_hash"),
        evidence=list(record["evidence"]),
        conflicts=list(record["conflicts"]),
        disputed=bool(props.get("disputed")),
        cited_seq=max(props["seq"], props.get("cited_seq") or 0),
    )
