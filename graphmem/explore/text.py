"""The cross-project views as text a person (or an agent) reads."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Change, ChangeKind, Overview


def iso_time(value: object) -> str:
    """A time for people: ISO 8601 in UTC to the second (``2026-12-01T07:01:33Z``)."""
    if not isinstance(value, datetime):
        return str(value)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {name}" for name, n in counts.items()) or "none"


def overview_lines(view: Overview) -> list[str]:
    """The overview as lines a person reads."""
    lines = [f"principal {view.principal}: {len(view.projects)} projects"]
    for project in view.projects:
        last = iso_time(project.last_activity) if project.last_activity else "never"
        lines += [
            f"\n{project.name}  (last activity {last})",
            f"  episodes        {project.episodes}",
            f"  live beliefs    {project.live_beliefs}: {_counts(project.beliefs_by_type)}",
            f"  by state        {_counts(project.beliefs_by_state)}",
            f"  promoted        {project.promoted}",
            f"  open conflicts  {project.open_conflicts}",
            f"  anchors         {project.drifted} drifted, {project.vanished} vanished",
        ]
    lines.append(f"\nprincipal-scope beliefs ({len(view.principal_beliefs)}):")
    for belief in view.principal_beliefs:
        lines.append(
            f"  {belief.id}  {belief.type.value:<10} {belief.confidence_band:<6} "
            f"{belief.statement}  [{', '.join(belief.origins)}]"
        )
    lines.append(f"\nsubjects across projects ({len(view.recurring_subjects)}):")
    for subject in view.recurring_subjects:
        lines.append(
            f"  {subject.subject}: {subject.beliefs} beliefs in {', '.join(subject.projects)}"
        )
    return lines


def change_line(change: Change) -> str:
    """One change as a line: time, kind, project, actor, id, statement, details."""
    if change.kind is ChangeKind.FORGOTTEN:
        what = f"(forgotten; sha256 {change.statement_sha256 or '-'})"
    else:
        what = change.statement or "-"
    extra = []
    if change.kind is ChangeKind.ANCHOR:
        extra.append(f"{change.anchor_from} -> {change.anchor_to}")
    if change.related_id:
        extra.append(f"with {change.related_id}")
    if change.reason:
        extra.append(f"because {change.reason}")
    if change.correction:
        extra.append(f"correction {change.correction}")
    detail = f"  ({'; '.join(extra)})" if extra else ""
    return (
        f"{iso_time(change.at)}  {change.kind.value:<10} {change.project or '-':<16} "
        f"{change.actor:<8} {change.node_id}  {what}{detail}"
    )
