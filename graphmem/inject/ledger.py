"""What a session was already given: its injected ids, and context held for later.

One small file beside the session's spool (``<session>.injected.json``, 0600): per
kind of injection (``session_start``, ``prompt``, ``pre_tool``), the belief ids it
injected so far, never injected again by that kind in the session; and the context a
host could not take on its event (its next event that takes context carries it). A
SessionStart (a new session, a clear, a compaction) starts afresh.

The kinds are kept apart on purpose: the brief is read once, at the start, and a
compaction can drop it; a prompt that names the same error later, or the command
about to fail the same way, is when that memory matters, so each gives it once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.settings import make_private_dir, private_file


@dataclass
class Given:
    """A session's injection ledger."""

    ids: dict[str, list[str]] = field(default_factory=dict)
    """Per kind of injection, the ids it injected."""
    pending: str = ""
    """Context no event took yet."""


def ledger_file(spool_file: Path) -> Path:
    """The ledger beside a session's spool."""
    return spool_file.with_name(spool_file.name.removesuffix(".jsonl") + ".injected.json")


def read(spool_file: Path) -> Given:
    """The session's ledger (an empty one when none was written or it is unreadable)."""
    try:
        saved = json.loads(ledger_file(spool_file).read_text(encoding="utf-8"))
        ids = {
            str(kind): [str(i) for i in given] for kind, given in dict(saved.get("ids", {})).items()
        }
        return Given(ids, str(saved.get("pending", "")))
    except (OSError, ValueError, TypeError, AttributeError):
        return Given()


def write(spool_file: Path, given: Given) -> None:
    """Replaces the session's ledger (0600, atomically); the caller holds the session."""
    make_private_dir(spool_file.parent)
    with private_file(ledger_file(spool_file)) as out:
        json.dump({"ids": given.ids, "pending": given.pending}, out, sort_keys=True)
