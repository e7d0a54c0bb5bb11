"""Freed memory is given back once enough events were applied, not on every sync."""

from __future__ import annotations

import pytest

from graphmem.vectors import freed


def test_a_release_waits_for_enough_applied_events(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freed, "_since_release", 0)
    assert not freed.applied(freed.RELEASE_AFTER - 1)
    assert freed.applied(1) is (freed._malloc_trim() is not None)
    assert not freed.applied(1)  # the count starts again after a release


def test_this_glibc_machine_can_release() -> None:
    assert freed._malloc_trim() is not None
