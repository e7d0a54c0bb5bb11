"""The cross-project views, citations and formation hints as text people (or agents) read."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import (
    Change,
    ChangeKind,
    CitationResult,
    FormationHint,
    HintOutcome,
    HintState,
    Overview,
    ProjectOverview,
    SessionState,
)


def iso_time(value: object) -> str:
    """A time for people: ISO 8601 in UTC to the second (``2026-12-01T07:01:33Z``)."""
    if not isinstance(value, datetime):
        return str(value)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {name}" for name, n in counts.items()) or "none"


def _per_session(project: ProjectOverview) -> str:
    if not project.injected_sessions:
        return ""
    return f" ({project.injected_tokens // project.injected_sessions} per session)"


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
            f"  injected        {project.injected_tokens} tokens into "
            f"{project.injected_sessions} sessions{_per_session(project)}",
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


def citation_line(result: CitationResult) -> str:
    """What a citation recorded, in one line."""
    if not result.added:
        return f"trace {result.trace_id}: already cited {', '.join(result.cited)}; nothing changed"
    refreshed = len(result.refreshed)
    return (
        f"trace {result.trace_id}: cited {', '.join(result.added)}; decay restarted for "
        f"{refreshed} belief{'' if refreshed == 1 else 's'} (confidence unchanged)"
    )


def hint_line(hint: FormationHint) -> str:
    """One formation hint: misses, state, subject, times and id."""
    misses = f"{hint.misses} miss{'' if hint.misses == 1 else 'es'}"
    if hint.state is HintState.CONSUMED:
        when = (
            f"consumed {iso_time(hint.consumed_at)} by {hint.consumed_by}: "
            f"{len(hint.episodes)} episodes looked at, {len(hint.formed)} beliefs formed"
        )
    else:
        when = f"last {iso_time(hint.last_at)}, expires {iso_time(hint.expires_at)}"
    return f"{misses:<10} {hint.state.value:<8} {hint.subject!r}  ({when})  {hint.id}"


def hint_outcome_line(outcome: HintOutcome) -> str:
    """What consuming one hint did, in one line."""
    looked = len(outcome.episodes)
    return (
        f"hint {outcome.subject!r} consumed: {looked} episode{'' if looked == 1 else 's'} "
        f"on it consolidated, {len(outcome.formed)} beliefs formed or reinforced"
    )


def session_line(state: SessionState) -> str:
    """One captured session on one line: id, project, state, counts, last event."""
    formed = len(state.formed)
    return (
        f"{state.session_id}  {state.project}  {state.state}  {state.events} events  "
        f"{formed} formed  {state.injected_tokens} tokens injected  last {state.last_at or '-'}"
    )


def session_lines(state: SessionState) -> list[str]:
    """A captured session in full: counts, signals with evidence, beliefs, rejections."""
    lines = [
        f"session {state.session_id}",
        f"  project:     {state.project}   state: {state.state}"
        f"   kind: {state.session_kind or '-'}",
        f"  events:      {state.events}   redactions: {state.redactions}"
        f"   untrusted: {state.untrusted}",
        f"  captured:    {state.first_at or '-'} .. {state.last_at or '-'}",
        f"  episode:     {state.episodes[-1] if state.episodes else '-'}"
        f"   segments: {len(state.segments)}",
        f"  injected:    {state.injections} times, {state.injected_tokens} tokens",
    ]
    for signal in state.signals:
        detail = signal.get("command") or signal.get("text") or signal.get("signature") or ""
        lines.append(f"  signal:      {signal['kind']}  {str(detail)[:100]}  @{signal['evidence']}")
    for formed in state.formed:
        lines.append(f"  formed:      {formed.id} {formed.type}: {formed.statement}")
    for rejected in state.rejected:
        lines.append(f"  rejected:    ({rejected['gate']}) {rejected['statement']}")
    return lines
