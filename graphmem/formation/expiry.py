"""Expiry of formed beliefs (docs/formation.md#expiry): the two windows, as pure functions.

A belief formation made (it carries a policy version) that is not of ``user``
authority is confirmed when it is formed and again whenever a later episode reinforces
it (``last_confirmed_at``: when that episode was observed). Not confirmed for the stale
window, it is demoted: marked stale (``stale_since``: the time of the expiry run that
demoted it), which recall weighs down. Stale for the retire window more, it is retired.
Beliefs stated explicitly (``believe``) and ``user`` authority never expire.

Nothing here reads a clock: ``now`` is always given, so the same store and the same
``now`` give the same verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from graphmem.errors import InvalidInput
from graphmem.models import Episode
from graphmem.settings import ExpirySettings


class Verdict(StrEnum):
    """What an expiry run does to a formed belief that is due."""

    DEMOTE = "demote"
    """Not confirmed for the stale window: mark it stale."""
    RETIRE = "retire"
    """Stale for the retire window: retire it."""


@dataclass(frozen=True)
class Cutoffs:
    """The two windows measured back from one ``now``."""

    stale_before: datetime
    """A live belief last confirmed at or before this is due for demotion."""
    retire_before: datetime
    """A stale belief stale since at or before this is due for retirement."""


def cutoffs(now: datetime, windows: ExpirySettings) -> Cutoffs:
    """The cutoffs of an expiry run at ``now``.

    Raises:
        InvalidInput: ``now`` has no time zone (it could not be compared with stored times).
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise InvalidInput(
            "now: give a time with a zone (e.g. 2026-01-31T00:00:00+00:00)",
            field="now",
            rule="aware",
        )
    return Cutoffs(stale_before=now - windows.stale, retire_before=now - windows.retire)


def verdict(last_confirmed: datetime, stale_since: datetime | None, due: Cutoffs) -> Verdict | None:
    """What an expiry run with ``due`` does to a live formed belief (None: nothing).

    A belief is demoted once its last confirmation is a whole stale window old, and
    retired once it has been stale a whole retire window: a belief is never demoted
    and retired by the same run, so it reads as stale for at least the retire window.

    Args:
        last_confirmed: When it was formed or last reinforced (its episode's time).
        stale_since: When an expiry run demoted it (None: not stale).
        due: The run's cutoffs.
    """
    if stale_since is not None:
        return Verdict.RETIRE if stale_since <= due.retire_before else None
    return Verdict.DEMOTE if last_confirmed <= due.stale_before else None


def observed_at(episode: Episode) -> datetime:
    """When an episode was observed: its end, else its start, else when it was recorded.

    Formation confirms the beliefs it forms or reinforces from the episode at this
    time, whenever it runs: consolidating (or re-deriving) the same episodes gives the
    same confirmations. An episode dated in the future keeps what it confirms fresh
    until a stale window after that date.
    """
    return episode.ended_at or episode.started_at or episode.recorded_at
