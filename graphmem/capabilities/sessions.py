"""Sessions: captured coding sessions listed, shown, and consolidated into memory.

Consolidation at the session boundary turns a spool into an episode and beliefs. It
runs outside the hook, in the background (``graphmem sessions consolidate``, started
detached by the SessionEnd hook, or the sweep for sessions whose end never came). It
is idempotent per (session, spool offset): the episode and its segments are written
with idempotency keys made of the session id and the first offset they cover, and
formation changes nothing for an episode it already consolidated, so a run killed
half-way is redone, never doubled. What each run did is kept in the session's state
file beside its spool (:mod:`graphmem.capture.sessions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path

from graphmem.capabilities.context import Capability, Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.views import Views
from graphmem.capture import spool
from graphmem.capture.event import SpoolRecord
from graphmem.capture.plan import CAP_PER_SESSION, plan_session
from graphmem.capture.project import project_of
from graphmem.capture.sessions import (
    list_sessions,
    load_state,
    save_state,
    session_lock,
    show_session,
)
from graphmem.capture.signals import Signal, derive_signals
from graphmem.capture.symbols import EditedSymbol, edited_symbols
from graphmem.errors import NotFound
from graphmem.formation.extract import Candidate
from graphmem.models import MAX_BATCH_ROWS, Belief, Episode, EpisodeKind, Formed, SessionState
from graphmem.store import episodes as episode_store
from graphmem.store import traces as trace_store
from graphmem.validation import check_project


class _Planned:
    """An extractor that gives formation the candidates the plan chose."""

    def __init__(self, candidates: Sequence[Candidate]) -> None:
        self._candidates = list(candidates)

    def extract(self, episode: Episode) -> list[Candidate]:
        """The planned candidates, whatever the episode's parts say."""
        return list(self._candidates)


IDLE_WINDOW = timedelta(minutes=30)
"""How long a session without a SessionEnd must be quiet before the sweep takes it."""


class Sessions(Capability):
    """Captured coding sessions: list, show, consolidate (docs/capture.md).

    Args:
        context: The client's shared context.
        data_dir: The data directory holding the spool.
        memory: Writes the session's episodes.
        formation: Forms the session's beliefs.
        views: Lists what a session formed when a killed run formed it.
    """

    def __init__(
        self,
        context: Context,
        data_dir: Path,
        memory: Memory,
        formation: Formation,
        views: Views,
    ) -> None:
        super().__init__(context)
        self._data_dir = data_dir
        self._memory = memory
        self._formation = formation
        self._views = views

    def sessions(self, *, project: str | None = None) -> list[SessionState]:
        """This principal's captured sessions, newest first (of ``project`` when given)."""
        if project is not None:
            check_project(project)
        found = list(list_sessions(self._data_dir, self._principal, project))
        return self._with_injections(found)

    def session(self, session_id: str) -> SessionState:
        """One captured session: its state, counts, signals, episode and beliefs.

        Raises:
            NotFound: Nothing was captured under that session id for this principal.
        """
        state = show_session(self._data_dir, self._principal, session_id)
        if state is None:
            raise _no_session(session_id)
        return self._with_injections([state])[0]

    def _with_injections(self, states: list[SessionState]) -> list[SessionState]:
        """The states with what hooks injected into each (from the recall traces)."""
        self._engine.flush()
        totals = trace_store.injected(self._db, self._principal, [s.session_id for s in states])
        for state in states:
            state.injections, state.injected_tokens = totals.get(state.session_id, (0, 0))
        return states

    def consolidate_session(self, session_id: str) -> SessionState:
        """Turns the session's spool, from where the last run stopped, into memory.

        The session becomes one episode (kind session) with its observations,
        decisions, failed attempts, unresolved errors and edited paths, and one task
        segment (PART_OF it) per prompt; its signals pass the capture gates
        (:mod:`graphmem.capture.plan`) and formation's. Running it again changes
        nothing; a run killed half-way is redone, never doubled.

        Raises:
            NotFound: Nothing was captured under that session id for this principal.
        """
        path = spool.spool_file(self._data_dir, self._principal, session_id)
        if not path.is_file():
            raise _no_session(session_id)
        with session_lock(path):
            return self._consolidate_locked(path, session_id)

    def _consolidate_locked(self, path: Path, session_id: str) -> SessionState:
        records = list(spool.read(path))
        if not records:
            raise _no_session(session_id)
        state = load_state(path, session_id, records)
        fresh = [r for r in records if state.consolidated_to is None or r.n > state.consolidated_to]
        if not fresh:
            return state
        state.state = "consolidating"
        save_state(path, state)
        try:
            self._consolidate(state, records, fresh[0], session_id)
        except BaseException:
            state.state = "failed"
            save_state(path, state)
            raise
        state.state = "consolidated"
        state.consolidated_to = fresh[-1].n
        save_state(path, state)
        return state

    def _formed_from(self, episode_id: str, project: str, created: list[str]) -> list[Belief]:
        """The beliefs the episode formed.

        ``created``; or, when a killed run formed them already (formation then creates
        nothing), the project's beliefs whose first evidence is this episode.
        """
        if created:
            return [self._memory.get_belief(belief_id) for belief_id in sorted(created)]
        learned = self._views.list_beliefs(project=project, limit=MAX_BATCH_ROWS)
        return [b for b in learned if b.evidence and b.evidence[0].episode_id == episode_id]

    def forget_session(self, session_id: str) -> SessionState:
        """Forgets a captured session: its spool, its episodes, what it formed.

        The beliefs it formed are forgotten as :meth:`GraphMem.forget` does (a tombstone
        keeps formation from forming them again); its session episode and segments are
        deleted with their text; its spool, state and lock files go. Forgetting again
        after a failure finishes the job.

        Returns:
            The session as it was before it was forgotten.

        Raises:
            NotFound: Nothing was captured under that session id for this principal.
        """
        path = spool.spool_file(self._data_dir, self._principal, session_id)
        if not path.is_file():
            raise _no_session(session_id)
        with session_lock(path):
            state = load_state(path, session_id, list(spool.read(path)))
            for formed in state.formed:
                with suppress(NotFound):  # forgotten already, or by a run that failed
                    self._memory.forget(formed.id)
            episode_store.forget_episodes(
                self._db, self._principal, [*state.segments, *state.episodes], "user"
            )
            for leftover in (spool.state_file(path), path):
                leftover.unlink(missing_ok=True)
        path.with_name(path.name.removesuffix(".jsonl") + ".lock").unlink(missing_ok=True)
        return state

    def consolidate_sessions(
        self, *, idle: timedelta = IDLE_WINDOW, now: datetime | None = None
    ) -> list[SessionState]:
        """The sweep: consolidates every ended or idle session with new events.

        A session is taken when it has events not yet consolidated and its end came
        (SessionEnd) or its last event is older than ``idle``. Then expiry runs
        (:meth:`GraphMem.expire`) at the same ``now``: formed beliefs no episode
        confirmed lately are demoted, and long-stale ones retired.

        Args:
            idle: How long a session without a SessionEnd must be quiet first.
            now: The time to measure idleness and expiry against (default: the clock).
        """
        moment = now or datetime.now(UTC)
        done: list[SessionState] = []
        for state in list_sessions(self._data_dir, self._principal):
            if state.state == "consolidated" and not _has_new_events(state):
                continue
            ended = state.ended
            quiet = (
                state.last_at is not None and datetime.fromisoformat(state.last_at) <= moment - idle
            )
            if ended or quiet:
                done.append(self.consolidate_session(state.session_id))
        self._formation.expire(moment)
        return done

    def _consolidate(
        self,
        state: SessionState,
        records: Sequence[SpoolRecord],
        first: SpoolRecord,
        session_id: str,
    ) -> None:
        """Writes the session's episode (after a checkpoint, its continuation) and beliefs.

        Signals are read over the whole spool; what was consolidated before ``first``
        forms nothing again. The first run writes the session episode; each later one a
        continuation episode (kind task) ``PART_OF`` it, so the session stays one episode.
        """
        root = _root(records[0].event.cwd)
        signals = derive_signals(records)
        symbols = edited_symbols(records, Path(root))
        plan = plan_session(records, signals, root, symbols, since=state.consolidated_to)
        session_episode = state.episodes[0] if state.episodes else None
        key = f"capture:{session_id}:{first.n}"[:200]
        episode_id = self._memory.remember(
            {
                "project": first.project,
                "kind": EpisodeKind.SESSION if session_episode is None else EpisodeKind.TASK,
                "parent": session_episode,
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
        segment_ids = self._memory.remember_many(segments) if segments else []
        result = self._formation.consolidate(
            episode_id,
            extractor=_Planned(plan.candidates),
            policy={
                "caps": {EpisodeKind.SESSION: CAP_PER_SESSION, EpisodeKind.TASK: CAP_PER_SESSION}
            },
        )
        state.episodes.append(episode_id)
        state.segments.extend(segment_ids)
        state.signals = [
            {"kind": s.kind.value, "evidence": list(s.evidence), **_signal_fields(s, symbols)}
            for s in signals
        ]
        for belief in self._formed_from(episode_id, first.project, result.created):
            state.formed.append(
                Formed(id=belief.id, type=belief.type.value, statement=belief.statement)
            )
        state.rejected.extend({"gate": r.gate, "statement": r.statement} for r in plan.rejected)
        state.rejected.extend({"gate": r.gate, "statement": r.statement} for r in result.rejected)
        state.reinforced.extend(result.reinforced)
        if _KIND_RANK[plan.kind] >= _KIND_RANK.get(state.session_kind or "", -1):
            state.session_kind = plan.kind


_KIND_RANK = {"read_only": 0, "docs_only": 1, "working": 2}
"""A session is as much at work as its busiest part (a checkpoint splits it in parts)."""


def _has_new_events(state: SessionState) -> bool:
    return state.last_offset is not None and state.last_offset != state.consolidated_to


def _no_session(session_id: str) -> NotFound:
    return NotFound(
        f"session: nothing was captured under {session_id[:200]!r} for this principal",
        field="session",
        rule="exists",
    )


def _signal_fields(
    signal: Signal, symbols: Mapping[int, Sequence[EditedSymbol]]
) -> dict[str, object]:
    """A signal's fields that are set, and the keys of the symbols its edits changed."""
    fields: dict[str, object] = {}
    for name in ("command", "signature", "exit_code", "text"):
        value = getattr(signal, name)
        if value is not None:
            fields[name] = value
    if signal.paths:
        fields["paths"] = list(signal.paths)
    changed = [s.key for n in signal.evidence for s in symbols.get(n, ())]
    if changed:
        fields["symbols"] = list(dict.fromkeys(changed))
    if signal.untrusted:
        fields["untrusted"] = True
    return fields


def _root(cwd: str) -> str:
    try:
        return str(project_of(cwd).root)
    except (ValueError, OSError):
        return cwd
