"""The formation gates (docs/formation.md) as pure functions, and :func:`decide`.

:func:`decide` runs them in order over one episode's candidates: trust (rule 5) →
tombstones and corrections (rules 6, 7) → novelty (reinforce a live belief with the
same content instead of adding a copy) → cap per episode kind → resolve (one live
belief per (subject, type) slot: supersede when the new authority is at least the
holder's, else link ``CONFLICTS_WITH`` and flag).

Nothing here reads the database or a vector index: what the gates need comes through
a :class:`FormationContext` (the pipeline's is backed by the store and the semantic
view), so every gate, and every switch of :class:`~graphmem.models.FormationPolicy`,
is testable on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

import numpy as np

from graphmem.content import normal_form, statement_digest
from graphmem.formation.expiry import observed_at
from graphmem.formation.extract import Candidate
from graphmem.formation.novelty import is_duplicate
from graphmem.models import (
    AUTHORITY_RANK,
    DEFAULT_PORTABILITY,
    Authority,
    BeliefType,
    CorrectionKind,
    Episode,
    EvidenceRole,
    FormationPolicy,
    NewBelief,
    RejectedCandidate,
    Trust,
)
from graphmem.store.corrections import lower_portability
from graphmem.store.database import Scalar
from graphmem.store.formation import (
    FormationWrites,
    HeldBack,
    LiveBelief,
    Slot,
    StoredCorrection,
)
from graphmem.store.ids import new_id
from graphmem.vectors.protocol import Vectors

Gate = Literal["trust", "rejection", "novelty", "cap"]
Reject = Callable[[Candidate, Gate, str | None, float | None], None]
"""Records that a gate held a candidate back (gate, similar belief id, similarity)."""
Neighbours = list[list[tuple[LiveBelief, float]]]
"""For each vector, its nearest live beliefs with their similarity, best first."""


class FormationContext(Protocol):
    """What the gates read: the store's answers and the embedder, for one principal."""

    def forgotten(self, digests: Sequence[str]) -> set[str]:
        """Which content digests were forgotten (tombstoned)."""
        ...

    def corrections(self) -> Sequence[StoredCorrection]:
        """Every correction, oldest first."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One L2-normalised row per text."""
        ...

    def neighbours(self, vectors: Sequence[Vectors]) -> Neighbours:
        """The nearest live beliefs of each vector."""
        ...

    def slot_holders(self, slots: Sequence[Slot]) -> dict[Slot, tuple[str, Authority]]:
        """The newest live holder of each slot: (belief id, authority)."""
        ...

    def held_back(self) -> Sequence[HeldBack]:
        """Candidates the trust gate held back, newest first."""
        ...


@dataclass
class Survivor:
    """A candidate that passed the gates so far, with its statement's embedding."""

    candidate: Candidate
    vector: Vectors
    near: list[tuple[LiveBelief, float]] = field(default_factory=list)
    """Its nearest live beliefs (the novelty gate's neighbours), best first."""


@dataclass
class Decision:
    """What formation decided for one episode, ready to commit."""

    writes: FormationWrites
    rejected: list[RejectedCandidate] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)


# --- content ------------------------------------------------------------------------


def subjects_agree(a: str | None, b: str | None) -> bool:
    """Two contents may be the same unless both name a subject and the subjects differ."""
    return not (a and b and normal_form(a) != normal_form(b))


def same_content(
    kind: BeliefType,
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
        kind is candidate.type
        and subjects_agree(subject, candidate.subject)
        and is_duplicate(statement, candidate.statement, similarity, threshold)
    )


# --- the gates ------------------------------------------------------------------------


def trust_gate(episode: Episode, candidates: Sequence[Candidate], reject: Reject) -> bool:
    """Whether the episode may form beliefs (rule 5).

    An untrusted episode's candidates are all held back, for a later trusted episode
    to affirm.
    """
    if episode.trust is not Trust.UNTRUSTED:
        return True
    for candidate in candidates:
        reject(candidate, "trust", None, None)
    return False


def tombstone_gate(
    candidates: Sequence[Candidate], forgotten: set[str], reject: Reject
) -> list[Candidate]:
    """Drops candidates whose content was forgotten (rule 7)."""
    kept = []
    for candidate in candidates:
        if statement_digest(candidate.statement, candidate.subject) in forgotten:
            reject(candidate, "rejection", None, None)
        else:
            kept.append(candidate)
    return kept


def corrected(candidate: Candidate, correction: StoredCorrection) -> Candidate | None:
    """The candidate after one correction; None when it must not form (not true)."""
    if correction.kind is CorrectionKind.NOT_TRUE:
        return None
    if correction.kind is CorrectionKind.CHANGED:
        return replace(
            candidate,
            statement=correction.replacement or candidate.statement,
            authority=Authority.USER,
        )
    if correction.kind is CorrectionKind.NOT_HERE:
        ceiling = candidate.portability or DEFAULT_PORTABILITY[candidate.type]
        projects = tuple(dict.fromkeys([*candidate.not_here, correction.project or ""]))
        return replace(candidate, portability=lower_portability(ceiling), not_here=projects)
    return replace(candidate, disputed=True)


def replay_corrections(
    candidates: Sequence[Candidate],
    corrections: Sequence[StoredCorrection],
    embed: Callable[[Sequence[str]], Vectors],
    threshold: float,
    reject: Reject,
) -> list[Candidate]:
    """Applies every matching correction to each candidate (rule 6), oldest first.

    A correction matches a candidate of the same type whose statement repeats the
    corrected one (the novelty test) and whose subject agrees. A ``changed``
    correction rewrites the candidate, and later corrections are matched against the
    rewritten statement (a correction of a correction holds).
    """
    if not corrections or not candidates:
        return list(candidates)
    wrong = embed([c.statement for c in corrections])
    asked = embed([c.statement for c in candidates])
    kept = []
    for candidate, vector in zip(candidates, asked, strict=True):
        current: Candidate | None = candidate
        for correction, rejected in zip(corrections, wrong, strict=True):
            if current is None or not same_content(
                correction.type,
                correction.subject,
                correction.statement,
                current,
                float(np.dot(vector, rejected)),
                threshold,
            ):
                continue
            rewritten = corrected(current, correction)
            if rewritten is not None and rewritten.statement != current.statement:
                vector = embed([rewritten.statement])[0]
            current = rewritten
        if current is None:
            reject(candidate, "rejection", None, None)
        else:
            kept.append(current)
    return kept


def novelty_gate(
    survivors: Sequence[Survivor],
    neighbours: Neighbours,
    threshold: float,
    reinforced: dict[str, Survivor],
    reject: Reject,
) -> list[Survivor]:
    """Reinforces a live belief with the same content instead of adding a copy.

    Same content: same type, agreeing subjects, and the novelty test on the statements.
    A candidate that repeats an earlier candidate of the same episode is dropped too.

    Args:
        survivors: The candidates so far, with their embeddings.
        neighbours: Each survivor's nearest live beliefs.
        threshold: The novelty cosine.
        reinforced: Filled with belief id → the candidate that repeated it.
        reject: Records each candidate held back.
    """
    kept: list[Survivor] = []
    for survivor, near in zip(survivors, neighbours, strict=True):
        candidate = survivor.candidate
        match = next(
            (
                (belief.id, similarity)
                for belief, similarity in near
                if same_content(
                    belief.type, belief.subject, belief.statement, candidate, similarity, threshold
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


def _twin(kept: Sequence[Survivor], survivor: Survivor, threshold: float) -> float | None:
    """The similarity to an earlier candidate of the episode with the same content."""
    for earlier in kept:
        similarity = float(np.dot(earlier.vector, survivor.vector))
        other = earlier.candidate
        if same_content(
            other.type, other.subject, other.statement, survivor.candidate, similarity, threshold
        ):
            return similarity
    return None


CONSIDERED_PER_EPISODE = 16
"""Candidates of one episode the gates consider at all, or the episode kind's cap if
that is larger: the cost bound (each considered candidate is embedded and compared;
a 4,000-character one costs about 0.15 s on two cores). The rest are held back by the
cap gate unembedded; the considered ones are taken in turn from each part
(observations, inferences, decisions, failed attempts) so every part is represented."""


def consideration_bound(
    candidates: Sequence[Candidate], bound: int, reject: Reject
) -> list[Candidate]:
    """The first ``bound`` candidates, round robin over their roles, in their order."""
    if len(candidates) <= bound:
        return list(candidates)
    turn: dict[int, tuple[int, int]] = {}  # index → (its place in its role, role order)
    seen: dict[EvidenceRole, int] = {}
    roles: dict[EvidenceRole, int] = {}
    for index, candidate in enumerate(candidates):
        place = seen[candidate.role] = seen.get(candidate.role, -1) + 1
        turn[index] = (place, roles.setdefault(candidate.role, len(roles)))
    chosen = set(sorted(turn, key=turn.__getitem__)[:bound])
    for index, candidate in enumerate(candidates):
        if index not in chosen:
            reject(candidate, "cap", None, None)
    return [candidate for index, candidate in enumerate(candidates) if index in chosen]


def cap_gate(survivors: Sequence[Survivor], cap: int, reject: Reject) -> list[Survivor]:
    """Keeps the first ``cap`` survivors (an episode kind's budget of new beliefs)."""
    for survivor in survivors[cap:]:
        reject(survivor.candidate, "cap", None, None)
    return list(survivors[:cap])


def resolve(
    created: Sequence[tuple[str, Survivor]],
    holders: dict[Slot, tuple[str, Authority]],
    authority: Authority,
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """One live belief per (subject, type): supersede by authority, else conflict.

    ``authority`` is the policy's; a candidate rewritten by a ``changed`` correction
    carries its own (user). A candidate that loses on authority is committed and
    flagged, and the stronger holder keeps the slot for the candidates after it.

    Returns:
        (supersessions as (old id, new id, reason), conflicts as (new id, holder id)).
    """
    supersessions: list[tuple[str, str, str]] = []
    conflicts: list[tuple[str, str]] = []
    holding = dict(holders)
    for belief_id, survivor in created:
        candidate = survivor.candidate
        if candidate.subject is None:
            continue
        slot = (candidate.subject, candidate.type)
        holder = holding.get(slot)
        stated_by = candidate.authority or authority
        if holder is not None and AUTHORITY_RANK[stated_by] < AUTHORITY_RANK[holder[1]]:
            conflicts.append((belief_id, holder[0]))
            continue
        if holder is not None:
            supersessions.append((holder[0], belief_id, "formation: newer statement"))
        holding[slot] = (belief_id, stated_by)
    return supersessions, conflicts


RULE_TYPES = frozenset({BeliefType.FACT, BeliefType.PREFERENCE, BeliefType.DECISION})
"""Beliefs that say how things are: what a replacing rule contradicts. A dead end or a
fix that names the replaced tool records what happened, and stays true."""


def replaced_conflicts(
    created: Sequence[tuple[str, Survivor]], project: str
) -> list[tuple[str, str]]:
    """A new rule that replaces something conflicts with what still names it.

    "We moved from npm to pnpm" leaves "always install with `npm install`" and "the
    tests run with `npm test`" standing, with no slot in common. So a created candidate
    with ``replaces`` words conflicts with each of its near live beliefs (the novelty
    gate's neighbours) that is a fact, rule or decision of this project and names one of
    them as a whole word (``npm``, not ``pnpm``). Neither is retired: the user sees both,
    flagged, and settles it (the old rule may hold more than the replaced part).

    Returns:
        Conflicts as (new id, live id).
    """
    found: list[tuple[str, str]] = []
    for belief_id, survivor in created:
        words = survivor.candidate.replaces
        if not words:
            continue
        pattern = re.compile(
            r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.IGNORECASE
        )
        for live, _ in survivor.near:
            named = live.type in RULE_TYPES and project in live.origins
            if named and pattern.search(live.statement):
                found.append((belief_id, live.id))
    return found


def affirmations(
    formed: Sequence[tuple[str, Survivor]],
    held: Sequence[HeldBack],
    held_vectors: Vectors,
    threshold: float,
) -> dict[tuple[str, str], str]:
    """Held-back untrusted evidence that formed beliefs affirm (rule 5).

    Affirming means the same content: same type, agreeing subjects, the novelty test.

    Returns:
        (belief id, held-back episode id) → its provenance role, each pair once.
    """
    support: dict[tuple[str, str], str] = {}
    for belief_id, survivor in formed:
        for candidate, vector in zip(held, held_vectors, strict=True):
            if same_content(
                candidate.type,
                candidate.subject,
                candidate.statement,
                survivor.candidate,
                float(np.dot(survivor.vector, vector)),
                threshold,
            ):
                support.setdefault((belief_id, candidate.episode_id), candidate.role.value)
    return support


# --- one episode ------------------------------------------------------------------------


def new_belief(
    candidate: Candidate, episode: Episode, policy: FormationPolicy
) -> tuple[NewBelief, dict[str, Scalar | list[str]]]:
    """The belief a surviving candidate becomes, and its extra stored properties."""
    fields: dict[str, object] = {
        "statement": candidate.statement,
        "project": episode.project,
        "type": candidate.type,
        "subject": candidate.subject,
        "state": candidate.state,
        "authority": candidate.authority or policy.authority,
        "evidence": [{"episode_id": episode.id, "role": candidate.role}],
        "sensitivity": episode.sensitivity,  # never below what it was learned from
    }
    if candidate.portability is not None:
        fields["portability"] = candidate.portability
    extra: dict[str, Scalar | list[str]] = {}
    if candidate.not_here:
        extra["not_here"] = list(candidate.not_here)
    if candidate.disputed:
        extra["disputed"] = True
    return NewBelief.model_validate(fields), extra


def decide(
    episode: Episode,
    candidates: Sequence[Candidate],
    policy: FormationPolicy,
    context: FormationContext,
) -> Decision:
    """Runs the gates over one episode's candidates; returns what to commit.

    Every gate can be switched off in ``policy``.
    """
    decision = Decision(
        FormationWrites(episode.id, policy.version, policy.authority, observed_at(episode))
    )
    writes = decision.writes

    def reject(
        candidate: Candidate,
        gate: Gate,
        similar_to: str | None = None,
        similarity: float | None = None,
    ) -> None:
        decision.rejected.append(
            RejectedCandidate(
                statement=candidate.statement,
                gate=gate,
                similar_to=similar_to,
                similarity=similarity,
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

    if policy.trust_gate and not trust_gate(episode, candidates, reject):
        return decision
    bound = max(CONSIDERED_PER_EPISODE, policy.caps[episode.kind])
    kept = consideration_bound(candidates, bound, reject)
    if policy.rejection_gate:
        checked = {statement_digest(c.statement, c.subject) for c in kept}
        kept = tombstone_gate(kept, context.forgotten(sorted(checked)), reject)
        kept = replay_corrections(
            kept, context.corrections(), context.embed, policy.novelty_threshold, reject
        )
        # A correction may have rewritten a candidate into forgotten content: only
        # those new contents need looking up.
        rewritten = {statement_digest(c.statement, c.subject) for c in kept} - checked
        if rewritten:
            kept = tombstone_gate(kept, context.forgotten(sorted(rewritten)), reject)
    vectors = context.embed([c.statement for c in kept])
    survivors = [Survivor(c, vectors[i]) for i, c in enumerate(kept)]
    reinforced: dict[str, Survivor] = {}  # belief id → the candidate that repeated it
    if policy.novelty_gate and survivors:
        neighbours = context.neighbours([s.vector for s in survivors])
        for survivor, near in zip(survivors, neighbours, strict=True):
            survivor.near = near
        survivors = novelty_gate(
            survivors, neighbours, policy.novelty_threshold, reinforced, reject
        )
    if policy.cap_gate:
        survivors = cap_gate(survivors, policy.caps[episode.kind], reject)
    created = [(new_id(), survivor) for survivor in survivors]
    for belief_id, survivor in created:
        writes.created.append((belief_id, *new_belief(survivor.candidate, episode, policy)))
        if survivor.candidate.anchor is not None:
            writes.anchors[belief_id] = survivor.candidate.anchor
    if policy.resolve_gate:
        slots = sorted(
            {
                (s.candidate.subject, s.candidate.type)
                for _, s in created
                if s.candidate.subject is not None
            },
            key=lambda slot: (slot[0], slot[1].value),
        )
        holders = context.slot_holders(slots) if slots else {}
        writes.supersessions, writes.conflicts = resolve(created, holders, policy.authority)
        for pair in replaced_conflicts(created, episode.project):
            if pair not in writes.conflicts:
                writes.conflicts.append(pair)
    support = {
        (belief_id, episode.id): survivor.candidate.role.value
        for belief_id, survivor in reinforced.items()
    }
    formed = [*created, *reinforced.items()]
    held = context.held_back() if formed else []
    if held:
        found = affirmations(
            formed, held, context.embed([h.statement for h in held]), policy.novelty_threshold
        )
        for pair, role in found.items():
            support.setdefault(pair, role)
    writes.reinforcements = [
        {"belief_id": belief_id, "episode_id": episode_id, "role": role}
        for (belief_id, episode_id), role in support.items()
    ]
    decision.created = [belief_id for belief_id, _ in created]
    decision.reinforced = sorted(reinforced)
    return decision
