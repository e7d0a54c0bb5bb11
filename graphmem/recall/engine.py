"""The recall pipeline (design §5): hard filters, arms, fusion, ranking, rendering, trace.

Reads never mutate memory (rule 4): anchor state, weights and scores are computed here
and stored nowhere; the one write is the ``:RecallTrace`` of each call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from graphmem.anchors.languages import language_for_path
from graphmem.anchors.state import anchor_statuses
from graphmem.embed.protocol import Embedder
from graphmem.errors import InvalidInput
from graphmem.models import (
    AnchorStatus,
    Arm,
    BeliefState,
    BeliefType,
    Conflict,
    EpisodeHit,
    EpisodeSearchResult,
    Portability,
    RecallItem,
    RecallQuery,
    RecallResult,
    Scope,
)
from graphmem.recall.fusion import reciprocal_rank_fusion
from graphmem.recall.lucene import lucene_terms
from graphmem.recall.ranking import Weighed, confidence_band, rank, scope_weight
from graphmem.recall.render import render_beliefs, render_episodes, sha256_of
from graphmem.recall.semantic import SemanticView, Surface
from graphmem.store.database import Database, run
from graphmem.store.ids import new_id
from graphmem.store.memory import principal_key

T = TypeVar("T")

ARM_FETCH = 50
"""How many candidates each arm fetches before the hard filters."""
FUSION_DEPTH = 15
"""How many of its best surviving candidates each arm contributes to fusion. Deeper
lists let a weak arm's tail outvote a strong arm's head (LoCoMo R@10: 0.55 at 50,
0.64 at 10-15, lexical+semantic)."""
GRAPH_SEEDS = 5
"""The best fused lexical/semantic candidates the graph arm expands from."""
GRAPH_WIDTH = 2
"""How far along a session (PART_OF siblings) the graph arm walks from a seed."""
SEMANTIC_MIN_SIMILARITY = 0.2
"""Below this cosine a neighbour is unrelated: the semantic arm does not offer it."""
POLICY_VERSION = "recall-v1"
SNAPSHOT_PROFILES: dict[str, tuple[int, int]] = {
    "interactive": (40, 1_500),
    "long": (80, 3_000),
    "child": (15, 500),
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


@dataclass
class _Gathered:
    """The candidates that passed the hard filters and each enabled arm's list."""

    payloads: dict[str, Any]
    ranked: dict[str, list[str]]
    blocked: int
    timings_ms: dict[str, float]


Fetch = Callable[[list[str], list[int]], dict[str, tuple[int, Any]]]
"""Fetches candidates by ids and creation seqs through the hard filters:
id → (seq, payload)."""


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
        # Lexical (a database round trip) runs beside semantic (embedding on the CPU).
        self._arm_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-arm")
        # Traces are written off the answer's path; flush() waits for them.
        self._trace_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-trace")
        self._pending_traces: list[Future[Any]] = []

    def flush(self) -> None:
        """Waits until every recall trace is written; raises the first failure."""
        pending, self._pending_traces = self._pending_traces, []
        for future in pending:
            future.result()

    def close(self) -> None:
        """Writes pending traces and stops the worker threads."""
        try:
            self.flush()
        finally:
            self._arm_pool.shutdown(wait=True)
            self._trace_pool.shutdown(wait=True)

    def view(self, surface: Surface) -> SemanticView:
        """The semantic view of one surface (created on first use)."""
        if surface not in self._views:
            self._views[surface] = SemanticView(
                self.db, self.principal, surface, self._embedder_factory(), self._views_dir
            )
        return self._views[surface]

    def _lexical(self, surface: Surface, query: str) -> list[str]:
        terms = lucene_terms(query)
        if not terms:
            return []
        lucene = f"({terms}) AND principal_key:{principal_key(self.principal)}"
        records = self.db.read(
            f"recall/{surface}_lexical", principal=self.principal, lucene=lucene, limit=ARM_FETCH
        )
        return [record["id"] for record in records]

    def _semantic(self, surface: Surface, query: str) -> list[int]:
        view = self.view(surface)
        view.sync()
        vector = view.embedder.embed([query])[0]
        return [
            hit.seq
            for hit in view.search(vector, ARM_FETCH)
            if hit.similarity >= SEMANTIC_MIN_SIMILARITY
        ]

    def _structured(self, request: RecallQuery) -> list[str]:
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
        return [record["id"] for record in records]

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

        semantic_future: Future[list[int]] | None = None
        if Arm.SEMANTIC in request.arms or seeding:
            semantic_future = self._arm_pool.submit(
                timed("semantic", lambda: self._semantic(surface, request.query))
            )
        offered_ids: dict[str, list[str]] = {}
        if Arm.LEXICAL in request.arms or seeding:
            offered_ids["lexical"] = timed(
                "lexical", lambda: self._lexical(surface, request.query)
            )()
        if surface == "belief" and (Arm.STRUCTURED in request.arms or seeding):
            offered_ids["structured"] = timed("structured", lambda: self._structured(request))()
        semantic = semantic_future.result() if semantic_future is not None else []
        wanted = sorted({node_id for ids in offered_ids.values() for node_id in ids})
        payloads = fetch(wanted, semantic)
        by_seq = {seq: node_id for node_id, (seq, _) in payloads.items()}
        lists = {arm: [i for i in ids if i in payloads] for arm, ids in offered_ids.items()}
        lists["semantic"] = [by_seq[seq] for seq in semantic if seq in by_seq]
        offered = sum(len(set(ids)) for ids in offered_ids.values()) + len(set(semantic))
        blocked = offered - sum(len(ids) for ids in lists.values())
        lists = {arm: ids[:FUSION_DEPTH] for arm, ids in lists.items() if ids}
        ranked = {arm: ids for arm, ids in lists.items() if arm in request.arms}
        if seeding and lists:
            started = time.perf_counter()
            neighbours = self._neighbours(surface, lists)[: 2 * FUSION_DEPTH]
            unseen = [node_id for node_id in neighbours if node_id not in payloads]
            if unseen:
                payloads.update(fetch(unseen, []))
            graph = [node_id for node_id in neighbours if node_id in payloads]
            if graph:
                ranked["graph"] = graph[:FUSION_DEPTH]
            timings["graph"] = (time.perf_counter() - started) * 1000
        return _Gathered(
            {node_id: payload for node_id, (_, payload) in payloads.items()},
            ranked,
            blocked,
            timings,
        )

    def _neighbours(self, surface: Surface, lists: Mapping[str, Sequence[str]]) -> list[str]:
        """The graph arm: what lies next to the best candidates, nearest first.

        Seeds are the best fused candidates of the other arms. For episodes the
        neighbours are PART_OF siblings within ``GRAPH_WIDTH`` positions (session
        adjacency); for beliefs, beliefs sharing an anchored symbol or its container,
        a subject, or a source episode. Ordered by hop distance, seed rank, then id.
        """
        fused, _ = reciprocal_rank_fusion(lists)
        seeds = sorted(fused, key=lambda node_id: (-fused[node_id], node_id))[:GRAPH_SEEDS]
        seed_rank = {seed: position for position, seed in enumerate(seeds)}
        records = self.db.read(
            f"recall/{surface}_neighbours",
            principal=self.principal,
            seeds=seeds,
            width=GRAPH_WIDTH,
            per_seed=FUSION_DEPTH,
        )
        order = sorted(records, key=lambda r: (r["hops"], seed_rank[r["seed_id"]], r["id"]))
        return list(dict.fromkeys(record["id"] for record in order))

    def _fetch_beliefs(self, request: RecallQuery) -> Fetch:
        def fetch(ids: list[str], seqs: list[int]) -> dict[str, tuple[int, Any]]:
            records = self.db.read(
                "recall/belief_candidates",
                principal=self.principal,
                ids=ids,
                seqs=seqs,
                types=[t.value for t in request.types] if request.types else None,
                as_of=request.as_of,
                now=datetime.now(UTC),
                project=request.project,
            )
            beliefs = [_belief(record) for record in records]
            return {belief.id: (belief.seq, belief) for belief in beliefs}

        return fetch

    def _fetch_episodes(self, request: RecallQuery) -> Fetch:
        def fetch(ids: list[str], seqs: list[int]) -> dict[str, tuple[int, Any]]:
            records = self.db.read(
                "recall/episode_candidates",
                principal=self.principal,
                ids=ids,
                seqs=seqs,
                as_of=request.as_of,
                project=request.project,
            )
            return {
                record["episode"]["id"]: (record["episode"]["seq"], dict(record["episode"]))
                for record in records
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
                self.db, self.principal, [candidates[i] for i in fused], request.project
            )
        }
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

    def snapshot(self, project: str, profile: str) -> RecallResult:
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
        item_cap, token_cap = SNAPSHOT_PROFILES[profile]
        records = self.db.read(
            "recall/snapshot_candidates",
            principal=self.principal,
            project=project,
            now=datetime.now(UTC),
            limit=SNAPSHOT_POOL,
        )
        beliefs = [_belief(record) for record in records]
        anchors = {
            s.belief_id: s for s in anchor_statuses(self.db, self.principal, beliefs, project)
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
        self._pending_traces = [f for f in self._pending_traces if not f.done() or f.exception()]
        self._pending_traces.append(
            self._trace_pool.submit(
                self.db.write,
                lambda tx: run(tx, "recall/write_trace", principal=self.principal, trace=trace),
            )
        )
        return {
            "query": request.query,
            "project": request.project,
            "dropped": dropped,
            "blocked": blocked,
            "rendered": rendered,
            "rendered_sha256": trace["rendered_sha256"],
            "trace_id": trace_id,
        }


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
    )
