"""Consolidation (design §6): an episode's candidates through the gates, cheapest first.

trust (rule 5) → tombstones (rule 7) → novelty (reinforce a near-duplicate live belief
of the same type instead of adding a copy) → cap per episode kind → resolve (one live
belief per (subject, type) slot: supersede when the new authority is at least the
holder's, else link CONFLICTS_WITH and flag) → commit in one transaction.

Deciding reads the graph and the semantic view; committing is
:func:`graphmem.store.formation.commit_formation`. Every gate is a switch on
:class:`~graphmem.models.FormationPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from graphmem.embed.protocol import Vectors
from graphmem.formation.extract import Candidate, Extractor
from graphmem.formation.novelty import is_duplicate
from graphmem.models import (
    AUTHORITY_RANK,
    DEFAULT_PORTABILITY,
    Authority,
    Conflict,
    ConsolidationResult,
    CorrectionKind,
    Episode,
    FormationPolicy,
    NewBelief,
    RejectedCandidate,
    Supersession,
    Trust,
)
from graphmem.recall.semantic import SemanticView
from graphmem.store.corrections import lower_portability
from graphmem.store.database import Database
from graphmem.store.formation import FormationWrites, commit_formation
from graphmem.store.ids import new_id
from graphmem.store.memory import statement_digest

NOVELTY_NEIGHBOURS = 10
"""How many nearest beliefs the novelty gate looks at per candidate."""
UNTRUSTED_LOOKBACK = 500
"""How many held-back untrusted candidates a trusted episode may affirm."""


@dataclass
class _Survivor:
    candidate: Candidate
    vector: Vectors


def consolidate(
    db: Database,
    principal: str,
    episode: Episode,
    view: SemanticView,
    policy: FormationPolicy,
    extractor: Extractor,
) -> ConsolidationResult:
    """Forms beliefs from one episode (see :meth:`graphmem.GraphMem.consolidate`)."""
    if episode.consolidated_at is not None:
        return ConsolidationResult(episode_id=episode.id, already_consolidated=True)
    writes = FormationWrites(episode.id, policy.version, policy.authority)
    rejected: list[RejectedCandidate] = []

    def reject(
        candidate: Candidate,
        gate: str,
        similar_to: str | None = None,
        similarity: float | None = None,
    ) -> None:
        rejected.append(
            RejectedCandidate.model_validate(
                {
                    "statement": candidate.statement,
                    "gate": gate,
                    "similar_to": similar_to,
                    "similarity": similarity,
                }
            )
        )
        writes.rejections.append(
            {
                "gate": gate,
                "statement": candidate.statement,
                "digest": statement_digest(candidate.statement),
                "role": candidate.role.value,
                "similar_to": similar_to,
                "similarity": similarity,
            }
        )

    candidates = extractor.extract(episode)
    if policy.trust_gate and episode.trust is Trust.UNTRUSTED:
        for candidate in candidates:
            reject(candidate, "trust")
        return _committed(db, principal, writes, rejected, [], [])
    if policy.rejection_gate:
        candidates = _tombstone_gate(db, principal, candidates, reject)
        candidates = _replay_corrections(db, principal, view, policy, candidates, reject)
    vectors = view.embedder.embed([c.statement for c in candidates])
    survivors = [_Survivor(c, vectors[i]) for i, c in enumerate(candidates)]
    reinforced: dict[str, tuple[str, Vectors]] = {}  # belief id → (role, candidate vector)
    if policy.novelty_gate and survivors:
        survivors = _novelty_gate(db, principal, view, policy, survivors, reinforced, reject)
    cap = policy.caps.get(episode.kind, 0)
    if policy.cap_gate and len(survivors) > cap:
        for survivor in survivors[cap:]:
            reject(survivor.candidate, "cap")
        survivors = survivors[:cap]
    created: list[tuple[str, _Survivor]] = []
    for survivor in survivors:
        candidate = survivor.candidate
        fields: dict[str, Any] = {
            "statement": candidate.statement,
            "project": episode.project,
            "type": candidate.type,
            "subject": candidate.subject,
            "state": candidate.state,
            "authority": candidate.authority or policy.authority,
            "evidence": [{"episode_id": episode.id, "role": candidate.role}],
        }
        if candidate.portability is not None:
            fields["portability"] = candidate.portability
        extra: dict[str, Any] = {}
        if candidate.not_here:
            extra["not_here"] = list(candidate.not_here)
        if candidate.disputed:
            extra["disputed"] = True
        belief_id = new_id()
        writes.created.append((belief_id, NewBelief.model_validate(fields), extra))
        created.append((belief_id, survivor))
    if policy.resolve_gate:
        _resolve(db, principal, policy.authority, writes, created)
    for belief_id, (role, _) in reinforced.items():
        writes.reinforcements.append(
            {"belief_id": belief_id, "episode_id": episode.id, "role": role}
        )
    formed = [(i, s.vector) for i, s in created] + [(i, v) for i, (_, v) in reinforced.items()]
    _affirm_untrusted(db, principal, view, policy, writes, formed)
    return _committed(db, principal, writes, rejected, sorted(reinforced), [i for i, _ in created])


def _tombstone_gate(
    db: Database, principal: str, candidates: Sequence[Candidate], reject: Any
) -> list[Candidate]:
    """Drops candidates whose statement was forgotten (rule 7)."""
    digests = {c.statement: statement_digest(c.statement) for c in candidates}
    records = db.read(
        "formation/tombstoned", principal=principal, digests=sorted(set(digests.values()))
    )
    forgotten = {record["digest"] for record in records}
    kept = []
    for candidate in candidates:
        if digests[candidate.statement] in forgotten:
            reject(candidate, "rejection")
        else:
            kept.append(candidate)
    return kept


def _replay_corrections(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    candidates: Sequence[Candidate],
    reject: Any,
) -> list[Candidate]:
    """Applies every matching correction to each candidate (rule 6), oldest first.

    A correction matches a candidate of the same type whose statement repeats the
    corrected one (the novelty test) and whose subject agrees when both have one.
    """
    rejections = db.read("formation/rejections", principal=principal)
    if not rejections or not candidates:
        return list(candidates)
    wrong = view.embedder.embed([r["statement"] for r in rejections])
    asked = view.embedder.embed([c.statement for c in candidates])
    kept = []
    for candidate, vector in zip(candidates, asked, strict=True):
        current: Candidate | None = candidate
        for rejection, rejected in zip(rejections, wrong, strict=True):
            if current is None or not _matches(rejection, candidate, vector, rejected, policy):
                continue
            current = _corrected(current, rejection)
        if current is None:
            reject(candidate, "rejection")
        else:
            kept.append(current)
    return kept


def _matches(
    rejection: Any,
    candidate: Candidate,
    vector: Vectors,
    rejected: Vectors,
    policy: FormationPolicy,
) -> bool:
    if rejection["type"] != candidate.type.value:
        return False
    if rejection["subject"] and candidate.subject and rejection["subject"] != candidate.subject:
        return False
    similarity = float(np.dot(vector, rejected))
    return is_duplicate(
        rejection["statement"], candidate.statement, similarity, policy.novelty_threshold
    )


def _corrected(candidate: Candidate, rejection: Any) -> Candidate | None:
    """The candidate after one correction; None when it must not form (not true)."""
    kind = CorrectionKind(rejection["kind"])
    if kind is CorrectionKind.NOT_TRUE:
        return None
    if kind is CorrectionKind.CHANGED:
        return replace(candidate, statement=rejection["replacement"], authority=Authority.USER)
    if kind is CorrectionKind.NOT_HERE:
        ceiling = candidate.portability or DEFAULT_PORTABILITY[candidate.type]
        projects = tuple(dict.fromkeys([*candidate.not_here, rejection["project"]]))
        return replace(candidate, portability=lower_portability(ceiling), not_here=projects)
    return replace(candidate, disputed=True)


def _novelty_gate(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    survivors: Sequence[_Survivor],
    reinforced: dict[str, tuple[str, Vectors]],
    reject: Any,
) -> list[_Survivor]:
    """Reinforces a live same-type belief at cosine ≥ threshold instead of a copy.

    A candidate that repeats an earlier candidate of the same episode is dropped too.
    """
    view.sync()
    hits = {i: view.search(s.vector, NOVELTY_NEIGHBOURS) for i, s in enumerate(survivors)}
    seqs = sorted({hit.seq for found in hits.values() for hit in found})
    live = {
        record["seq"]: (record["id"], record["type"], record["statement"])
        for record in db.read("formation/live_by_seq", principal=principal, seqs=seqs)
    }
    threshold = policy.novelty_threshold
    kept: list[_Survivor] = []
    for i, survivor in enumerate(survivors):
        candidate = survivor.candidate
        match = next(
            (
                (live[hit.seq][0], hit.similarity)
                for hit in hits[i]
                if hit.seq in live
                and live[hit.seq][1] == candidate.type
                and is_duplicate(live[hit.seq][2], candidate.statement, hit.similarity, threshold)
            ),
            None,
        )
        twin = next(
            (
                k
                for k in kept
                if k.candidate.type == candidate.type
                and is_duplicate(
                    k.candidate.statement,
                    candidate.statement,
                    float(np.dot(k.vector, survivor.vector)),
                    threshold,
                )
            ),
            None,
        )
        if match is not None:
            reinforced.setdefault(match[0], (candidate.role.value, survivor.vector))
            reject(candidate, "novelty", match[0], round(match[1], 4))
        elif twin is not None:
            reject(
                candidate, "novelty", None, round(float(np.dot(twin.vector, survivor.vector)), 4)
            )
        else:
            kept.append(survivor)
    return kept


def _resolve(
    db: Database,
    principal: str,
    authority: Authority,
    writes: FormationWrites,
    created: Sequence[tuple[str, _Survivor]],
) -> None:
    """One live belief per (subject, type): supersede by authority, else conflict.

    ``authority`` is the policy's; a candidate rewritten by a ``changed`` correction
    carries its own (user).
    """
    slotted = [(i, s.candidate) for i, s in created if s.candidate.subject is not None]
    if not slotted:
        return
    slots = sorted({(c.subject or "", c.type.value) for _, c in slotted})
    holders: dict[tuple[str, str], tuple[str, Authority]] = {}
    for record in db.read(
        "formation/slot_holders",
        principal=principal,
        slots=[{"subject": subject, "type": kind} for subject, kind in slots],
    ):
        holders.setdefault(
            (record["subject"], record["type"]), (record["id"], Authority(record["authority"]))
        )
    for belief_id, candidate in slotted:
        slot = (candidate.subject or "", candidate.type.value)
        holder = holders.get(slot)
        stated_by = candidate.authority or authority
        if holder is not None:
            if AUTHORITY_RANK[stated_by] >= AUTHORITY_RANK[holder[1]]:
                writes.supersessions.append((holder[0], belief_id, "formation: newer statement"))
            else:
                writes.conflicts.append((belief_id, holder[0]))
        holders[slot] = (belief_id, stated_by)


def _affirm_untrusted(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    writes: FormationWrites,
    formed: Sequence[tuple[str, Vectors]],
) -> None:
    """Adds held-back untrusted evidence that a trusted episode affirms (rule 5)."""
    if not formed:
        return
    records = db.read(
        "formation/untrusted_candidates", principal=principal, limit=UNTRUSTED_LOOKBACK
    )
    if not records:
        return
    vectors = view.embedder.embed([record["statement"] for record in records])
    for belief_id, vector in formed:
        for record, held in zip(records, vectors, strict=True):
            if float(np.dot(vector, held)) >= policy.novelty_threshold:
                writes.reinforcements.append(
                    {
                        "belief_id": belief_id,
                        "episode_id": record["episode_id"],
                        "role": record["role"],
                    }
                )


def _committed(
    db: Database,
    principal: str,
    writes: FormationWrites,
    rejected: list[RejectedCandidate],
    reinforced: list[str],
    created: list[str],
) -> ConsolidationResult:
    outcome = commit_formation(db, principal, writes)
    if outcome is None:
        return ConsolidationResult(episode_id=writes.episode_id, already_consolidated=True)
    return ConsolidationResult(
        episode_id=writes.episode_id,
        created=created,
        reinforced=reinforced,
        activated=outcome.activated,
        promoted=outcome.promoted,
        superseded=[Supersession(old=old, new=new) for old, new, _ in writes.supersessions],
        conflicts=[Conflict(a=min(a, b), b=max(a, b)) for a, b in writes.conflicts],
        rejected=rejected,
    )
