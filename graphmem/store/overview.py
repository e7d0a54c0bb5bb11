"""What the cross-project views read: per-project counts, anchored beliefs, subjects."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.store.database import Database, native
from graphmem.trust.sensitivity import REDACTED


@dataclass(frozen=True)
class ProjectCounts:
    """One project's memory counted in the graph (anchor states are checked apart)."""

    name: str
    episodes: int
    groups: list[tuple[str, str, int]]
    """(type, state, live beliefs) for each type and state present."""
    promoted: int
    open_conflicts: int
    last_activity: datetime | None
    injected_sessions: int = 0
    """Agent-host sessions hooks injected context into, in this project."""
    injected_tokens: int = 0
    """The tokens they injected in all."""


@dataclass(frozen=True)
class AnchoredBelief:
    """A live belief with an anchor: what is checked against a project's code graph."""

    id: str
    project: str
    anchor_key: str | None
    anchor_hash: str | None
    origins: tuple[str, ...]
    statement: str


@dataclass(frozen=True)
class SubjectSpread:
    """A subject shared by live beliefs of several projects."""

    subject: str
    projects: list[str]
    beliefs: int


def project_counts(db: Database, principal: str, limit: int) -> list[ProjectCounts]:
    """The principal's projects by name, each with its memory counted."""
    records = db.read("overview/projects", principal=principal, limit=limit)
    counted: list[ProjectCounts] = []
    for record in records:
        last = native(record["last_activity"])
        counted.append(
            ProjectCounts(
                name=str(record["name"]),
                episodes=int(record["episodes"]),
                groups=[
                    (str(group["type"]), str(group["state"]), int(group["beliefs"]))
                    for group in record["groups"]
                ],
                promoted=int(record["promoted"] or 0),
                open_conflicts=int(record["open_conflicts"]),
                last_activity=last if isinstance(last, datetime) else None,
                injected_sessions=int(record["injected_sessions"] or 0),
                injected_tokens=int(record["injected_tokens"] or 0),
            )
        )
    return counted


def anchored_beliefs(
    db: Database, principal: str, project: str | None, limit: int
) -> list[AnchoredBelief]:
    """The principal's live anchored beliefs, learned in ``project`` when given."""
    records = db.read(
        "overview/anchored", principal=principal, project=project, limit=limit, redacted=REDACTED
    )
    return [
        AnchoredBelief(
            id=str(record["id"]),
            project=str(record["project"]),
            anchor_key=record["anchor_key"],
            anchor_hash=record["anchor_hash"],
            origins=tuple(record["origins"]),
            statement=str(record["statement"]),
        )
        for record in records
    ]


def recurring_subjects(db: Database, principal: str, limit: int) -> list[SubjectSpread]:
    """Subjects live beliefs share across two or more projects, most widespread first."""
    records = db.read("overview/recurring_subjects", principal=principal, limit=limit)
    return [
        SubjectSpread(
            subject=str(record["subject"]),
            projects=sorted(str(name) for name in record["projects"]),
            beliefs=int(record["beliefs"]),
        )
        for record in records
    ]
