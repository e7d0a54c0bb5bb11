"""Typed corrections (docs/formation.md): a durable Rejection plus its effect, in one transaction.

``not_true`` retires the belief; ``changed`` supersedes it with the corrected statement
at user authority; ``not_here`` lowers its portability one step and keeps it out of
one project; ``unspecified`` flags and down-weights it. The Rejection keeps the
belief's content so that every later formation run, re-derivation included, applies
the same correction to the same content (rule 6).
"""

from __future__ import annotations

from datetime import UTC, datetime

from neo4j import ManagedTransaction

from graphmem.content import statement_digest
from graphmem.errors import StateConflict
from graphmem.models import (
    PORTABILITY_RANK,
    Authority,
    BeliefChanges,
    BeliefState,
    Correction,
    CorrectionKind,
    CorrectionResult,
    Portability,
)
from graphmem.store.beliefs import lock_belief, supersede_in
from graphmem.store.database import Database, run
from graphmem.store.embeddings import Encoder
from graphmem.store.ids import new_id


def lower_portability(portability: Portability) -> Portability:
    """One step less portable: portable → contextual → local (local stays)."""
    rank = max(PORTABILITY_RANK[portability] - 1, 0)
    return next(p for p, r in PORTABILITY_RANK.items() if r == rank)


def correct(
    db: Database,
    principal: str,
    belief_id: str,
    correction: Correction,
    encode: Encoder | None = None,
) -> CorrectionResult:
    """Applies one correction to a live belief (see :meth:`graphmem.GraphMem.correct`).

    With ``encode``, a replacement statement's vectors are made first and stored with it.
    """
    now = datetime.now(UTC)
    text = correction.statement
    vectors = encode([text])[0] if encode and text is not None else None

    def work(tx: ManagedTransaction) -> CorrectionResult:
        old, _ = lock_belief(tx, principal, belief_id, "belief_id")
        if old.get("superseded_at") is not None or old["state"] == BeliefState.RETIRED:
            raise StateConflict(
                f"belief_id: belief {belief_id} is no longer live; correct the newest "
                "belief of its chain (see `graphmem history`)",
                field="belief_id",
                rule="live",
            )
        rejection_id = new_id()
        run(
            tx,
            "belief/correct",
            principal=principal,
            id=belief_id,
            rejection_id=rejection_id,
            kind=correction.kind.value,
            digest=statement_digest(str(old["statement"]), old.get("subject")),
            project=correction.project,
            replacement=correction.statement,
            replacement_digest=(
                statement_digest(correction.statement, old.get("subject"))
                if correction.statement is not None
                else None
            ),
            actor=correction.actor.value,
            now=now,
        )
        new_belief_id = None
        if correction.kind is CorrectionKind.NOT_TRUE:
            run(
                tx,
                "belief/retire",
                principal=principal,
                id=belief_id,
                reason="corrected: not true",
                actor=correction.actor.value,
                now=now,
            )
        elif correction.kind is CorrectionKind.CHANGED:
            changes = BeliefChanges.model_validate(
                {"statement": correction.statement, "authority": Authority.USER}
            )
            new_belief_id = supersede_in(
                tx, principal, belief_id, changes, "corrected: changed", now, vectors
            )
        elif correction.kind is CorrectionKind.NOT_HERE:
            run(
                tx,
                "belief/exclude_project",
                principal=principal,
                id=belief_id,
                project=correction.project,
                portability=lower_portability(Portability(old["portability"])).value,
            )
        else:
            run(tx, "belief/dispute", principal=principal, id=belief_id)
        return CorrectionResult(
            belief_id=belief_id,
            kind=correction.kind,
            rejection_id=rejection_id,
            new_belief_id=new_belief_id,
        )

    return db.write(work)
