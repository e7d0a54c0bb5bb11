"""Recall: what is true (beliefs), what happened (episodes), and what to know at start.

Every answer is rendered byte-stable and recorded as a trace; citations of a trace
feed decay, and misses queue formation hints. The local views (semantic and lexical)
are derived from the graph and can be rebuilt at any time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from graphmem.capabilities.context import Capability
from graphmem.errors import InvalidInput, NotFound
from graphmem.explore.since import parse_span
from graphmem.limits import CITED_ID_PATTERN, SHORT_ID_PATTERN
from graphmem.models import (
    MAX_CITED_ITEMS,
    Arm,
    BeliefType,
    CitationResult,
    Decay,
    EpisodeSearchResult,
    RecallQuery,
    RecallResult,
    SnapshotProfile,
    TraceSweep,
)
from graphmem.store import hints as hint_store
from graphmem.store import traces
from graphmem.store.database import Value
from graphmem.store.entities import relink_entities
from graphmem.store.sensitivity import raise_stored_secrets
from graphmem.store.traces import OPERATOR_EXPIRED, OPERATOR_PREFIX
from graphmem.trust.sensitivity import Sensitivity, parse_sensitivity
from graphmem.validation import PATTERN_WORDS, check_id, check_project, parse
from graphmem.vectors.stored import REEMBED_BATCH, reembed


def _check_cited(item_ids: object) -> list[str]:
    """The ids a citation names, checked and without repeats (first occurrence kept)."""
    if isinstance(item_ids, str | bytes) or not isinstance(item_ids, Iterable):
        raise InvalidInput(
            "item_ids: give a list of the item ids you used, not a single string",
            field="item_ids",
            rule="list",
        )
    given = list(item_ids)
    bad = [i for i in given if not isinstance(i, str) or not re.fullmatch(CITED_ID_PATTERN, i)]
    if bad:
        raise InvalidInput(
            f"item_ids: {', '.join(repr(i) for i in bad[:5])} "
            f"{'is not a graphmem id' if len(bad) == 1 else 'are not graphmem ids'}: "
            f"{PATTERN_WORDS[CITED_ID_PATTERN]}",
            field="item_ids",
            rule="id",
            pattern=CITED_ID_PATTERN,
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


class Recall(Capability):
    """Recall beliefs, search episodes, take snapshots; read and cite traces."""

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
        (confidence, state, anchor weight in ``project``, cross-project portability,
        and half for a formed belief :meth:`expire` marked stale, shown as ``stale``).
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
        return self._engine.recall(request)

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
        return self._engine.search_episodes(request)

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
        return self._engine.snapshot(check_project(project), profile, level)

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
            surface: self._engine.rebuild_views(surface) for surface in ("belief", "episode")
        }
        rebuilt["entities"] = relink_entities(self._db, self._principal)
        rebuilt["secrets"] = raise_stored_secrets(self._db, self._principal)
        return rebuilt

    def reembed(
        self,
        *,
        batch: int = REEMBED_BATCH,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, int]:
        """Embeds and stores the vectors of every item stored without this model's.

        Writes store their vectors as they go, and a view embeds an item it finds
        without them; this is the explicit migration after a model change, or for
        memory written before vectors were stored. Each batch commits on its own, so
        a stopped run resumes where it stopped.

        Args:
            batch: Items per transaction (1 to 10,000).
            progress: Called after each batch with (items done, items to do).

        Returns:
            Per surface (``belief``, ``episode``), the items embedded.

        Raises:
            InvalidInput: ``batch`` is out of range.
        """
        if not 1 <= batch <= 10_000:
            raise InvalidInput("batch: must be between 1 and 10,000", field="batch", rule="range")
        return reembed(
            self._db,
            self._principal,
            self._engine.embedder(),
            batch,
            progress or (lambda done, total: None),
        )

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
        check_id(trace_id, "trace_id")
        self._engine.flush()
        trace = traces.get_trace(self._db, self._principal, trace_id)
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
        expires = at + self._feedback.operator_window if isinstance(at, datetime) else None
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
            trace_id: The ``trace_id`` of a recall, search or snapshot result, or the
                short form (its last 8 characters) a hook's injection shows.
            item_ids: The ids of the items it returned that the agent used (1 to 200),
                each whole or in the short form an injection shows.

        Raises:
            NotFound: No such trace for this principal.
            InvalidInput: ``item_ids`` is empty, too long, holds something that is not
                an id, or an id that trace did not return (``details.ids`` lists them).
        """
        ids = _check_cited(item_ids)
        self._engine.flush()  # the background writer may not have written it yet
        if isinstance(trace_id, str) and re.fullmatch(SHORT_ID_PATTERN, trace_id):
            trace_id = traces.by_short_id(self._db, self._principal, trace_id)
        check_id(trace_id, "trace_id")
        return traces.cite(self._db, self._principal, trace_id, ids, datetime.now(UTC))

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
            else self._feedback.operator_window
        )
        self._engine.flush()
        now = datetime.now(UTC)
        try:
            cutoff = now - window
        except OverflowError:
            raise InvalidInput(
                "older_than: reaches back before year 1", field="older_than", rule="range"
            ) from None
        swept = traces.sweep_operator_fields(self._db, self._principal, cutoff, now)
        deleted = hint_store.sweep_hints(
            self._db, self._principal, now, now - self._feedback.hint_window
        )
        return TraceSweep(cutoff=cutoff, traces=swept, hints=deleted)
