"""The one handler behind both transports: a host's payload in, a spool line out.

``graphmem hook <host>`` (one process per event) and ``graphmem serve``'s
``POST /hooks/<host>`` both call :func:`capture`, so an event captured either way
gives the same spool line; a SessionEnd starts consolidation in the background either
way, and so do the checkpoints: a PreCompact, and a Stop after
:data:`CHECKPOINT_BYTES` of new events. Standard library and graphmem's pure modules only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graphmem.capture import spool
from graphmem.capture.event import EventKind, HookEvent
from graphmem.capture.hosts import HostAdapter
from graphmem.capture.project import project_of


@dataclass(frozen=True)
class Captured:
    """What capturing one event did.

    Attributes:
        event: The event as read (before redaction).
        project: Its project's name.
        spool_file: The session's spool.
        written: What the append did; None when the project opted out of capture.
        boundary: Whether the event ends or checkpoints its session (consolidation is due).
    """

    event: HookEvent
    project: str
    spool_file: Path
    written: spool.Written | None
    boundary: bool = False


def capture(
    data_dir: Path,
    principal: str,
    adapter: HostAdapter,
    payload: Mapping[str, object],
    *,
    background: bool = True,
) -> Captured:
    """Reads one hook payload and appends it to its session's spool.

    Args:
        data_dir: The data directory holding the spool.
        principal: Whose spool.
        adapter: The host's adapter.
        payload: The host's payload.
        background: Start consolidation in the background at a boundary (False: the
            caller consolidates, as ``bench formation --replay`` does, in order).

    Raises:
        PayloadError: The adapter cannot read the payload.
        ValueError: The event's project has no valid name.
        OSError: The spool cannot be written.
    """
    event = adapter.read_event(payload)
    project = project_of(event.cwd)
    path = spool.spool_file(data_dir, principal, event.session_id)
    if not project.capture:
        return Captured(event, project.name, path, None)
    written = spool.append(path, event, project.name, project.root)
    boundary = written.offset is not None and _boundary(event.kind, path, written.offset)
    if boundary and background:
        consolidate_in_background(data_dir, principal, event.session_id)
    return Captured(event, project.name, path, written, boundary)


CHECKPOINT_BYTES = 256 * 1024
"""A Stop checkpoints the session once its spool grew this much since it was last
consolidated (a Stop comes at the end of every agent turn: most are not worth a run)."""


def _boundary(kind: EventKind, path: Path, offset: int) -> bool:
    """Whether this event ends (SessionEnd) or checkpoints (PreCompact, a Stop) a session."""
    if kind in (EventKind.SESSION_END, EventKind.PRE_COMPACT):
        return True
    return kind is EventKind.STOP and offset - spool.consolidated_to(path) >= CHECKPOINT_BYTES


def consolidate_in_background(data_dir: Path, principal: str, session_id: str) -> None:
    """Starts ``graphmem sessions consolidate ID`` detached, to outlive hook and host.

    A SessionEnd hook has about 1.5 s, and consolidation takes longer; it never runs
    in the hook's time. The child reaches Neo4j as the CLI does (this environment).
    """
    import subprocess  # only at a session's end

    environment = {
        **os.environ,
        "GRAPHMEM_PRINCIPAL": principal,
        "GRAPHMEM_DATA_DIR": str(data_dir),
    }
    subprocess.Popen(
        [sys.executable, "-m", "graphmem", "sessions", "consolidate", session_id],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        start_new_session=True,
        close_fds=True,
    )
