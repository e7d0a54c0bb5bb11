"""Formation: beliefs formed from episodes by deterministic gates (no LLM).

Consolidation runs one episode's candidates through the gates; re-derivation forms a
principal's beliefs again under a new policy; formation hints, queued by recall's
misses, point consolidation at the subjects memory kept lacking; expiry demotes and
then retires the formed beliefs no episode confirmed for a while.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from graphmem.capabilities.context import Capability
from graphmem.formation import expiry
from graphmem.formation import hints as hint_formation
from graphmem.formation import pipeline as formation
from graphmem.formation import rederive as rederivation
from graphmem.formation.extract import Extractor, StructuredExtractor
from graphmem.models import (
    Authority,
    ConsolidationResult,
    ExpiryResult,
    FormationHint,
    FormationPolicy,
    HintOutcome,
    RederivationSummary,
)
from graphmem.store import episodes as episode_store
from graphmem.store import expiry as expiry_store
from graphmem.store import hints as hint_store
from graphmem.validation import check_limit, parse


class Formation(Capability):
    """Consolidate episodes into beliefs, re-derive them, and consume formation hints."""

    def consolidate(
        self,
        episode_id: str,
        *,
        policy: FormationPolicy | Mapping[str, Any] | None = None,
        extractor: Extractor | None = None,
    ) -> ConsolidationResult:
        """Forms beliefs from one episode's structured parts (docs/formation.md).

        Candidates (observations → fact, inferences → provisional fact, decisions →
        decision, failed attempts → dead end; ``"label: statement"`` gives a subject)
        pass the gates cheapest first: trust (an untrusted episode forms nothing; its
        candidates wait for a trusted affirmation), tombstones, novelty (a candidate
        within cosine ``novelty_threshold`` of a live belief of the same type
        reinforces it), a cap per episode kind, and resolve (one live belief per
        subject and type: the newer supersedes when its authority is at least the
        holder's, otherwise both are flagged ``CONFLICTS_WITH``). Everything is
        committed in one transaction with one event per change. A provisional belief
        turns active on a second supporting episode; a belief supported in two
        projects that is not ``local`` is promoted to principal scope.

        Running it again for the same episode changes nothing.

        Args:
            episode_id: The episode.
            policy: Gate switches and settings (:class:`FormationPolicy`).
            extractor: Where candidates come from (default: the structured parts).

        Raises:
            NotFound: No such episode for this principal.
            InvalidInput: A policy field breaks a rule.
        """
        episode = self._episode(episode_id)
        checked = parse(FormationPolicy, policy if policy is not None else {})
        return formation.consolidate(
            self._db,
            self._principal,
            episode,
            self._engine.view("belief"),
            checked,
            extractor or StructuredExtractor(),
        )

    def rederive(
        self,
        policy_version: str,
        *,
        policy: FormationPolicy | Mapping[str, Any] | None = None,
        progress: Callable[[int], None] = lambda done: None,
    ) -> RederivationSummary:
        """Forms this principal's beliefs again from all its episodes (opt-in, explicit).

        Every belief formation made is retired (explicitly stated beliefs stay), every
        episode is consolidated again oldest first under ``policy_version`` (recorded
        on every belief it forms, with new ids), and every correction and tombstone is
        replayed before each commit, so corrections still hold and forgotten
        statements stay forgotten.

        The reset runs in transactions of 1,000 beliefs or episodes, and each episode
        is another: if it stops half way, running it again starts over cleanly.

        Args:
            policy_version: A name for the formation policy (1 to 64 characters).
            policy: Gate settings; its ``version`` is replaced by ``policy_version``.
            progress: Called with the number of episodes done so far.
        """
        checked = parse(FormationPolicy, policy if policy is not None else {})
        checked = parse(FormationPolicy, {**checked.model_dump(), "version": policy_version})
        return rederivation.rederive(
            self._db,
            self._principal,
            self._engine.view("belief"),
            checked,
            StructuredExtractor(),
            progress,
        )

    def unconsolidated(self, limit: int = 1_000) -> list[str]:
        """Ids of episodes formation has not run over yet, oldest first."""
        return episode_store.unconsolidated_ids(self._db, self._principal, check_limit(limit))

    def hints(self, *, include_consumed: bool = False, limit: int = 100) -> list[FormationHint]:
        """The formation hints recall's misses queued: subjects memory kept lacking.

        A live belief recall (no ``as_of``) that returns no item at all is a miss; its
        subject is the query in normal form (:func:`graphmem.content.query_subject`:
        words, case-folded). ``GRAPHMEM_HINT_MISSES`` (3) misses on one subject within
        ``GRAPHMEM_HINT_WINDOW_DAYS`` (7), counted after its last consumed hint, queue
        one hint; it expires ``GRAPHMEM_HINT_TTL_DAYS`` (30) after it was queued
        unless :meth:`consolidate_hints` or :meth:`rederive` consumes it first. There
        is at most one open hint per subject. Expired hints are never listed.

        Args:
            include_consumed: Also list the consumed hints that have not expired.
            limit: At most this many (1 to 10,000); open ones first, most missed first.

        Raises:
            InvalidInput: ``limit`` is out of range.
        """
        chosen = check_limit(limit)
        self._engine.flush()  # misses are counted when their traces are written
        return hint_store.list_hints(
            self._db,
            self._principal,
            datetime.now(UTC),
            consumed=bool(include_consumed),
            limit=chosen,
        )

    def consolidate_hints(
        self,
        *,
        policy: FormationPolicy | Mapping[str, Any] | None = None,
        extractor: Extractor | None = None,
        limit: int = hint_formation.HINTS_PER_RUN,
    ) -> list[HintOutcome]:
        """Consumes the open formation hints: looks for candidates on their subjects.

        For each open hint (the oldest ``limit``), the episodes not yet consolidated
        (the oldest 1,000) whose words hold every content word of its subject go
        through :meth:`consolidate`, oldest first. The hint is then marked consumed,
        with those episodes and what they formed, whether or not a belief came of it.
        ``graphmem consolidate`` with no episode ids runs this first.

        Args:
            policy: Gate switches and settings (:class:`FormationPolicy`).
            extractor: Where candidates come from (default: the structured parts).
            limit: At most this many hints (1 to 10,000).

        Raises:
            InvalidInput: A policy field or ``limit`` breaks a rule.
        """
        checked = parse(FormationPolicy, policy if policy is not None else {})
        chosen = check_limit(limit)
        self._engine.flush()
        return hint_formation.consume(
            self._db,
            self._principal,
            self._engine.view("belief"),
            checked,
            extractor or StructuredExtractor(),
            datetime.now(UTC),
            chosen,
        )

    def expire(self, now: datetime | None = None, *, dry_run: bool = False) -> ExpiryResult:
        """Demotes, then retires, the formed beliefs no episode confirmed lately.

        A belief formation made (not one stated with ``believe``, and not of ``user``
        authority) is confirmed when it is formed and whenever a later episode
        reinforces it, at that episode's time (``last_confirmed_at``). Not confirmed
        for ``GRAPHMEM_EXPIRY_STALE_DAYS`` (90) before ``now``, it is demoted: marked
        stale (``stale_since``: ``now``), shown so and ranked lower by recall. Stale
        for ``GRAPHMEM_EXPIRY_RETIRE_DAYS`` (90) more, it is retired (history,
        provenance and ``DERIVED_FROM`` stay). Reinforcement by a later episode clears
        staleness. One run never both demotes and retires a belief.

        Recall never reads the clock, so expiry is this explicit step; ``now`` is its
        only clock (the current time when not given), and running it again with the
        same ``now`` changes nothing. ``graphmem sessions consolidate`` runs it after
        its sweep.

        Args:
            now: The time the windows are measured back from; it must have a zone.
            dry_run: Write nothing; report what a run would demote and retire.

        Raises:
            InvalidInput: ``now`` has no time zone.
        """
        moment = now if now is not None else datetime.now(UTC)
        due = expiry.cutoffs(moment, self._expiry)
        verdicts = {
            belief.id: expiry.verdict(belief.last_confirmed_at, belief.stale_since, due)
            for belief in expiry_store.due_beliefs(
                self._db, self._principal, due.stale_before, due.retire_before
            )
        }
        demote = [i for i, found in verdicts.items() if found is expiry.Verdict.DEMOTE]
        retire = [i for i, found in verdicts.items() if found is expiry.Verdict.RETIRE]
        if dry_run:
            return ExpiryResult(now=moment, dry_run=True, demoted=demote, retired=retire)
        days = self._expiry.retire.total_seconds() / 86_400
        retired = expiry_store.retire_stale(
            self._db,
            self._principal,
            retire,
            retire_before=due.retire_before,
            now=moment,
            reason=f"expired: stale for {days:g} days without an episode confirming it",
            actor=Authority.AGENT,
        )
        demoted = expiry_store.mark_stale(
            self._db,
            self._principal,
            demote,
            stale_before=due.stale_before,
            now=moment,
            actor=Authority.AGENT,
        )
        return ExpiryResult(now=moment, demoted=demoted, retired=retired)
