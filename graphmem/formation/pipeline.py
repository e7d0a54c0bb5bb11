"""Consolidation (design §6): an episode's candidates through the gates, cheapest first.

trust (rule 5) → tombstones and corrections (rules 6, 7) → novelty (reinforce a live
belief with the same content instead of adding a copy) → cap per episode kind →
resolve (one live belief per (subject, type) slot: supersede when the new authority
is at least the holder's, else link CONFLICTS_WITH and flag) → commit in one
transaction.

Deciding reads the graph and the semantic view; committing is
:func:`graphmem.store.formation.commit_formation`, which re-checks under the clock
lock that every belief it supersedes, conflicts with or reinforces is still live. If
one is not (another writer got there first), the whole episode is decided again.
Every gate is a switch on :class:`~graphmem.models.FormationPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from graphmem.content import normal_form, statement_digest
from graphmem.errors import ConcurrentWrite
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
from graphmem.store.corrections import lower_portability
from graphmem.store.database import Database
from graphmem.store.formation import FormationWrites, StaleDecision, commit_formation
from graphmem.store.ids import new_id
from graphmem.vectors.protocol import Vectors
from graphmem.vectors.views import SemanticView

NOVELTY_NEIGHBOURS = 10
"""How many nearest *live* beliefs the novelty gate compares each candidate with."""
NOVELTY_MAX_FETCH = 2_560
"""The widest FAISS search it makes to find them past superseded and retired vectors."""
UNTRUSTED_LOOKBACK = 500
"""How many held-back untrusted candidates a trusted episode may affirm."""
ATTEMPTS = 3
"""How often an episode is decided again when a concurrent writer made it stale."""


@dataclass
class _Survivor:
    candidate: Candidate
    vector: Vectors


def subjects_agree(a: str | None, b: str | None) -> bool:
    """Two contents may be the same unless both name a subject and the subjects differ."""
    return not (a and b and normal_form(a) != normal_form(b))


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
    for _ in range(ATTEMPTS):
        try:
            return _consolidate_once(db, principal, episode, view, policy, extractor)
        except StaleDecision:
            continue
    raise ConcurrentWrite(
        f"episode_id: concurrent writes kept changing the beliefs episode {episode.id} "
        "touches; run consolidate again",
        field="episode_id",
        rule="stable",
    )


def _consolidate_once(
    db: Database,
    principal: str,
    episode: Episode,
    view: SemanticView,
    policy: FormationPolicy,
    extractor: Extractor,
) -> ConsolidationResult:
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
                "subject": candidate.subject,
                "belief_type": candidate.type.value,
                "digest": statement_digest(candidate.statement, candidate.subject),
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
        candidates = _tombstone_gate(db, principal, candidates, reject)  # rewritten ones
    vectors = view.embedder.embed([c.statement for c in candidates])
    survivors = [_Survivor(c, vectors[i]) for i, c in enumerate(candidates)]
    reinforced: dict[str, _Survivor] = {}  # belief id → the candidate that repeated it
    if policy.novelty_gate and survivors:
        survivors = _novelty_gate(db, principal, view, policy, survivors, reinforced, reject)
    cap = policy.caps[episode.kind]
    if policy.cap_gate and len(survivors) > cap:
        for survivor in survivors[cap:]:
            reject(survivor.candidate, "cap")
        survivors = survivors[:cap]
    created = [(new_id(), survivor) for survivor in survivors]
    for belief_id, survivor in created:
        writes.created.append((belief_id, *_new_belief(survivor.candidate, episode, policy)))
    if policy.resolve_gate:
        _resolve(db, principal, policy.authority, writes, created)
    support: dict[tuple[str, str], str] = {
        (belief_id, episode.id): survivor.candidate.role.value
        for belief_id, survivor in reinforced.items()
    }
    formed = [*created, *reinforced.items()]
    _affirm_untrusted(db, principal, view, policy, formed, support)
    writes.reinforcements = [
        {"belief_id": belief_id, "episode_id": episode_id, "role": role}
        for (belief_id, episode_id), role in support.items()
    ]
    return _committed(db, principal, writes, rejected, sorted(reinforced), [i for i, _ in created])


def _new_belief(
    candidate: Candidate, episode: Episode, policy: FormationPolicy
) -> tuple[NewBelief, dict[str, Any]]:
    """The belief a surviving candidate becomes, and its extra stored properties."""
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
    return NewBelief.model_validate(fields), extra


def _tombstone_gate(
    db: Database, principal: str, candidates: Sequence[Candidate], reject: Any
) -> list[Candidate]:
    """Drops candidates whose content was forgotten (rule 7)."""
    digests = [statement_digest(c.statement, c.subject) for c in candidates]
    if not digests:
        return []
    records = db.read("formation/tombstoned", principal=principal, digests=sorted(set(digests)))
    forgotten = {record["digest"] for record in records}
    kept = []
    for candidate, digest in zip(candidates, digests, strict=True):
        if digest in forgotten:
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
    corrected one (the novelty test) and whose subject agrees. A ``changed``
    correction rewrites the candidate, and later corrections are matched against the
    rewritten statement (a correction of a correction holds).
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
            if current is None or not _same_content(
                rejection["type"],
                rejection["subject"],
                rejection["statement"],
                current,
                float(np.dot(vector, rejected)),
                policy.novelty_threshold,
            ):
                continue
            rewritten = _corrected(current, rejection)
            if rewritten is not None and rewritten.statement != current.statement:
                vector = view.embedder.embed([rewritten.statement])[0]
            current = rewritten
        if current is None:
            reject(candidate, "rejection")
        else:
            kept.append(current)
    return kept


def _same_content(
    kind: str,
    subject: str | None,
    statement: str,
    candidate: Candidate,
    similarity: float,
    threshold: float,
) -> bool:
    """Whether stored content says what ``candidate`` says.

    Stored content is a belief, a correction or a held-back candidate; "the same" is
    the same type, agreeing subjects, and the novelty test on the statements.
    """
    return (
        kind == candidate.type.value
        and subjects_agree(subject, candidate.subject)
        and is_duplicate(statement, candidate.statement, similarity, threshold)
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


def _live_neighbours(
    db: Database, principal: str, view: SemanticView, vectors: Sequence[Vectors]
) -> list[list[tuple[Any, float]]]:
    """For each vector, its nearest live beliefs: (record, similarity), best first.

    The view keeps superseded and retired vectors (``as_of`` reads need them), so a
    search widens until it has ``NOVELTY_NEIGHBOURS`` live ones or the view is spent.
    Each round looks up the liveness of every new hit in one query.
    """
    live: dict[int, Any] = {}  # seq → record, or None when not live
    near: list[list[tuple[Any, float]]] = [[] for _ in vectors]
    pending = list(range(len(vectors)))
    width = NOVELTY_NEIGHBOURS
    while pending:
        hits = {i: view.search(vectors[i], width) for i in pending}
        unknown = sorted({hit.seq for found in hits.values() for hit in found} - set(live))
        if unknown:
            found_live = db.read("formation/live_by_seq", principal=principal, seqs=unknown)
            live.update({seq: None for seq in unknown})
            live.update({record["seq"]: record for record in found_live})
        widen = []
        for i in pending:
            near[i] = [(live[h.seq], h.similarity) for h in hits[i] if live[h.seq] is not None]
            spent = len(hits[i]) < width or width >= NOVELTY_MAX_FETCH
            if len(near[i]) < NOVELTY_NEIGHBOURS and not spent:
                widen.append(i)
            near[i] = near[i][:NOVELTY_NEIGHBOURS]
        pending, width = widen, width * 4
    return near


def _novelty_gate(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    survivors: Sequence[_Survivor],
    reinforced: dict[str, _Survivor],
    reject: Any,
) -> list[_Survivor]:
    """Reinforces a live belief with the same content instead of adding a copy.

    Same content: same type, agreeing subjects, and the novelty test on the statements.
    A candidate that repeats an earlier candidate of the same episode is dropped too.
    """
    view.sync()
    threshold = policy.novelty_threshold
    neighbours = _live_neighbours(db, principal, view, [s.vector for s in survivors])
    kept: list[_Survivor] = []
    for survivor, near in zip(survivors, neighbours, strict=True):
        candidate = survivor.candidate
        match = next(
            (
                (record["id"], similarity)
                for record, similarity in near
                if _same_content(
                    record["type"],
                    record["subject"],
                    record["statement"],
                    candidate,
                    similarity,
                    threshold,
                )
            ),
            None,
        )
        twin = _twin(kept, survivor, threshold)
        if match is not None:
            reinforced.setdefault(match[0], survivor)
            reject(candidate, "novelty", match[0], round(match[1], 4))
        elif twin is not None:
            reject(candidate, "novelty", None, round(twin, 4))
        else:
            kept.append(survivor)
    return kept


def _twin(kept: Sequence[_Survivor], survivor: _Survivor, threshold: float) -> float | None:
    """The similarity to an earlier candidate of the episode with the same content."""
    for earlier in kept:
        similarity = float(np.dot(earlier.vector, survivor.vector))
        other = earlier.candidate
        if _same_content(
            other.type.value,
            other.subject,
            other.statement,
            survivor.candidate,
            similarity,
            threshold,
        ):
            return similarity
    return None


def _resolve(
    db: Database,
    principal: str,
    authority: Authority,
    writes: FormationWrites,
    created: Sequence[tuple[str, _Survivor]],
) -> None:
    """One live belief per (subject, type): supersede by authority, else conflict.

    ``authority`` is the policy's; a candidate rewritten by a ``changed`` correction
    carries its own (user). A candidate that loses on authority is committed and
    flagged, and the stronger holder keeps the slot for the candidates after it.
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
        if holder is not None and AUTHORITY_RANK[stated_by] < AUTHORITY_RANK[holder[1]]:
            writes.conflicts.append((belief_id, holder[0]))
            continue
        if holder is not None:
            writes.supersessions.append((holder[0], belief_id, "formation: newer statement"))
        holders[slot] = (belief_id, stated_by)


def _affirm_untrusted(
    db: Database,
    principal: str,
    view: SemanticView,
    policy: FormationPolicy,
    formed: Sequence[tuple[str, _Survivor]],
    support: dict[tuple[str, str], str],
) -> None:
    """Adds held-back untrusted evidence that a trusted episode affirms (rule 5).

    Affirming means the same content: same type, agreeing subjects, the novelty test.
    Each (belief, episode) pair is supported once.
    """
    if not formed:
        return
    records = db.read(
        "formation/untrusted_candidates", principal=principal, limit=UNTRUSTED_LOOKBACK
    )
    if not records:
        return
    vectors = view.embedder.embed([record["statement"] for record in records])
    for belief_id, survivor in formed:
        candidate = survivor.candidate
        for record, held in zip(records, vectors, strict=True):
            if _same_content(
                record["belief_type"],
                record["subject"],
                record["statement"],
                candidate,
                float(np.dot(survivor.vector, held)),
                policy.novelty_threshold,
            ):
                support.setdefault((belief_id, record["episode_id"]), record["role"])


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
