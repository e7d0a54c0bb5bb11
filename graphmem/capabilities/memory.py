"""Memory: episodes and beliefs, written, changed and read one at a time or in batches.

Every write is all-or-nothing and logged as events; a belief's life (superseded,
retired, corrected, forgotten) is recorded, never silently overwritten.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from graphmem.capabilities.context import Capability, Context
from graphmem.capabilities.formation import Formation
from graphmem.errors import InvalidInput
from graphmem.models import (
    DEFAULT_CONFIDENCE,
    AnchorRef,
    Authority,
    Belief,
    BeliefChanges,
    BeliefState,
    BeliefType,
    ChangeReason,
    Correction,
    CorrectionKind,
    CorrectionResult,
    Episode,
    Evidence,
    HistoryEntry,
    NewBelief,
    NewEpisode,
    Portability,
)
from graphmem.store import beliefs as belief_store
from graphmem.store import corrections
from graphmem.store import episodes as episode_store
from graphmem.store.embeddings import Encoder
from graphmem.trust.sensitivity import Sensitivity
from graphmem.validation import check_id, parse, parse_batch

EvidenceLike = str | Evidence | Mapping[str, Any]
"""An episode id, or an :class:`Evidence` (or a mapping of its fields) with a role."""


class Memory(Capability):
    """Episodes and beliefs: remember, believe, supersede, retire, correct, forget, read."""

    def __init__(self, context: Context, formation: Formation) -> None:
        super().__init__(context)
        self._formation = formation

    def _encoder(self) -> Encoder:
        """Embeds what is about to be written; this client's next recall reads it."""
        self._engine.wrote()
        return self._engine.encoder()

    def remember(
        self, episode: NewEpisode | Mapping[str, Any], *, consolidate: bool = False
    ) -> str:
        """Records one episode and returns its id.

        Args:
            episode: A :class:`NewEpisode` or a mapping of its fields. With an
                ``idempotency_key`` seen before with the same fields, nothing is
                written and the earlier episode's id is returned.
            consolidate: Also form beliefs from its structured parts now (see
                :meth:`~graphmem.GraphMem.consolidate`, default policy).

        Raises:
            InvalidInput: A field breaks a rule (``details`` names it).
            NotFound: ``parent`` names no episode of this principal.
            IdempotencyConflict: The ``idempotency_key`` was used before with other
                fields.
        """
        parsed = parse(NewEpisode, episode)
        episode_id = episode_store.create_episodes(
            self._db, self._principal, [parsed], row_numbers=False, encode=self._encoder()
        )[0]
        if consolidate:
            self._formation.consolidate(episode_id)
        return episode_id

    def remember_many(self, episodes: Iterable[NewEpisode | Mapping[str, Any]]) -> list[str]:
        """Records episodes in one all-or-nothing transaction; returns ids in order.

        Rows sharing an ``idempotency_key`` (with each other or with an earlier write)
        get one id; they must have the same fields.

        Raises:
            InvalidInput: A row breaks a rule; ``details`` names ``row`` and ``field``.
                Nothing of the batch is written.
            IdempotencyConflict: A row's ``idempotency_key`` was used before, or by an
                earlier row, with other fields (``details`` names the ``row``).
        """
        parsed = parse_batch(NewEpisode, episodes, "episodes")
        return episode_store.create_episodes(
            self._db, self._principal, parsed, row_numbers=True, encode=self._encoder()
        )

    def get_episode(self, episode_id: str) -> Episode:
        """Returns one episode of this principal.

        Raises:
            NotFound: No such episode for this principal.
        """
        return self._episode(episode_id)

    def believe(
        self,
        statement: str,
        *,
        project: str,
        type: BeliefType | str,
        subject: str | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
        portability: Portability | str | None = None,
        authority: Authority | str = Authority.AGENT,
        state: BeliefState | str = BeliefState.ACTIVE,
        valid_from: datetime | None = None,
        anchor: str | AnchorRef | Mapping[str, Any] | None = None,
        anchor_unverifiable: bool = False,
        evidence: Iterable[EvidenceLike] = (),
        sensitivity: Sensitivity | str = Sensitivity.INTERNAL,
        idempotency_key: str | None = None,
    ) -> str:
        """States one belief and returns its id.

        Args:
            statement: What is believed true.
            project: The project it was learned in (its first origin).
            type: fact, preference, lesson, decision, dead_end, pattern or gotcha.
            subject: What the statement is about (a single-valued slot with ``type``).
            confidence: In [0, 1]; 0.5 when not stated.
            portability: portable, contextual or local; at most the type's default.
            authority: user, agent, tool or external.
            state: active or provisional.
            valid_from: When it became true (aware datetime); now when not given.
            anchor: The code it is about: a symbol key, or ``{"path": ..., "symbol":
                ...}``; its hash is recorded from the project's current code graph.
            anchor_unverifiable: Store a key that is not in the code graph (no hash)
                instead of failing; the anchor then reads as ``unverifiable``.
            evidence: Episode ids (or :class:`Evidence` with a role); one
                ``DERIVED_FROM`` edge each.
            sensitivity: public, internal (default), confidential or secret; a
                statement that holds a secret (a key, token, password...) is stored
                secret whatever is given.
            idempotency_key: Makes a retried write (same arguments) a no-op that
                returns the first id.

        Raises:
            InvalidInput: A field breaks a rule.
            NotFound: An evidence id names no episode of this principal, or the anchor
                names no symbol of the project's code graph.
            IdempotencyConflict: ``idempotency_key`` was used before with other
                arguments.
        """
        fields = {
            "statement": statement,
            "project": project,
            "type": type,
            "subject": subject,
            "confidence": confidence,
            "portability": portability,
            "authority": authority,
            "state": state,
            "valid_from": valid_from,
            "anchor": anchor,
            "anchor_unverifiable": anchor_unverifiable,
            "evidence": list(evidence),
            "sensitivity": sensitivity,
            "idempotency_key": idempotency_key,
        }
        parsed = parse(NewBelief, fields)
        return belief_store.create_beliefs(
            self._db, self._principal, [parsed], row_numbers=False, encode=self._encoder()
        )[0]

    def believe_many(self, beliefs: Iterable[NewBelief | Mapping[str, Any]]) -> list[str]:
        """States beliefs in one all-or-nothing transaction; returns ids in order.

        Each row is a :class:`NewBelief` or a mapping of its fields (``evidence`` may
        list plain episode ids).

        Raises:
            InvalidInput: A row breaks a rule; ``details`` names ``row`` and ``field``.
                Nothing of the batch is written.
            IdempotencyConflict: A row's ``idempotency_key`` was used before, or by an
                earlier row, with other fields (``details`` names the ``row``).
        """
        parsed = parse_batch(NewBelief, beliefs, "beliefs")
        return belief_store.create_beliefs(
            self._db, self._principal, parsed, row_numbers=True, encode=self._encoder()
        )

    def supersede(
        self,
        old_id: str,
        new: str | BeliefChanges | Mapping[str, Any],
        reason: str,
    ) -> str:
        """Replaces a belief with a new one, recording why (rule 3, docs/architecture.md).

        The new belief keeps the old one's project, type, subject, confidence,
        portability, authority, state and anchor unless ``new`` sets them (a new type
        resets portability to that type's default). The old one gets ``valid_to`` (the new one's
        ``valid_from``) and ``superseded_at``, and drops out of live reads at once.

        Args:
            old_id: The belief being replaced; it must be live.
            new: The new statement, or a :class:`BeliefChanges` / mapping of fields.
            reason: Why; kept on the ``SUPERSEDES`` edge.

        Returns:
            The new belief's id.

        With an ``idempotency_key`` in ``new``, the same call made again returns the
        first new id and writes nothing.

        Raises:
            NotFound: ``old_id`` names no belief of this principal.
            StateConflict: The old belief is already superseded or retired.
            InvalidInput: A field breaks a rule.
            IdempotencyConflict: The ``idempotency_key`` was used before by another
                write (another old belief, statement, field or reason).
        """
        check_id(old_id, "old_id")
        fields: BeliefChanges | Mapping[str, Any]
        fields = {"statement": new} if isinstance(new, str) else new
        changes = parse(BeliefChanges, fields)
        checked_reason = parse(ChangeReason, {"reason": reason}).reason
        return belief_store.supersede(
            self._db, self._principal, old_id, changes, checked_reason, self._encoder()
        )

    def retire(self, belief_id: str, reason: str, actor: Authority | str = "agent") -> bool:
        """Retires a live belief: it was true until now and is no longer.

        The belief gets ``state`` retired and ``valid_to`` now, and drops out of live
        recall at once; it stays in the graph with its provenance, so ``as_of`` reads
        of the past still see it. Retiring an already retired belief changes nothing.

        Args:
            belief_id: The belief to retire; it must not be superseded.
            reason: Why; kept on the belief (``retired_reason``).
            actor: Who says so (user, agent, tool or external).

        Returns:
            True if this call retired it, False if it was already retired.

        Raises:
            NotFound: ``belief_id`` names no belief of this principal.
            StateConflict: The belief is superseded (retire the newest of its chain).
            InvalidInput: ``reason`` or ``actor`` breaks a rule.
        """
        check_id(belief_id, "belief_id")
        checked = parse(ChangeReason, {"reason": reason, "actor": actor})
        return belief_store.retire(
            self._db, self._principal, belief_id, checked.reason, checked.actor
        )

    def correct(
        self,
        belief_id: str,
        kind: CorrectionKind | str = CorrectionKind.UNSPECIFIED,
        *,
        project: str | None = None,
        statement: str | None = None,
        actor: Authority | str = Authority.USER,
    ) -> CorrectionResult:
        """Corrects a belief; the correction outlives the belief (rule 6, docs/architecture.md).

        Each kind writes a durable ``:Rejection`` holding the belief's content
        (subject, statement, type), which every later formation run matches by content,
        re-derivation included, and then:

        - ``not_true``: retires the belief;
        - ``changed``: supersedes it with ``statement``, at user authority;
        - ``not_here``: lowers its portability one step and keeps it out of
          ``project`` (a negative scope override recall honours);
        - ``unspecified``: flags it and halves its weight in recall, never retires it.

        Raises:
            NotFound: ``belief_id`` names no belief of this principal.
            StateConflict: The belief is superseded or retired.
            InvalidInput: ``changed`` without ``statement``, ``not_here`` without
                ``project``, or a field breaks a rule.
        """
        check_id(belief_id, "belief_id")
        correction = parse(
            Correction,
            {"kind": kind, "project": project, "statement": statement, "actor": actor},
        )
        missing = correction.missing_field()
        if missing is not None:
            raise InvalidInput(
                f"{missing}: a {correction.kind.value!r} correction needs it",
                field=missing,
                rule="required",
            )
        return corrections.correct(
            self._db, self._principal, belief_id, correction, self._encoder()
        )

    def forget(self, belief_id: str, actor: Authority | str = "user") -> None:
        """Deletes a belief and its text everywhere, keeping only a tombstone (rule 7).

        The node and its edges leave the graph, logged candidates with the same
        statement leave the event log, and episode items that state it (observations,
        inferences, decisions, failed attempts; as is or after a ``"label: "``) are
        removed from their episodes. Free episode text (title, text) is left as
        written.

        This client's semantic view (an approximate one is rebuilt) and embedding cache
        drop it at once; other clients' views drop it when they next catch up. Only a
        ``(:Tombstone {statement_sha256})`` stays, so formation never forms the
        statement again. Unlike :meth:`retire`, this keeps no history.

        Raises:
            NotFound: ``belief_id`` names no belief of this principal.
        """
        check_id(belief_id, "belief_id")
        who = parse(ChangeReason, {"reason": "forget", "actor": actor}).actor
        statement = belief_store.forget(self._db, self._principal, belief_id, who)
        self._engine.forget_text(statement)

    def get_belief(self, belief_id: str) -> Belief:
        """Returns one belief of this principal, with its provenance.

        Raises:
            NotFound: No such belief for this principal.
        """
        return self._one(belief_store.get_beliefs, "belief", belief_id)

    def history(self, belief_id: str) -> list[HistoryEntry]:
        """Returns the supersession chain through a belief, oldest first, from either end.

        Raises:
            NotFound: No such belief for this principal.
        """
        check_id(belief_id, "belief_id")
        return belief_store.history(self._db, self._principal, belief_id)
