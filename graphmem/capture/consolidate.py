"""Consolidation at the session boundary: a spool becomes an episode and beliefs.

Runs outside the hook, in the background (``graphmem sessions consolidate``, started
detached by the SessionEnd hook, or the sweep for sessions whose end never came). It
is idempotent per (session, spool offset): the episode and its segments are written
with idempotency keys made of the session id and the first offset they cover, and
formation changes nothing for an episode it already consolidated, so a run killed
half-way is redone, never doubled. What each run did is kept in the session's state
file beside its spool (:mod:`graphmem.capture.sessions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.capture import spool
from graphmem.capture.event import SpoolRecord
from graphmem.capture.plan import CAP_PER_SESSION, plan_session
from graphmem.capture.project import project_of
from graphmem.capture.sessions import Formed, SessionState, load_state, save_state
from graphmem.capture.signals import derive_signals
from graphmem.errors import NotFound
from graphmem.formation.extract import Candidate
from graphmem.models import Episode, EpisodeKind

if TYPE_CHECKING:
    from graphmem.client import GraphMem


class _Planned:
    """An extractor that gives formation the candidates the plan chose."""

    def __init__(self, candidates: Sequence[Candidate]) -> None:
        self._candidates = list(candidates)

    def extract(self, episode: Episode) -> list[Candidate]:
        """The planned candidates, whatever the episode's parts say."""
        return list(self._candidates)


def consolidate_session(memory: GraphMem, data_dir: Path, session_id: str) -> SessionState:
    """Turns the session's spool, from where the last run stopped, into memory.

    Args:
        memory: The principal's client.
        data_dir: The data directory holding the spool.
        session_id: The host's session id.

    Returns:
        The session's state after the run.

    Raises:
        NotFound: No spool for this session and principal.
    """
    path = spool.spool_file(data_dir, memory.principal, session_id)
    records = list(spool.read(path))
    if not records:
        raise NotFound(
            f"session: no captured session {session_id!r} for this principal",
            field="session",
            rule="exists",
        )
    state = load_state(path, session_id, records)
    fresh = [r for r in records if state.consolidated_to is None or r.n > state.consolidated_to]
    if not fresh:
        return state
    state.state = "consolidating"
    save_state(path, state)
    try:
        _consolidate(memory, state, fresh, session_id)
    except BaseException:
        state.state = "failed"
        save_state(path, state)
        raise
    state.state = "consolidated"
    state.consolidated_to = fresh[-1].n
    save_state(path, state)
    return state


def _consolidate(
    memory: GraphMem, state: SessionState, records: Sequence[SpoolRecord], session_id: str
) -> None:
    first = records[0]
    root = _root(first.event.cwd)
    signals = derive_signals(records)
    plan = plan_session(records, signals, root)
    key = f"capture:{session_id}:{first.n}"[:200]
    episode_id = memory.remember(
        {
            "project": first.project,
            "kind": EpisodeKind.SESSION,
            "title": plan.title,
            "text": plan.text,
            "outcome": plan.outcome,
            "observations": plan.observations[:200],
            "decisions": plan.decisions[:200],
            "failed_attempts": plan.failed_attempts[:200],
            "unresolved": plan.unresolved[:200],
            "paths": plan.paths,
            "started_at": first.at,
            "ended_at": records[-1].at,
            "idempotency_key": key,
        }
    )
    segments = [
        {
            "project": first.project,
            "kind": EpisodeKind.TASK,
            "title": title[:500],
            "text": text,
            "paths": paths,
            "parent": episode_id,
            "idempotency_key": f"{key}:segment:{index}"[:200],
        }
        for index, (title, text, paths) in enumerate(plan.segments)
    ]
    segment_ids = memory.remember_many(segments) if segments else []
    result = memory.consolidate(
        episode_id,
        extractor=_Planned(plan.candidates),
        policy={"caps": {EpisodeKind.SESSION: CAP_PER_SESSION}},
    )
    state.episodes.append(episode_id)
    state.segments.extend(segment_ids)
    state.signals.extend(
        {"kind": s.kind.value, "evidence": list(s.evidence), **_signal_fields(s)} for s in signals
    )
    formed = {belief_id for belief_id in result.created}
    for belief_id in sorted(formed):
        belief = memory.get_belief(belief_id)
        state.formed.append(Formed(belief.id, belief.type.value, belief.statement))
    state.rejected.extend({"gate": r.gate, "statement": r.statement} for r in plan.rejected)
    state.rejected.extend({"gate": r.gate, "statement": r.statement} for r in result.rejected)
    state.reinforced.extend(result.reinforced)
    state.session_kind = plan.kind


def _signal_fields(signal: object) -> dict[str, object]:
    fields = {}
    for name in ("command", "signature", "exit_code", "text"):
        value = getattr(signal, name, None)
        if value is not None:
            fields[name] = value
    paths = getattr(signal, "paths", ())
    if paths:
        fields["paths"] = list(paths)
    if getattr(signal, "untrusted", False):
        fields["untrusted"] = True
    return fields


def _root(cwd: str) -> str:
    try:
        return str(project_of(cwd).root)
    except (ValueError, OSError):
        return cwd
