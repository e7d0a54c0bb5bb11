"""Code: a project's derived code graph, and the anchors that tie beliefs to it.

Indexing parses source with tree-sitter and writes only the code graph (never memory);
anchor state is computed at read time against the code graph of the project asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from graphmem.anchors import state, sync
from graphmem.anchors.sync import IndexSummary
from graphmem.capabilities.context import Capability
from graphmem.errors import NotFound
from graphmem.explore.drift import anchor_changes, anchor_states, log_anchor_changes
from graphmem.models import AnchorStatus
from graphmem.store import beliefs as belief_store
from graphmem.validation import check_id, check_project


class Code(Capability):
    """Index a project's source, and check beliefs' anchors against its code graph."""

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
        name = check_project(project)
        before = anchor_states(self._db, self._principal, name)
        summary = sync.index_code(
            self._db,
            self._principal,
            name,
            Path(root),
            workers=workers,
            rebuild=rebuild,
            include_ignored=include_ignored,
            progress=progress or (lambda done, total: None),
        )
        summary.anchor_changes = anchor_changes(
            name, before, anchor_states(self._db, self._principal, name)
        )
        log_anchor_changes(
            self._db, self._principal, name, summary.anchor_changes, "tool", datetime.now(UTC)
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
        ids = [check_id(belief_id, "belief_id") for belief_id in belief_ids]
        beliefs = belief_store.get_beliefs(self._db, self._principal, ids)
        missing = sorted(set(ids) - {belief.id for belief in beliefs})
        if missing:
            raise NotFound(
                f"belief {missing[0]} does not exist for this principal",
                field="belief_id",
                rule="exists",
            )
        asked = check_project(project) if project is not None else None
        return state.anchor_statuses(self._db, self._principal, beliefs, asked)

    def anchor_status(self, belief_id: str, project: str | None = None) -> AnchorStatus:
        """Checks one belief's anchor (see :meth:`anchor_statuses`)."""
        return self.anchor_statuses([belief_id], project)[0]
