"""What changed: the change log read as kinds of change, with statements and projects."""

from __future__ import annotations

from collections.abc import Iterable

from graphmem.explore.since import Since
from graphmem.models import AnchorState, Change, ChangeKind
from graphmem.store.database import Database
from graphmem.store.events import LoggedChange, logged_changes

EVENT_KINDS: dict[str, ChangeKind] = {
    "episode.created": ChangeKind.REMEMBERED,
    "belief.created": ChangeKind.LEARNED,
    "belief.reinforced": ChangeKind.REINFORCED,
    "belief.activated": ChangeKind.ACTIVATED,
    "belief.superseded": ChangeKind.SUPERSEDED,
    "belief.retired": ChangeKind.RETIRED,
    "belief.corrected": ChangeKind.CORRECTED,
    "belief.deleted": ChangeKind.FORGOTTEN,
    "belief.promoted": ChangeKind.PROMOTED,
    "belief.conflicted": ChangeKind.CONFLICTED,
    "anchor.changed": ChangeKind.ANCHOR,
}
"""The event type behind each kind (rejected candidates and formation runs are not
changes of memory; ``graphmem events`` lists them)."""


def _state(value: str | None) -> AnchorState | None:
    return AnchorState(value) if value is not None else None


def _change(logged: LoggedChange) -> Change:
    kind = EVENT_KINDS[logged.type]
    return Change(
        seq=logged.seq,
        kind=kind,
        at=logged.at,
        actor=logged.actor,
        node_id=logged.node_id,
        project=logged.project,
        statement=None if kind is ChangeKind.FORGOTTEN else logged.statement,
        statement_sha256=logged.statement_sha256 if kind is ChangeKind.FORGOTTEN else None,
        related_id=logged.related_id,
        reason=logged.reason,
        correction=logged.correction,
        anchor_from=_state(logged.anchor_from),
        anchor_to=_state(logged.anchor_to),
    )


def list_changes(
    db: Database,
    principal: str,
    since: Since,
    *,
    project: str | None,
    kinds: Iterable[ChangeKind],
    limit: int,
) -> list[Change]:
    """The principal's changes of ``kinds`` since ``since``, oldest first."""
    wanted = set(kinds)
    types = sorted(event for event, kind in EVENT_KINDS.items() if kind in wanted)
    logged = logged_changes(
        db,
        principal,
        types,
        since_seq=since.seq,
        since_at=since.at,
        project=project,
        limit=limit,
    )
    return [_change(entry) for entry in logged]
