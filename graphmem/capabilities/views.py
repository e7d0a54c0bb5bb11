"""Views: the principal's memory across its projects, listed and summarised.

Overview, changes over time, project names, belief listings with filters, and the raw
change log. Reads only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from graphmem.anchors.state import anchor_statuses
from graphmem.capabilities.context import Capability
from graphmem.errors import InvalidInput
from graphmem.explore.changes import list_changes
from graphmem.explore.overview import overview as principal_overview
from graphmem.explore.since import parse_since
from graphmem.models import (
    MAX_BATCH_ROWS,
    AnchorState,
    Belief,
    BeliefState,
    BeliefType,
    Change,
    ChangeKind,
    ListFilters,
    Overview,
    Scope,
)
from graphmem.store import beliefs as belief_store
from graphmem.store import events, principals
from graphmem.store.database import Value
from graphmem.validation import check_limit, check_project, check_since, parse


class Views(Capability):
    """List and summarise memory: overview, changes, projects, beliefs, events."""

    def overview(self) -> Overview:
        """This principal's memory across all of its projects, at a glance.

        Each project with its episodes, live beliefs by type and state, promoted
        beliefs, open conflicts, drifted and vanished anchors (checked against that
        project's code graph) and last activity; then the principal-scope beliefs and
        the subjects that recur across projects.
        """
        return principal_overview(self._db, self._principal)

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
        asked = check_project(project) if project is not None else None
        try:
            chosen = [ChangeKind(kind) for kind in kinds] if kinds is not None else list(ChangeKind)
        except ValueError:
            valid = ", ".join(kind.value for kind in ChangeKind)
            raise InvalidInput(f"kinds: each kind is one of {valid}", field="kinds") from None
        return list_changes(
            self._db,
            self._principal,
            start,
            project=asked,
            kinds=chosen,
            limit=check_limit(limit),
        )

    def projects(self, limit: int = 1_000) -> list[str]:
        """This principal's project names, sorted.

        A project is named by an episode that happened there or a belief learned there.

        Raises:
            InvalidInput: ``limit`` is out of range (1 to 10,000).
        """
        return principals.list_projects(self._db, self._principal, check_limit(limit))

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
            self._principal,
            filters,
            anchored=anchored,
            limit=MAX_BATCH_ROWS if wanted is not None else filters.limit,
        )
        found = belief_store.get_beliefs(self._db, self._principal, ids)
        if wanted is None:
            return found
        statuses = anchor_statuses(
            self._db, self._principal, found, filters.project, with_candidates=False
        )
        return [b for b, s in zip(found, statuses, strict=True) if s.state is wanted][
            : filters.limit
        ]

    def events(self, since: int = 0, limit: int = 1_000) -> list[dict[str, Value]]:
        """This principal's change log after ``since`` (a seq), oldest first.

        Each event has ``seq``, ``type`` (``belief.created``, ``belief.reinforced``,
        ``belief.promoted``, ``candidate.rejected``...), ``node_id``, ``actor`` and
        ``at``, and ``about``: the statement or title of the node it is about while
        that exists; a rejected candidate also has ``gate``, ``statement`` and, for the
        novelty gate, ``similar_to`` and ``similarity``. :meth:`changes` reads the same
        log as typed kinds of change.
        """
        return events.list_events(self._db, self._principal, check_since(since), check_limit(limit))
