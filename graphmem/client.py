"""GraphMem: the client agents use to remember, believe, supersede and look things up."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from graphmem.anchors.state import anchor_statuses
from graphmem.anchors.sync import IndexSummary, index_code
from graphmem.content import is_name
from graphmem.errors import InvalidInput, NotFound
from graphmem.explore.changes import list_changes
from graphmem.explore.drift import anchor_changes, anchor_states, log_anchor_changes
from graphmem.explore.overview import overview
from graphmem.explore.since import parse_since, parse_span
from graphmem.formation import hints as hint_formation
from graphmem.formation import pipeline as formation
from graphmem.formation import rederive as rederivation
from graphmem.formation.extract import Extractor, StructuredExtractor
from graphmem.models import (
    DEFAULT_CONFIDENCE,
    ID_PATTERN,
    MAX_BATCH_ROWS,
    MAX_CITED_ITEMS,
    MAX_SEQ,
    NAME_PATTERN,
    AnchorRef,
    AnchorState,
    AnchorStatus,
    Arm,
    Authority,
    Belief,
    BeliefChanges,
    BeliefState,
    BeliefType,
    Change,
    ChangeKind,
    ChangeReason,
    CitationResult,
    ConsolidationResult,
    Correction,
    CorrectionKind,
    CorrectionResult,
    Decay,
    Episode,
    EpisodeSearchResult,
    Evidence,
    FormationHint,
    FormationPolicy,
    HintOutcome,
    HistoryEntry,
    ListFilters,
    NewBelief,
    NewEpisode,
    Overview,
    Portability,
    RecallQuery,
    RecallResult,
    RederivationSummary,
    Scope,
    SnapshotProfile,
    TraceSweep,
)
from graphmem.recall.engine import RecallEngine
from graphmem.settings import (
    ConnectionSettings,
    FeedbackSettings,
    resolve_connection,
    resolve_data_dir,
    resolve_feedback,
    resolve_principal,
)
from graphmem.store import beliefs as belief_store
from graphmem.store import corrections, events, principals, traces
from graphmem.store import episodes as episode_store
from graphmem.store import hints as hint_store
from graphmem.store.database import Database, Value
from graphmem.store.entities import relink_entities
from graphmem.store.migrations import apply_migrations, require_current_schema
from graphmem.store.sensitivity import raise_stored_secrets
from graphmem.store.traces import OPERATOR_EXPIRED, OPERATOR_PREFIX
from graphmem.transfer import exporter, importer
from graphmem.transfer.summary import ExportSummary, ImportSummary
from graphmem.trust.sensitivity import Sensitivity, parse_sensitivity
from graphmem.validation import PATTERN_WORDS, parse
from graphmem.vectors.minilm import default_embedder
from graphmem.vectors.protocol import Embedder

EvidenceLike = str | Evidence | Mapping[str, Any]


def _check_id(value: object, field: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(ID_PATTERN, value):
        raise InvalidInput(
            f"{field}: {value!r} is not a graphmem id: {PATTERN_WORDS[ID_PATTERN]}",
            field=field,
            rule="id",
            pattern=ID_PATTERN,
        )
    return value


def _check_project(value: object) -> str:
    if not is_name(value):
        raise InvalidInput(
            f"project: {value!r} is not valid: {PATTERN_WORDS[NAME_PATTERN]}",
            field="project",
            rule="pattern",
            pattern=NAME_PATTERN,
        )
    assert isinstance(value, str)
    return value


def _check_limit(limit: object) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_BATCH_ROWS:
        raise InvalidInput(
            f"limit: must be an integer from 1 to {MAX_BATCH_ROWS}", field="limit", rule="range"
        )
    return limit


def _check_since(since: object) -> int:
    if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= MAX_SEQ:
        raise InvalidInput(
            f"since: must be a seq, an integer from 0 to {MAX_SEQ}", field="since", rule="range"
        )
    return since


def _check_cited(item_ids: object) -> list[str]:
    """The ids a citation names, checked and without repeats (first occurrence kept)."""
    if isinstance(item_ids, str | bytes) or not isinstance(item_ids, Iterable):
        raise InvalidInput(
            "item_ids: give a list of the item ids you used, not a single string",
            field="item_ids",
            rule="list",
        )
    given = list(item_ids)
    bad = [i for i in given if not isinstance(i, str) or not re.fullmatch(ID_PATTERN, i)]
    if bad:
        raise InvalidInput(
            f"item_ids: {', '.join(repr(i) for i in bad[:5])} "
            f"{'is not a graphmem id' if len(bad) == 1 else 'are not graphmem ids'}: "
            f"{PATTERN_WORDS[ID_PATTERN]}",
            field="item_ids",
            rule="id",
            pattern=ID_PATTERN,
        )
    ids = list(dict.fromkeys(given))  # checked first: only strings are hashed
    if not ids:
        raise InvalidInput(
            "item_ids: name at least one item of the recall you used",
            field="item_ids",
            rule="required",
        )
    if len(ids) > MAX_CITED_ITEMS:
        raise InvalidInput(
            f"item_ids: a citation names at most {MAX_CITED_ITEMS} items, got {len(ids)}",
            field="item_ids",
            rule="max_items",
        )
    return ids


def _batch(items: Iterable[Any], field: str) -> list[Any]:
    rows = list(items)
    if len(rows) > MAX_BATCH_ROWS:
        raise InvalidInput(
            f"{field}: a batch holds at most {MAX_BATCH_ROWS} rows, got {len(rows)}; split it",
            field=field,
            rule="max_rows",
        )
    return rows


class GraphMem:
    """A principal's memory in Neo4j.

    Settings come from the arguments, then the environment (``GRAPHMEM_PRINCIPAL``,
    ``GRAPHMEM_NEO4J_URI`` ...), then the local server ``graphmem neo4j start`` runs.
    The principal is a hard filter on every read: nothing another principal wrote is
    ever returned. On first connect the schema migrations are applied (with
    ``migrate=False``, the schema is only checked to be current).

    Example:
        >>> with GraphMem(principal="alice") as mem:
        ...     episode = mem.remember({"project": "billing", "title": "Fix rounding"})
        ...     mem.believe("Invoices round half-even", project="billing",
        ...                 type="fact", evidence=[episode])

    Raises:
        ConfigError: A setting is missing (the message says which and how to set it).
        DatabaseUnavailable: Neo4j cannot be reached or refused the credentials.
        MigrationError: The schema cannot be applied, or (``migrate=False``) is behind.
    """

    def __init__(
        self,
        principal: str | None = None,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        data_dir: str | Path | None = None,
        migrate: bool = True,
        embedder: Embedder | None = None,
    ) -> None:
        self.principal = resolve_principal(principal)
        self.settings: ConnectionSettings = resolve_connection(
            uri=uri, user=user, password=password, database=database, data_dir=data_dir
        )
        self.feedback: FeedbackSettings = resolve_feedback()
        """When misses queue formation hints and how long operator fields live
        (``GRAPHMEM_HINT_*``, ``GRAPHMEM_TRACE_OPERATOR_DAYS``)."""
        self._db = Database(self.settings)
        self._recall = RecallEngine(
            self._db,
            self.principal,
            (lambda: embedder) if embedder is not None else default_embedder,
            resolve_data_dir(data_dir) / "views",
            self.feedback,
        )
        try:
            self._db.verify()
            if migrate:
                apply_migrations(self._db)
            else:
                require_current_schema(self._db)
        except BaseException:
            self.close()
            raise

    # --- lifecycle ------------------------------------------------------------------

    def close(self) -> None:
        """Writes pending recall traces and closes the connection to Neo4j."""
        try:
            self._recall.close()
        finally:
            self._db.close()

    def __enter__(self) -> GraphMem:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- episodes -------------------------------------------------------------------

    def remember(
        self, episode: NewEpisode | Mapping[str, Any], *, consolidate: bool = False
    ) -> str:
        """Records one episode and returns its id.

        Args:
            episode: A :class:`NewEpisode` or a mapping of its fields. With an
                ``idempotency_key`` seen before, nothing is written and the earlier
                episode's id is returned.
            consolidate: Also form beliefs from its structured parts now (see
                :meth:`consolidate`, default policy).

        Raises:
            InvalidInput: A field breaks a rule (``details`` names it).
            NotFound: ``parent`` names no episode of this principal.
        """
        parsed = parse(NewEpisode, episode)
        episode_id = episode_store.create_episodes(
            self._db, self.principal, [parsed], row_numbers=False
        )[0]
        if consolidate:
            self.consolidate(episode_id)
        return episode_id

    def consolidate(
        self,
        episode_id: str,
        *,
        policy: FormationPolicy | Mapping[str, Any] | None = None,
        extractor: Extractor | None = None,
    ) -> ConsolidationResult:
        """Forms beliefs from one episode's structured parts (design §6).

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
        episode = self.get_episode(episode_id)
        checked = parse(FormationPolicy, policy if policy is not None else {})
        return formation.consolidate(
            self._db,
            self.principal,
            episode,
            self._recall.view("belief"),
            checked,
            extractor or StructuredExtractor(),
        )

    def remember_many(self, episodes: Iterable[NewEpisode | Mapping[str, Any]]) -> list[str]:
        """Records episodes in one all-or-nothing transaction; returns ids in order.

        Raises:
            InvalidInput: A row breaks a rule; ``details`` names ``row`` and ``field``.
                Nothing of the batch is written.
        """
        rows = _batch(episodes, "episodes")
        parsed = [parse(NewEpisode, row, row=index) for index, row in enumerate(rows)]
        return episode_store.create_episodes(self._db, self.principal, parsed, row_numbers=True)

    def get_episode(self, episode_id: str) -> Episode:
        """Returns one episode of this principal.

        Raises:
            NotFound: No such episode for this principal.
        """
        _check_id(episode_id, "episode_id")
        found = episode_store.get_episodes(self._db, self.principal, [episode_id])
        if not found:
            raise NotFound(
                f"episode {episode_id} does not exist for this principal",
                field="episode_id",
                rule="exists",
            )
        return found[0]

    # --- beliefs --------------------------------------------------------------------

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
            idempotency_key: Makes a retried write a no-op that returns the first id.

        Raises:
            InvalidInput: A field breaks a rule.
            NotFound: An evidence id names no episode of this principal, or the anchor
                names no symbol of the project's code graph.
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
        return belief_store.create_beliefs(self._db, self.principal, [parsed], row_numbers=False)[0]

    def believe_many(self, beliefs: Iterable[NewBelief | Mapping[str, Any]]) -> list[str]:
        """States beliefs in one all-or-nothing transaction; returns ids in order.

        Each row is a :class:`NewBelief` or a mapping of its fields (``evidence`` may
        list plain episode ids).

        Raises:
            InvalidInput: A row breaks a rule; ``details`` names ``row`` and ``field``.
                Nothing of the batch is written.
        """
        rows = _batch(beliefs, "beliefs")
        parsed = [parse(NewBelief, row, row=index) for index, row in enumerate(rows)]
        return belief_store.create_beliefs(self._db, self.principal, parsed, row_numbers=True)

    def supersede(
        self,
        old_id: str,
        new: str | BeliefChanges | Mapping[str, Any],
        reason: str,
    ) -> str:
        """Replaces a belief with a new one, recording why (design rule 3).

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

        Raises:
            NotFound: ``old_id`` names no belief of this principal.
            StateConflict: The old belief is already superseded or retired.
            InvalidInput: A field breaks a rule.
        """
        _check_id(old_id, "old_id")
        fields: BeliefChanges | Mapping[str, Any]
        fields = {"statement": new} if isinstance(new, str) else new
        changes = parse(BeliefChanges, fields)
        checked_reason = parse(ChangeReason, {"reason": reason}).reason
        return belief_store.supersede(self._db, self.principal, old_id, changes, checked_reason)

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

        The reset is one transaction and each episode another: if it stops half way,
        running it again starts over cleanly.

        Args:
            policy_version: A name for the formation policy (1 to 64 characters).
            policy: Gate settings; its ``version`` is replaced by ``policy_version``.
            progress: Called with the number of episodes done so far.
        """
        checked = parse(FormationPolicy, policy if policy is not None else {})
        checked = parse(FormationPolicy, {**checked.model_dump(), "version": policy_version})
        return rederivation.rederive(
            self._db,
            self.principal,
            self._recall.view("belief"),
            checked,
            StructuredExtractor(),
            progress,
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
        """Corrects a belief; the correction outlives the belief (design rule 6).

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
        _check_id(belief_id, "belief_id")
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
        return corrections.correct(self._db, self.principal, belief_id, correction)

    def unconsolidated(self, limit: int = 1_000) -> list[str]:
        """Ids of episodes formation has not run over yet, oldest first."""
        return episode_store.unconsolidated_ids(self._db, self.principal, _check_limit(limit))

    def events(self, since: int = 0, limit: int = 1_000) -> list[dict[str, Value]]:
        """This principal's change log after ``since`` (a seq), oldest first.

        Each event has ``seq``, ``type`` (``belief.created``, ``belief.reinforced``,
        ``belief.promoted``, ``candidate.rejected``...), ``node_id``, ``actor`` and
        ``at``, and ``about``: the statement or title of the node it is about while
        that exists; a rejected candidate also has ``gate``, ``statement`` and, for the
        novelty gate, ``similar_to`` and ``similarity``. :meth:`changes` reads the same
        log as typed kinds of change.
        """
        return events.list_events(
            self._db, self.principal, _check_since(since), _check_limit(limit)
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
        _check_id(belief_id, "belief_id")
        who = parse(ChangeReason, {"reason": "forget", "actor": actor}).actor
        statement = belief_store.forget(self._db, self.principal, belief_id, who)
        self._recall.forget_text(statement)

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
        _check_id(belief_id, "belief_id")
        checked = parse(ChangeReason, {"reason": reason, "actor": actor})
        return belief_store.retire(
            self._db, self.principal, belief_id, checked.reason, checked.actor
        )

    def get_belief(self, belief_id: str) -> Belief:
        """Returns one belief of this principal, with its provenance.

        Raises:
            NotFound: No such belief for this principal.
        """
        _check_id(belief_id, "belief_id")
        found = belief_store.get_beliefs(self._db, self.principal, [belief_id])
        if not found:
            raise NotFound(
                f"belief {belief_id} does not exist for this principal",
                field="belief_id",
                rule="exists",
            )
        return found[0]

    def history(self, belief_id: str) -> list[HistoryEntry]:
        """Returns the supersession chain through a belief, oldest first, from either end.

        Raises:
            NotFound: No such belief for this principal.
        """
        _check_id(belief_id, "belief_id")
        return belief_store.history(self._db, self.principal, belief_id)

    def list_beliefs(
        self,
        *,
        project: str | None = None,
        type: BeliefType | str | None = None,
        state: BeliefState | str | None = None,
        scope: Scope | str | None = None,
        include_superseded: bool = False,
        anchor_state: AnchorState | str | None = None,
        promoted: bool = False,
        conflicted: bool = False,
        limit: int = 100,
    ) -> list[Belief]:
        """Lists this principal's beliefs, oldest first.

        Args:
            project: Only beliefs learned in this project (any of their origins).
            type: Only this type.
            state: Only this lifecycle state; retired beliefs are listed only when
                asked for by this filter.
            scope: Only this scope.
            include_superseded: Also list beliefs that were superseded.
            anchor_state: Only beliefs whose anchor is in this state, checked against
                ``project`` when given, else each belief's own project.
            promoted: Only beliefs promoted to principal scope.
            conflicted: Only beliefs in an open conflict (CONFLICTS_WITH a live one).
            limit: At most this many (1 to 10,000).

        Raises:
            InvalidInput: A filter has a value outside its enum, or limit is out of range.
        """
        filters = parse(
            ListFilters,
            {
                "project": project,
                "type": type,
                "state": state,
                "scope": scope,
                "include_superseded": include_superseded,
                "anchor_state": anchor_state,
                "promoted": promoted,
                "conflicted": conflicted,
                "limit": limit,
            },
        )
        wanted = filters.anchor_state
        anchored = wanted is not None and wanted is not AnchorState.UNANCHORED
        ids = belief_store.list_belief_ids(
            self._db,
            self.principal,
            filters,
            anchored=anchored,
            limit=MAX_BATCH_ROWS if wanted is not None else filters.limit,
        )
        found = belief_store.get_beliefs(self._db, self.principal, ids)
        if wanted is None:
            return found
        statuses = anchor_statuses(
            self._db, self.principal, found, filters.project, with_candidates=False
        )
        return [b for b, s in zip(found, statuses, strict=True) if s.state is wanted][
            : filters.limit
        ]

    def overview(self) -> Overview:
        """This principal's memory across all of its projects, at a glance.

        Each project with its episodes, live beliefs by type and state, promoted
        beliefs, open conflicts, drifted and vanished anchors (checked against that
        project's code graph) and last activity; then the principal-scope beliefs and
        the subjects that recur across projects.
        """
        return overview(self._db, self.principal)

    def changes(
        self,
        since: int | str | datetime | date | timedelta = "7d",
        *,
        project: str | None = None,
        kinds: Iterable[ChangeKind | str] | None = None,
        limit: int = 1_000,
    ) -> list[Change]:
        """What changed in this principal's memory, oldest first.

        Args:
            since: A seq (changes after it), a span back from now (``"30m"``, ``"12h"``,
                ``"7d"``, ``"2w"`` or a timedelta), or a date or time (``"2026-11-01"``,
                ISO 8601; UTC when no zone is given) from which on.
            project: Only changes about this project (a belief counts in each project
                it was learned in).
            kinds: Only these kinds (default: all; see :class:`ChangeKind`).
            limit: At most this many (1 to 10,000).

        Raises:
            InvalidInput: ``since``, ``project``, a kind or ``limit`` is not valid.
        """
        start = parse_since(since, datetime.now(UTC))
        asked = _check_project(project) if project is not None else None
        try:
            chosen = [ChangeKind(kind) for kind in kinds] if kinds is not None else list(ChangeKind)
        except ValueError:
            valid = ", ".join(kind.value for kind in ChangeKind)
            raise InvalidInput(f"kinds: each kind is one of {valid}", field="kinds") from None
        return list_changes(
            self._db,
            self.principal,
            start,
            project=asked,
            kinds=chosen,
            limit=_check_limit(limit),
        )

    def projects(self, limit: int = 1_000) -> list[str]:
        """This principal's project names, sorted.

        A project is named by an episode that happened there or a belief learned there.

        Raises:
            InvalidInput: ``limit`` is out of range (1 to 10,000).
        """
        return principals.list_projects(self._db, self.principal, _check_limit(limit))

    # --- code anchors ---------------------------------------------------------------

    def index_code(
        self,
        root: str | Path,
        project: str,
        *,
        workers: int | None = None,
        rebuild: bool = False,
        include_ignored: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> IndexSummary:
        """Builds or updates ``project``'s derived code graph from the source in ``root``.

        Unchanged files (same git blob id) are skipped; deleted files' symbols are
        removed; memory nodes are never touched (rule 1). Keys use paths relative to
        ``root``. The beliefs learned in ``project`` whose anchor state the run changed
        are reported in ``anchor_changes`` and logged as ``anchor`` changes.

        Args:
            root: The directory to index (a git work tree is listed with git ls-files).
            project: The project whose code graph this is.
            workers: Parser processes (default: all cores).
            rebuild: Delete the project's code graph first.
            include_ignored: Index what git ignores too; without it a root git ignores
                entirely indexes nothing and says so in ``warnings``.
            progress: Called with (files done, files to parse).

        Raises:
            InvalidInput: ``project`` is not a valid name or ``root`` not a directory.
        """
        name = _check_project(project)
        before = anchor_states(self._db, self.principal, name)
        summary = index_code(
            self._db,
            self.principal,
            name,
            Path(root),
            workers=workers,
            rebuild=rebuild,
            include_ignored=include_ignored,
            progress=progress or (lambda done, total: None),
        )
        summary.anchor_changes = anchor_changes(
            name, before, anchor_states(self._db, self.principal, name)
        )
        log_anchor_changes(
            self._db, self.principal, name, summary.anchor_changes, "tool", datetime.now(UTC)
        )
        return summary

    def anchor_statuses(
        self, belief_ids: Iterable[str], project: str | None = None
    ) -> list[AnchorStatus]:
        """Checks the anchors of several beliefs against a project's current code graph.

        Args:
            belief_ids: The beliefs.
            project: The project to check against; each belief's own when None.

        Raises:
            NotFound: A belief does not exist for this principal.
        """
        ids = [_check_id(belief_id, "belief_id") for belief_id in belief_ids]
        beliefs = belief_store.get_beliefs(self._db, self.principal, ids)
        missing = sorted(set(ids) - {belief.id for belief in beliefs})
        if missing:
            raise NotFound(
                f"belief {missing[0]} does not exist for this principal",
                field="belief_id",
                rule="exists",
            )
        asked = _check_project(project) if project is not None else None
        return anchor_statuses(self._db, self.principal, beliefs, asked)

    def anchor_status(self, belief_id: str, project: str | None = None) -> AnchorStatus:
        """Checks one belief's anchor (see :meth:`anchor_statuses`)."""
        return self.anchor_statuses([belief_id], project)[0]

    # --- recall ---------------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        project: str | None = None,
        paths: Iterable[str] | None = None,
        symbols: Iterable[str] | None = None,
        subjects: Iterable[str] | None = None,
        types: Iterable[BeliefType | str] | None = None,
        as_of: datetime | None = None,
        k: int = 10,
        arms: Iterable[Arm | str] = (Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH, Arm.STRUCTURED),
        decay: Decay | str = Decay.NONE,
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> RecallResult:
        """Recalls the beliefs that answer ``query`` ("what is true"), best first.

        Hard filters first (principal; live, or valid and recorded at ``as_of``; a
        local belief only in its project; ``types``; at most ``ceiling`` sensitive,
        the rest counted as ``withheld`` and never shown); then the arms, fused by
        their normalised scores (see ``recall/fusion.py``); then read-time weights
        (confidence, state, anchor weight in ``project``, cross-project portability).
        An item whose text the injection scan flags is shown as ``[BLOCKED: reason]``
        in its place (``flagged``). Every call records a ``:RecallTrace`` whose id the
        result carries.

        Args:
            query: What the agent wants to know (user text; never query syntax).
            project: The project asked about (weights and anchors); None: all.
            paths: Files the agent is working on (structured arm: beliefs anchored there).
            symbols: Symbol keys, or names in ``project`` (structured arm).
            subjects: Exact subjects (structured arm).
            types: Only these belief types.
            as_of: Answer as of this moment (aware datetime) instead of now.
            k: At most this many items (1 to 200).
            arms: Which arms to use: lexical, semantic, graph (beliefs sharing an
                anchored symbol, subject or source episode with the best hits),
                structured (needs paths, symbols or subjects).
            decay: ``none`` (default, fully reproducible), ``linear`` or
                ``exponential``: weight by the principal's writes since each belief
                was stated or last supported by an episode (generations, never
                wall-clock time).
            ceiling: The most sensitive level shown: public, internal, confidential
                (default) or secret (secret memory is shown only when asked for).

        Raises:
            InvalidInput: A parameter breaks a rule (empty query, unknown arm...).
        """
        request = parse(
            RecallQuery,
            {
                "query": query,
                "project": project,
                "paths": list(paths) if paths is not None else None,
                "symbols": list(symbols) if symbols is not None else None,
                "subjects": list(subjects) if subjects is not None else None,
                "types": list(types) if types is not None else None,
                "as_of": as_of,
                "k": k,
                "arms": list(arms),
                "decay": decay,
                "ceiling": ceiling,
            },
        )
        return self._recall.recall(request)

    def search_episodes(
        self,
        query: str,
        *,
        project: str | None = None,
        as_of: datetime | None = None,
        k: int = 10,
        arms: Iterable[Arm | str] = (Arm.LEXICAL, Arm.SEMANTIC, Arm.GRAPH, Arm.TIME),
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> EpisodeSearchResult:
        """Finds the episodes that answer ``query`` ("what happened"), best first.

        Args:
            query: What the agent wants to find (user text; never query syntax).
            project: Only this project's episodes; None: all.
            as_of: Only episodes that had happened by then.
            k: At most this many (1 to 200).
            arms: Which arms to use: lexical, semantic, graph (session adjacency,
                shared entities), time (the episodes dated in the time the query
                names, resolved against ``as_of`` or the newest episode).
            ceiling: The most sensitive level shown (see :meth:`recall`).

        Raises:
            InvalidInput: A parameter breaks a rule.
        """
        request = parse(
            RecallQuery,
            {
                "query": query,
                "project": project,
                "as_of": as_of,
                "k": k,
                "arms": list(arms),
                "ceiling": ceiling,
            },
        )
        return self._recall.search_episodes(request)

    def snapshot(
        self,
        project: str,
        profile: SnapshotProfile | str = SnapshotProfile.INTERACTIVE,
        *,
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> RecallResult:
        """What an agent should know at the start of a session in ``project``.

        Live beliefs that apply there: durable preferences and user-stated beliefs
        first (about two thirds), then the rest, by read-time weight; capped by items
        (interactive 40, long 80, child 15) and, as a backstop, by tokens (1,500 /
        3,000 / 500); at most ``ceiling`` sensitive. Rendered byte-stable, screened
        and traced like :meth:`recall`.

        Raises:
            InvalidInput: ``project`` is not a valid name, or ``profile`` or
                ``ceiling`` unknown.
        """
        level = parse_sensitivity(str(ceiling), "ceiling")
        return self._recall.snapshot(_check_project(project), profile, level)

    def reindex(self) -> dict[str, int]:
        """Rebuilds the local views (semantic and lexical) and the entity links.

        The views are replayed from the graph; every episode and belief is relinked to
        the entities it mentions (the entity layer's back-fill); and every one whose
        text holds a secret is raised to ``secret`` (the sensitivity back-fill for
        memory written before levels existed, or under an older secret finder).

        Returns:
            Per surface (``belief``, ``episode``), the events replayed into its views;
            under ``entities``, the nodes relinked; under ``secrets``, the nodes raised.
        """
        rebuilt = {
            surface: self._recall.rebuild_views(surface) for surface in ("belief", "episode")
        }
        rebuilt["entities"] = relink_entities(self._db, self.principal)
        rebuilt["secrets"] = raise_stored_secrets(self._db, self.principal)
        return rebuilt

    def get_trace(self, trace_id: str, *, operator: bool = False) -> dict[str, Value]:
        """Returns a recall trace of this principal.

        User fields: what was asked (``query``, ``project``, ``as_of``, ``k``, ``arms``,
        ``decay``), what was rendered (``item_ids``, ``bands``, ``rendered_sha256``,
        ``dropped``, ``blocked``), ``miss_subject`` when it was a miss, and what was cited
        (``cited_ids``, ``cited_at``). They stay with the trace.

        Args:
            trace_id: The id a recall returned.
            operator: Include the operator-only fields (arm ranks, latencies, policy
                version); the default view is safe to show a user. They expire after
                the tuning window (``GRAPHMEM_TRACE_OPERATOR_DAYS``, default 30): a
                trace older than that has ``operator_expired_at`` (when they expired, or
                when :meth:`sweep_traces` removed them) instead.

        Raises:
            NotFound: No such trace for this principal.
        """
        _check_id(trace_id, "trace_id")
        self._recall.flush()
        trace = traces.get_trace(self._db, self.principal, trace_id)
        if trace is None:
            raise NotFound(
                f"trace {trace_id} does not exist for this principal",
                field="trace_id",
                rule="exists",
            )
        user = {key: value for key, value in trace.items() if not key.startswith(OPERATOR_PREFIX)}
        if not operator:
            return user
        at = trace.get("at")
        expires = at + self.feedback.operator_window if isinstance(at, datetime) else None
        if OPERATOR_EXPIRED in trace:
            return {**user, OPERATOR_EXPIRED: trace[OPERATOR_EXPIRED]}
        if expires is not None and expires <= datetime.now(UTC):
            return {**user, OPERATOR_EXPIRED: expires}
        return trace

    def cite(self, trace_id: str, item_ids: Iterable[str]) -> CitationResult:
        """Records which items of a recall the agent used (citation feedback).

        The ids are added to the trace's ``cited_ids`` (a user field; citing again
        adds only what is new, so repeating a citation changes nothing). Each newly
        cited belief, and each belief the trace ranked above it, has its decay
        restarted: ``cited_seq`` becomes the principal's newest generation, so under
        ``linear`` or ``exponential`` decay it weighs as if just stated. Confidence is
        never changed, and since the beliefs shown above a cited one are refreshed
        with it, a citation never lifts a belief past one that outranked it in the
        answer it cites. Cited episodes are recorded on the trace only (episodes do
        not decay). One transaction.

        Args:
            trace_id: The ``trace_id`` of a recall, search or snapshot result.
            item_ids: The ids of the items it returned that the agent used (1 to 200).

        Raises:
            NotFound: No such trace for this principal.
            InvalidInput: ``item_ids`` is empty, too long, holds something that is not
                an id, or an id that trace did not return (``details.ids`` lists them).
        """
        _check_id(trace_id, "trace_id")
        ids = _check_cited(item_ids)
        self._recall.flush()  # the background writer may not have written it yet
        return traces.cite(self._db, self.principal, trace_id, ids, datetime.now(UTC))

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
        chosen = _check_limit(limit)
        self._recall.flush()  # misses are counted when their traces are written
        return hint_store.list_hints(
            self._db,
            self.principal,
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
        chosen = _check_limit(limit)
        self._recall.flush()
        return hint_formation.consume(
            self._db,
            self.principal,
            self._recall.view("belief"),
            checked,
            extractor or StructuredExtractor(),
            datetime.now(UTC),
            chosen,
        )

    def sweep_traces(self, older_than: timedelta | str | None = None) -> TraceSweep:
        """Removes the operator fields of old traces; deletes expired formation hints.

        Two-tier retention: a trace recorded more than ``older_than`` ago loses its
        operator fields (arm ranks, latencies, policy version) and keeps its user
        fields (what was asked, rendered and cited); ``operator_expired_at`` records
        when. Expired formation hints are deleted (a consumed one once its consumption
        is older than the miss window, since misses count after it).

        Args:
            older_than: A timedelta or a span (``30d``, ``12h``, ``2w``; ``0d`` sweeps
                every trace); default: ``GRAPHMEM_TRACE_OPERATOR_DAYS``, else 30 days.

        Raises:
            InvalidInput: ``older_than`` is not a span of time.
        """
        window = (
            parse_span(older_than, "older_than")
            if older_than is not None
            else self.feedback.operator_window
        )
        self._recall.flush()
        now = datetime.now(UTC)
        try:
            cutoff = now - window
        except OverflowError:
            raise InvalidInput(
                "older_than: reaches back before year 1", field="older_than", rule="range"
            ) from None
        swept = traces.sweep_operator_fields(self._db, self.principal, cutoff, now)
        deleted = hint_store.sweep_hints(
            self._db, self.principal, now, now - self.feedback.hint_window
        )
        return TraceSweep(cutoff=cutoff, traces=swept, hints=deleted)

    # --- export and import ------------------------------------------------------------

    def export(
        self,
        out: IO[str] | str | Path,
        *,
        project: str | None = None,
        include_secret: bool = False,
    ) -> ExportSummary:
        """Writes this principal's durable memory as a graphmem export (JSON Lines).

        The file holds, after a header line, the projects, episodes, beliefs (their
        whole history), provenance, supersession, conflicts, corrections, tombstones
        and the change log, in a fixed order: the same memory gives the same bytes.
        Access tokens, recall traces and the code graph are left out.

        Args:
            out: A text stream, or the path of the file to write.
            project: Only that project's memory (its episodes, the beliefs stated or
                learned there, and what links them).
            include_secret: Also write the secret episodes and beliefs (left out by
                default, with their links and events, and counted as ``withheld``).

        Raises:
            InvalidInput: ``project`` is not a valid name.
        """
        chosen = None if project is None else _check_project(project)
        if isinstance(out, str | Path):
            try:
                with Path(out).open("w", encoding="utf-8", newline="\n") as stream:
                    return exporter.export_memory(
                        self._db, self.principal, chosen, stream, include_secret
                    )
            except OSError as error:
                raise InvalidInput(
                    f"out: cannot write {out}: {error.strerror}", field="out", rule="file"
                ) from None
        return exporter.export_memory(self._db, self.principal, chosen, out, include_secret)

    def import_memory(
        self,
        source: IO[str] | str | Path,
        *,
        as_principal: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ImportSummary:
        """Imports a graphmem export, all or nothing, keeping its ids.

        Every line is validated before anything is written; then the whole file is
        written in one transaction, with new seqs from this store's clock in the
        file's order. Importing the same file again writes nothing.

        Args:
            source: A text stream, or the path of the file to read.
            as_principal: Re-own the memory: write it for this principal (ids another
                principal holds get new ones, consistently). Without it, the file
                must hold this client's principal's memory.
            progress: Called with (rows written, rows in all) as the write proceeds.

        Raises:
            InvalidInput: A bad line (``details``: line, field, rule), or the file is
                another principal's and ``as_principal`` is not given.
            StateConflict: An id is another principal's and the import does not re-own,
                or the store already holds part (not all) of the file.
        """
        if as_principal is not None and not is_name(as_principal):
            raise InvalidInput(
                f"as_principal: {as_principal!r} is not a valid name (letters, digits and ._:/@+-)",
                field="as_principal",
                rule="pattern",
            )
        if isinstance(source, str | Path):
            try:
                with Path(source).open(encoding="utf-8") as stream:
                    return importer.import_memory(
                        self._db, self.principal, stream, as_principal, progress
                    )
            except OSError as error:
                raise InvalidInput(
                    f"source: cannot read {source}: {error.strerror}", field="source", rule="file"
                ) from None
            except UnicodeDecodeError:
                raise InvalidInput(
                    f"source: {source} is not UTF-8 text", field="source", rule="utf8"
                ) from None
        return importer.import_memory(self._db, self.principal, source, as_principal, progress)
