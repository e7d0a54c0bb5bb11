"""Anchor state at read time (docs/code-anchors.md): computed, never stored (rule 4).

A belief's anchor is checked against the code graph of the project being asked about,
so one belief can be verified in one project and vanished in another.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Protocol

from graphmem.anchors.languages import language_named
from graphmem.content import split_key
from graphmem.models import AnchorCandidate, AnchorState, AnchorStatus
from graphmem.store.codegraph import NearbySymbol, nearby_symbols, resolve_anchors
from graphmem.store.database import Database


class Anchored(Protocol):
    """What anchor resolution needs of a belief."""

    @property
    def id(self) -> str:
        """The belief's id."""
        ...

    @property
    def project(self) -> str:
        """The project it was stated in."""
        ...

    @property
    def anchor_key(self) -> str | None:
        """Its anchor key, if any."""
        ...

    @property
    def anchor_hash(self) -> str | None:
        """The anchored symbol's hash when the belief was written."""
        ...


ANCHOR_WEIGHT: dict[AnchorState, float] = {
    AnchorState.UNANCHORED: 1.0,
    AnchorState.VERIFIED: 1.0,
    AnchorState.VANISHED: 0.5,
    AnchorState.UNVERIFIABLE: 0.4,
    AnchorState.DRIFTED: 0.25,
}
"""Rank multipliers; 0.25 is the floor (rule 2: demote, never delete)."""

MAX_CANDIDATES = 3
SIMILAR_NAME_RATIO = 0.5


def classify(
    anchor_key: str | None,
    anchor_hash: str | None,
    *,
    project_indexed: bool,
    current_hash: str | None,
    file_error: str | None,
) -> tuple[AnchorState, str | None]:
    """Returns the anchor state and, for ``unverifiable``, why (a pure function)."""
    if anchor_key is None:
        return AnchorState.UNANCHORED, None
    if anchor_hash is None:
        return AnchorState.UNVERIFIABLE, "no hash was recorded for the anchor"
    if language_named(split_key(anchor_key)[0]) is None:
        return AnchorState.UNVERIFIABLE, "unsupported language"
    if not project_indexed:
        return AnchorState.UNVERIFIABLE, "the project has no code graph (run graphmem index)"
    if file_error is not None:
        return AnchorState.UNVERIFIABLE, f"its file cannot be parsed: {file_error}"
    if current_hash is None:
        return AnchorState.VANISHED, None
    if current_hash == anchor_hash:
        return AnchorState.VERIFIED, None
    return AnchorState.DRIFTED, None


def _rank_candidates(anchor_key: str, nearby: Sequence[NearbySymbol]) -> list[AnchorCandidate]:
    """Same content first, then the same name elsewhere, then similar names in its file."""
    qualname = split_key(anchor_key)[2]
    ranked: dict[str, tuple[tuple[int, float, str], AnchorCandidate]] = {}
    for symbol in nearby:
        if symbol.key == anchor_key:
            continue
        if symbol.reason == "same content":
            order, score, reason = 0, 1.0, "same content"
        elif symbol.reason == "same name":
            order, score, reason = 1, 1.0, "same name"
        else:
            score = difflib.SequenceMatcher(None, qualname, symbol.qualname).ratio()
            if score < SIMILAR_NAME_RATIO:
                continue
            order, reason = 2, "similar name"
        rank = (order, -score, symbol.key)
        candidate = AnchorCandidate(key=symbol.key, qualname=symbol.qualname, reason=reason)
        if symbol.key not in ranked or rank < ranked[symbol.key][0]:
            ranked[symbol.key] = (rank, candidate)
    return [candidate for _, candidate in sorted(ranked.values(), key=lambda item: item[0])][
        :MAX_CANDIDATES
    ]


def anchor_statuses(
    db: Database,
    principal: str,
    beliefs: Sequence[Anchored],
    project: str | None = None,
    *,
    with_candidates: bool = True,
) -> list[AnchorStatus]:
    """Resolves the anchors of many beliefs in a few queries per project asked about.

    Args:
        db: The database.
        principal: Whose beliefs and code graph.
        beliefs: The beliefs to check.
        project: The project to check against; each belief's own project when None.
        with_candidates: Whether to look up where a vanished anchor may have gone
            (recall only needs the state, and skips that query).
    """
    by_project: dict[str, list[Anchored]] = {}
    for belief in beliefs:
        by_project.setdefault(project or belief.project, []).append(belief)
    statuses: dict[tuple[str, str], AnchorStatus] = {}
    for asked, group in by_project.items():
        # Only an anchor with a recorded hash is checked against the code graph.
        keys = sorted({b.anchor_key for b in group if b.anchor_key and b.anchor_hash})
        found = resolve_anchors(db, principal, asked, [(key, split_key(key)[1]) for key in keys])
        states = {
            belief.id: classify(
                belief.anchor_key,
                belief.anchor_hash,
                project_indexed=found.indexed,
                current_hash=found.hashes.get(belief.anchor_key or ""),
                file_error=found.file_errors.get(belief.anchor_key or ""),
            )
            for belief in group
        }
        vanished = [b for b in group if states[b.id][0] is AnchorState.VANISHED]
        candidates = _candidates(db, principal, asked, vanished) if with_candidates else {}
        for belief in group:
            state, reason = states[belief.id]
            statuses[(belief.id, asked)] = AnchorStatus(
                belief_id=belief.id,
                project=asked,
                anchor_key=belief.anchor_key,
                state=state,
                anchor_weight=ANCHOR_WEIGHT[state],
                applies_here=state in (AnchorState.UNANCHORED, AnchorState.VERIFIED),
                reason=reason,
                candidates=candidates.get(belief.id, []),
            )
    return [statuses[(b.id, project or b.project)] for b in beliefs]


def _candidates(
    db: Database, principal: str, project: str, vanished: Sequence[Anchored]
) -> dict[str, list[AnchorCandidate]]:
    if not vanished:
        return {}
    anchors = []
    for belief in vanished:
        _, path, qualname, _ = split_key(belief.anchor_key or "")
        anchors.append(
            {
                "key": belief.anchor_key,
                "hash": belief.anchor_hash,
                "path": path,
                "name": qualname.rsplit(".", 1)[-1],
            }
        )
    nearby = nearby_symbols(db, principal, project, anchors)
    return {
        belief.id: _rank_candidates(
            belief.anchor_key or "", nearby.get(belief.anchor_key or "", [])
        )
        for belief in vanished
    }
