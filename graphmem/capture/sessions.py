"""Captured sessions as a user sees them: listed, shown, forgotten (docs/capture.md).

Each session's spool has a state file beside it (``<session>.state.json``, 0600) that
says how far consolidation got and what it made (:class:`~graphmem.models.SessionState`).
Not on the hook's hot path.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from graphmem.capture import spool
from graphmem.capture.event import EventKind, SpoolRecord
from graphmem.models.capture import Formed, SessionState
from graphmem.settings import PRIVATE_FILE_MODE, make_private_dir, private_file


@contextmanager
def session_lock(spool_path: Path) -> Iterator[None]:
    """Holds the session's lock file: one consolidation of a session at a time."""
    make_private_dir(spool_path.parent)
    lock = spool_path.with_name(spool_path.name.removesuffix(".jsonl") + ".lock")
    descriptor = os.open(lock, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE_MODE)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def load_state(spool_path: Path, session_id: str, records: Sequence[SpoolRecord]) -> SessionState:
    """The session's state, with its event counts taken from ``records`` (the spool)."""
    saved: dict[str, Any] = {}
    path = spool.state_file(spool_path)
    if path.is_file():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            saved = {}
    saved.pop("episode", None)
    formed = [Formed(**item) for item in saved.pop("formed", [])]
    saved = {key: value for key, value in saved.items() if key in SessionState.model_fields}
    project = records[0].project if records else str(saved.get("project", ""))
    saved.update(session_id=session_id, project=project, formed=formed)
    state = SessionState(**saved)
    if records:
        state.project = records[0].project
        state.events = len(records)
        state.redactions = sum(r.redactions for r in records)
        state.untrusted = sum(1 for r in records if r.untrusted)
        state.first_at, state.last_at = records[0].at, records[-1].at
        state.last_offset = records[-1].n
        state.ended = records[-1].event.kind is EventKind.SESSION_END
    return state


def save_state(spool_path: Path, state: SessionState) -> None:
    """Writes the state file (0600, replaced atomically)."""
    with private_file(spool.state_file(spool_path)) as out:
        json.dump(state.model_dump(mode="json"), out, ensure_ascii=False, sort_keys=True)


def list_sessions(
    data_dir: Path, principal: str, project: str | None = None
) -> Iterator[SessionState]:
    """Every captured session of ``principal`` (of ``project`` only, when given), newest first."""
    directory = data_dir / spool.SPOOL_DIR / principal
    found: list[SessionState] = []
    for path in sorted(directory.glob("*.jsonl")) if directory.is_dir() else []:
        records = list(spool.read(path))
        if not records:
            continue
        state = load_state(path, records[0].event.session_id, records)
        if project is None or state.project == project:
            found.append(state)
    yield from sorted(found, key=lambda s: (s.last_at or "", s.session_id), reverse=True)


def show_session(data_dir: Path, principal: str, session_id: str) -> SessionState | None:
    """The state of one session, or None when nothing was captured under that id."""
    path = spool.spool_file(data_dir, principal, session_id)
    records = list(spool.read(path))
    if not records:
        return None
    return load_state(path, session_id, records)
