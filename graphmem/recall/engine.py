"""The recall pipeline (design §5): hard filters, arms, fusion, ranking, rendering, trace.

Reads never mutate memory (rule 4): anchor state, weights and scores are computed here
and stored nowhere; the one write is the ``:RecallTrace`` of each call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.anchors.state import anchor_statuses
from graphmem.embed.protocol import Embedder
from graphmem.errors import InvalidInput
from graphmem.models import (
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
AVAILABLE_ARMS = {
    "belief": frozenset({Arm.LEXICAL, Arm.SEMANTIC}),
    "episode": frozenset({Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH}),
}


@dataclass(frozen=True)
class _Belief:
    id: str
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


@dataclass(frozen=True)
class _Arms:
    """Each arm's candidates: ids in the arm's order, and semantic seqs."""

    lexical: list[str]
    semantic: list[int]
    timings_ms: dict[str, float]


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

    def view(self, surface: Surface) -> SemanticView:
        """The semantic view of one surface (created on first use)."""
        if surface not in self._views:
            self._views[surface] = SemanticView(
                self.db, self.principal, surface, self._embedder_factory(), self._views_dir
            )
        return self._views[surface]

    def _arms(self, surface: Surface, request: RecallQuery) -> _Arms:
        unavailable = sorted(set(request.arms) - AVAILABLE_ARMS[surface])
        if unavailable:
            allowed = ", ".join(sorted(AVAILABLE_ARMS[surface]))
            raise InvalidInput(
                f"arms: {', '.join(unavailable)} not available for {surface}s yet; use {allowed}",
                field="arms",
                rule="available",
            )
        timings: dict[str, float] = {}
        lexical: list[str] = []
        semantic: list[int] = []
        seeding = Arm.GRAPH in request.arms  # the graph arm expands from these two
        if Arm.LEXICAL in request.arms or seeding:
            started = time.perf_counter()
            terms = lucene_terms(request.query)
            if terms:
                lucene = f"({terms}) AND principal_key:{principal_key(self.principal)}"
                records = self.db.read(
                    f"recall/{surface}_lexical",
                    principal=self.principal,
                    lucene=lucene,
                    limit=ARM_FETCH,
                )
                lexical = [record["id"] for record in records]
            timings["lexical"] = (time.perf_counter() - started) * 1000
        if Arm.SEMANTIC in request.arms or seeding:
            started = time.perf_counter()
            view = self.view(surface)
            view.sync()
            vector = view.embedder.embed([request.query])[0]
            semantic = [
                hit.seq
                for hit in view.search(vector, ARM_FETCH)
                if hit.similarity >= SEMANTIC_MIN_SIMILARITY
            ]
            timings["semantic"] = (time.perf_counter() - started) * 1000
        return _Arms(lexical, semantic, timings)

    def recall(self, request: RecallQuery) -> RecallResult:
        """Recalls beliefs (see :meth:`graphmem.GraphMem.recall`)."""
        started = time.perf_counter()
        arms = self._arms("belief", request)
        records = self.db.read(
            "recall/belief_candidates",
            principal=self.principal,
            ids=arms.lexical,
            seqs=arms.semantic,
            types=[t.value for t in request.types] if request.types else None,
            as_of=request.as_of,
            now=datetime.now(UTC),
            project=request.project,
        )
        candidates = {record["belief"]["id"]: _belief(record) for record in records}
        ranked, blocked = _arm_lists(
            arms, {candidate.seq: candidate.id for candidate in candidates.values()}
        )
        fused, arm_ranks = reciprocal_rank_fusion(ranked)
        anchors = {
            status.belief_id: status
            for status in anchor_statuses(
                self.db, self.principal, list(candidates.values()), request.project
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
        ordered = rank(weighed)
        chosen = ordered[: request.k]
        items = [
            RecallItem(
                id=c.id,
                statement=candidates[c.id].statement,
                type=candidates[c.id].type,
                confidence_band=confidence_band(c.confidence),
                project=candidates[c.id].project,
                origins=sorted(candidates[c.id].origins),
                scope=candidates[c.id].scope,
                anchor_state=anchors[c.id].state,
                applies_here=anchors[c.id].applies_here,
                evidence=sorted(candidates[c.id].evidence),
                arm_ranks=arm_ranks.get(c.id, {}),
                score=round(c.score, 8),
            )
            for c in chosen
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
        dropped = len(fused) - len(items)
        timings = {**arms.timings_ms, "total": (time.perf_counter() - started) * 1000}
        trace_id = self._trace(
            "belief", request, items, rendered, dropped, blocked, arm_ranks, timings
        )
        return RecallResult(
            query=request.query,
            project=request.project,
            items=items,
            conflicts=conflicts,
            dropped=dropped,
            blocked=blocked,
            rendered=rendered,
            rendered_sha256=sha256_of(rendered),
            trace_id=trace_id,
        )

    def search_episodes(self, request: RecallQuery) -> EpisodeSearchResult:
        """Searches episodes (see :meth:`graphmem.GraphMem.search_episodes`)."""
        started = time.perf_counter()
        arms = self._arms("episode", request)
        records = self.db.read(
            "recall/episode_candidates",
            principal=self.principal,
            ids=arms.lexical,
            seqs=arms.semantic,
            as_of=request.as_of,
            project=request.project,
        )
        episodes = {record["episode"]["id"]: dict(record["episode"]) for record in records}
        ranked, blocked = _arm_lists(
            arms, {episode["seq"]: episode_id for episode_id, episode in episodes.items()}
        )
        seeds = ranked
        ranked = {arm: ids for arm, ids in ranked.items() if arm in request.arms}
        if Arm.GRAPH in request.arms and seeds:
            started_graph = time.perf_counter()
            neighbours = self._session_neighbours(seeds)
            unseen = [node_id for node_id in neighbours if node_id not in episodes]
            if unseen:
                records = self.db.read(
                    "recall/episode_candidates",
                    principal=self.principal,
                    ids=unseen,
                    seqs=[],
                    as_of=request.as_of,
                    project=request.project,
                )
                episodes.update({r["episode"]["id"]: dict(r["episode"]) for r in records})
            graph = [node_id for node_id in neighbours if node_id in episodes]
            if graph:
                ranked["graph"] = graph[:FUSION_DEPTH]
            arms.timings_ms["graph"] = (time.perf_counter() - started_graph) * 1000
        fused, arm_ranks = reciprocal_rank_fusion(ranked)
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
        dropped = len(fused) - len(items)
        timings = {**arms.timings_ms, "total": (time.perf_counter() - started) * 1000}
        trace_id = self._trace(
            "episode", request, items, rendered, dropped, blocked, arm_ranks, timings
        )
        return EpisodeSearchResult(
            query=request.query,
            project=request.project,
            items=items,
            dropped=dropped,
            blocked=blocked,
            rendered=rendered,
            rendered_sha256=sha256_of(rendered),
            trace_id=trace_id,
        )

    def _session_neighbours(self, ranked: Mapping[str, Sequence[str]]) -> list[str]:
        """The graph arm: episodes next to the best candidates in their session.

        Seeds are the best fused lexical/semantic candidates; their neighbours are the
        siblings under the same parent episode (PART_OF) within ``GRAPH_WIDTH``
        positions, ordered by hop distance, then seed rank, then id.
        """
        fused, _ = reciprocal_rank_fusion(ranked)
        seeds = sorted(fused, key=lambda node_id: (-fused[node_id], node_id))[:GRAPH_SEEDS]
        seed_rank = {seed: position for position, seed in enumerate(seeds)}
        records = self.db.read(
            "recall/episode_neighbours",
            principal=self.principal,
            seeds=seeds,
            width=GRAPH_WIDTH,
        )
        order = sorted(records, key=lambda r: (r["hops"], seed_rank[r["seed_id"]], r["id"]))
        return list(dict.fromkeys(record["id"] for record in order))

    def _trace(
        self,
        surface: Surface,
        request: RecallQuery,
        items: Sequence[RecallItem | EpisodeHit],
        rendered: str,
        dropped: int,
        blocked: int,
        arm_ranks: Mapping[str, Mapping[str, int]],
        timings_ms: Mapping[str, float],
    ) -> str:
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
        self.db.write(
            lambda tx: run(tx, "recall/write_trace", principal=self.principal, trace=trace)
        )
        return trace_id


def _arm_lists(arms: _Arms, passed: Mapping[int, str]) -> tuple[dict[str, list[str]], int]:
    """Each arm's candidates that passed the hard filters, cut to the fusion depth.

    Args:
        arms: What each arm offered.
        passed: Creation seq → id of the candidates the hard filters let through.

    Returns:
        (arm → ids best first, how many offered candidates were blocked).
    """
    allowed = set(passed.values())
    ranked = {
        "lexical": [node_id for node_id in arms.lexical if node_id in allowed],
        "semantic": [passed[seq] for seq in arms.semantic if seq in passed],
    }
    offered = len(set(arms.lexical)) + len(set(arms.semantic))
    blocked = offered - sum(len(ids) for ids in ranked.values())
    return {arm: ids[:FUSION_DEPTH] for arm, ids in ranked.items() if ids}, blocked


def _belief(record: Mapping[str, Any]) -> _Belief:
    props = record["belief"]
    return _Belief(
        id=props["id"],
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
