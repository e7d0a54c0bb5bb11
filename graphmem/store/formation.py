"""Formation's store (docs/formation.md): what the gates read, and one commit per episode.

The pipeline in :mod:`graphmem.formation.pipeline` decides from what the readers here
return; :func:`commit_formation` writes what it decided, all-or-nothing, with one
``:MemoryEvent`` per change. The episode is marked consolidated first, under the
clock lock, so a repeated or concurrent run of the same episode writes nothing (its
transaction is rolled back: not even a seq is spent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial

from neo4j import ManagedTransaction

from graphmem.models import Authority, BeliefType, CorrectionKind, EvidenceRole, NewBelief, Scope
from graphmem.store.beliefs import PendingBelief, insert_beliefs
from graphmem.store.clock import Reservation, claim, write_seqs
from graphmem.store.database import Database, Scalar, drain, pages_by_seq, run
from graphmem.store.embeddings import Encoder

REJECTED_LOG_WINDOW = 10_000
"""Rejected candidates kept per principal in the event log (newest first)."""


# --- what the gates read ------------------------------------------------------------


@dataclass(frozen=True)
class StoredCorrection:
    """A durable correction (``:Rejection``) as formation replays it, by content."""

    kind: CorrectionKind
    type: BeliefType
    subject: str | None
    statement: str
    """The corrected statement."""
    replacement: str | None
    """For ``changed``: what is true instead."""
    project: str | None
    """For ``not_here``: the project it does not apply to."""


@dataclass(frozen=True)
class LiveBelief:
    """A live belief the novelty gate may reinforce instead of adding a copy."""

    seq: int
    id: str
    type: BeliefType
    statement: str
    subject: str | None
    origins: tuple[str, ...] = ()
    """The projects it was learned in."""


@dataclass(frozen=True)
class HeldBack:
    """A candidate the trust gate held back: evidence a trusted episode may affirm."""

    statement: str
    subject: str | None
    type: BeliefType
    episode_id: str
    role: EvidenceRole


Slot = tuple[str, BeliefType]
"""A single-valued slot: (subject, type)."""


def forgotten_digests(db: Database, principal: str, digests: Sequence[str]) -> set[str]:
    """Which of these content digests the principal has forgotten (rule 7)."""
    if not digests:
        return set()
    records = db.read("formation/tombstoned", principal=principal, digests=sorted(set(digests)))
    return {str(record["digest"]) for record in records}


def corrections(db: Database, principal: str) -> list[StoredCorrection]:
    """Every correction of the principal, oldest first (rule 6)."""
    return [
        StoredCorrection(
            kind=CorrectionKind(r["kind"]),
            type=BeliefType(r["type"]),
            subject=r["subject"],
            statement=r["statement"],
            replacement=r["replacement"],
            project=r["project"],
        )
        for r in db.read("formation/rejections", principal=principal)
    ]


def live_beliefs(db: Database, principal: str, seqs: Sequence[int]) -> dict[int, LiveBelief]:
    """The live beliefs among these creation seqs, by seq."""
    records = db.read("formation/live_by_seq", principal=principal, seqs=list(seqs))
    return {
        r["seq"]: LiveBelief(
            r["seq"],
            r["id"],
            BeliefType(r["type"]),
            r["statement"],
            r["subject"],
            tuple(r["origins"] or ()),
        )
        for r in records
    }


def slot_holders(
    db: Database, principal: str, slots: Sequence[Slot]
) -> dict[Slot, tuple[str, Authority]]:
    """The newest live holder of each slot: (belief id, its authority)."""
    holders: dict[Slot, tuple[str, Authority]] = {}
    records = db.read(
        "formation/slot_holders",
        principal=principal,
        slots=[{"subject": subject, "type": kind.value} for subject, kind in slots],
    )
    for record in records:
        slot = (str(record["subject"]), BeliefType(record["type"]))
        holders.setdefault(slot, (str(record["id"]), Authority(record["authority"])))
    return holders


def held_back(db: Database, principal: str, limit: int) -> list[HeldBack]:
    """The newest candidates the trust gate held back."""
    records = db.read("formation/untrusted_candidates", principal=principal, limit=limit)
    return [
        HeldBack(
            statement=r["statement"],
            subject=r["subject"],
            type=BeliefType(r["belief_type"]),
            episode_id=r["episode_id"],
            role=EvidenceRole(r["role"]),
        )
        for r in records
    ]


# --- the commit ------------------------------------------------------------------------


@dataclass
class FormationWrites:
    """Everything one consolidation writes."""

    episode_id: str
    policy_version: str
    actor: Authority
    observed_at: datetime
    """When the episode was observed: the time it confirms the beliefs it forms or
    reinforces at (``last_confirmed_at``, docs/formation.md#expiry)."""
    created: list[tuple[str, NewBelief, dict[str, Scalar | list[str]]]] = field(
        default_factory=list
    )
    """(new id, belief, extra properties)."""
    anchors: dict[str, tuple[str, str]] = field(default_factory=dict)
    """New id → (anchor key, anchor hash) for created beliefs about a code symbol."""
    reinforcements: list[dict[str, str]] = field(default_factory=list)
    """{belief_id, episode_id, role}."""
    supersessions: list[tuple[str, str, str]] = field(default_factory=list)
    """(old id, new id, reason)."""
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    """(new id, slot holder id)."""
    rejections: list[dict[str, Scalar]] = field(default_factory=list)
    """{gate, statement, subject, belief_type, digest, role, similar_to, similarity}."""


@dataclass(frozen=True)
class FormationOutcome:
    """What the reinforcements triggered (None when the episode was already done)."""

    activated: list[str]
    promoted: list[str]


class StaleDecision(Exception):
    """A belief the decisions rest on stopped being live before the commit.

    Internal: the pipeline decides the episode again.
    """


class _AlreadyConsolidated(Exception):
    """Rolls the transaction back (and the seq it reserved) when another run won."""


def commit_formation(
    db: Database, principal: str, writes: FormationWrites, encode: Encoder | None = None
) -> FormationOutcome | None:
    """Writes one consolidation; returns None if the episode was consolidated already.

    With ``encode``, the new beliefs' statements are embedded first, outside the
    transaction, and their vectors stored with them.

    Raises:
        StaleDecision: A belief to supersede, conflict with or reinforce is no longer
            live (nothing is written).
    """
    now = datetime.now(UTC)
    actor = writes.actor.value
    confirmed = writes.observed_at
    statements = [belief.statement for _, belief, _ in writes.created]
    vectors = list(encode(statements)) if encode and statements else [None] * len(statements)

    def work(tx: ManagedTransaction) -> FormationOutcome:
        marked = run(
            tx,
            "formation/mark_consolidated",
            principal=principal,
            episode_id=writes.episode_id,
            policy=writes.policy_version,
            actor=actor,
            now=now,
        )
        if not marked:
            raise _AlreadyConsolidated
        pending = [
            PendingBelief(
                None,
                belief,
                belief_id,
                Scope.PROJECT,
                [belief.project],
                anchor_key=writes.anchors[belief_id][0] if belief_id in writes.anchors else None,
                anchor_hash=writes.anchors[belief_id][1] if belief_id in writes.anchors else None,
                extra={
                    **extra,
                    "policy_version": writes.policy_version,
                    "last_confirmed_at": confirmed,
                },
                vectors=stored,
            )
            for (belief_id, belief, extra), stored in zip(writes.created, vectors, strict=True)
        ]
        insert_beliefs(tx, principal, now, pending)
        for old_id, new_id, reason in writes.supersessions:
            superseded = run(
                tx,
                "belief/mark_superseded",
                principal=principal,
                old_id=old_id,
                new_id=new_id,
                reason=reason,
                actor=actor,
                now=now,
            )
            _expect(len(superseded), 1)
        if writes.conflicts:
            pairs = [{"new_id": new, "old_id": old} for new, old in writes.conflicts]
            linked = run(
                tx,
                "formation/link_conflicts",
                principal=principal,
                pairs=pairs,
                actor=actor,
                now=now,
            )
            _expect(len(linked), len(pairs))
        outcome = FormationOutcome([], [])
        if writes.reinforcements:
            distinct = {(r["belief_id"], r["episode_id"]): r for r in writes.reinforcements}
            rows = list(distinct.values())
            supported = run(
                tx, "formation/reinforce", principal=principal, rows=rows, actor=actor, now=now
            )
            _expect(len(supported), len(rows))
            ids = sorted({row["belief_id"] for row in rows})
            for record in run(
                tx,
                "formation/corroborate",
                principal=principal,
                ids=ids,
                actor=actor,
                now=now,
                confirmed=confirmed,
            ):
                if record["activates"]:
                    outcome.activated.append(record["id"])
                if record["promotes"]:
                    outcome.promoted.append(record["id"])
        if writes.rejections:
            run(
                tx,
                "formation/log_rejections",
                principal=principal,
                episode_id=writes.episode_id,
                rows=writes.rejections,
                actor=actor,
                now=now,
            )
            run(
                tx,
                "formation/prune_rejections",
                principal=principal,
                window=REJECTED_LOG_WINDOW,
            )
        return outcome

    try:
        return db.write(work)
    except _AlreadyConsolidated:
        return None


def _expect(found: int, wanted: int) -> None:
    if found != wanted:
        raise StaleDecision(f"{wanted - found} of {wanted} beliefs are no longer live")


RESET_PAGE = 1_000
"""Beliefs retired, or episodes marked due, per transaction of a re-derivation's reset."""


def reset_formation(db: Database, principal: str, policy_version: str, actor: Authority) -> int:
    """Makes a principal's memory ready to be formed again, in bounded transactions.

    Retires every formed belief (a page of :data:`RESET_PAGE` per transaction, its
    seqs reserved like any bulk write's), then clears the rejected-candidate log and
    marks every episode due (pages again), and last records one ``formation.reset``
    event. Stopped part way, it is made again from the start: each step only finds
    what is left to do.

    Returns:
        How many beliefs were retired.
    """
    now = datetime.now(UTC)
    reason = f"re-derived under {policy_version}"
    retired = 0
    for page in pages_by_seq(db, "formation/formed_page", principal, RESET_PAGE):
        ids = [str(record["id"]) for record in page]

        retire = partial(_retire, principal=principal, ids=ids, reason=reason, actor=actor, now=now)
        retired += write_seqs(db, principal, len(ids), retire, keyed=False)
    drain(db, "formation/clear_rejections", "cleared", RESET_PAGE, principal=principal)
    for page in pages_by_seq(db, "formation/consolidated_page", principal, RESET_PAGE):
        ids = [str(record["id"]) for record in page]
        db.write_statement("formation/mark_due", principal=principal, ids=ids)
    db.write_statement(
        "formation/reset_event",
        principal=principal,
        policy=policy_version,
        actor=actor.value,
        now=now,
    )
    return retired


def _retire(
    tx: ManagedTransaction,
    reservation: Reservation | None,
    principal: str,
    ids: list[str],
    reason: str,
    actor: Authority,
    now: datetime,
) -> int:
    """Retires one page of formed beliefs; returns how many were still live."""
    base = None if reservation is None else claim(tx, reservation, len(ids))
    records = run(
        tx,
        "formation/retire_formed",
        principal=principal,
        ids=ids,
        base=base,
        reason=reason,
        actor=actor.value,
        now=now,
    )
    return int(records[0]["retired"])
