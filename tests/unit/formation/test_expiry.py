"""Expiry's windows as pure functions, and its settings from the environment."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.errors import ConfigError, InvalidInput
from graphmem.formation.expiry import Verdict, cutoffs, observed_at, verdict
from graphmem.models import Episode
from graphmem.settings import EXPIRY_ENV, ExpirySettings, resolve_expiry
from tests.unit.formation.test_gates import _episode as gate_episode

T0 = datetime(2026, 1, 1, tzinfo=UTC)
WINDOWS = ExpirySettings()


def _at(days: float) -> datetime:
    return T0 + timedelta(days=days)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in EXPIRY_ENV.values():
        monkeypatch.delenv(name, raising=False)


def test_the_windows_default_to_ninety_days_each() -> None:
    assert resolve_expiry() == ExpirySettings()
    assert WINDOWS.stale == timedelta(days=90)
    assert WINDOWS.retire == timedelta(days=90)


def test_the_environment_sets_each_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_EXPIRY_STALE_DAYS", "30")
    monkeypatch.setenv("GRAPHMEM_EXPIRY_RETIRE_DAYS", "0.5")
    assert resolve_expiry() == ExpirySettings(timedelta(days=30), timedelta(hours=12))


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "40000"])
def test_a_window_that_is_not_a_number_of_days_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("GRAPHMEM_EXPIRY_STALE_DAYS", value)
    with pytest.raises(ConfigError) as raised:
        resolve_expiry()
    assert raised.value.details["field"] == "GRAPHMEM_EXPIRY_STALE_DAYS"


def test_a_belief_confirmed_within_the_stale_window_is_left_alone() -> None:
    assert verdict(T0, None, cutoffs(_at(89), WINDOWS)) is None
    assert verdict(T0, None, cutoffs(_at(89.99), WINDOWS)) is None


def test_a_belief_not_confirmed_for_the_stale_window_is_demoted() -> None:
    assert verdict(T0, None, cutoffs(_at(90), WINDOWS)) is Verdict.DEMOTE
    assert verdict(T0, None, cutoffs(_at(91), WINDOWS)) is Verdict.DEMOTE


def test_a_stale_belief_is_retired_only_a_whole_retire_window_after_its_demotion() -> None:
    stale_since = _at(91)
    assert verdict(T0, stale_since, cutoffs(_at(91), WINDOWS)) is None  # the same run
    assert verdict(T0, stale_since, cutoffs(_at(180), WINDOWS)) is None
    assert verdict(T0, stale_since, cutoffs(_at(181), WINDOWS)) is Verdict.RETIRE
    assert verdict(T0, stale_since, cutoffs(_at(400), WINDOWS)) is Verdict.RETIRE


def test_the_windows_come_from_the_settings() -> None:
    short = ExpirySettings(timedelta(days=1), timedelta(days=2))
    assert verdict(T0, None, cutoffs(_at(1), short)) is Verdict.DEMOTE
    assert verdict(T0, _at(1), cutoffs(_at(2.5), short)) is None
    assert verdict(T0, _at(1), cutoffs(_at(3), short)) is Verdict.RETIRE


def test_the_cutoffs_are_measured_back_from_now() -> None:
    due = cutoffs(_at(200), WINDOWS)
    assert due.stale_before == _at(110)
    assert due.retire_before == _at(110)


def test_a_now_without_a_zone_is_refused() -> None:
    with pytest.raises(InvalidInput) as raised:
        cutoffs(datetime(2026, 1, 1), WINDOWS)
    assert raised.value.details["field"] == "now"


def _episode(**times: datetime) -> Episode:
    return gate_episode([]).model_copy(update={"recorded_at": _at(10), **times})


def test_an_episode_is_observed_at_its_end_else_its_start_else_when_recorded() -> None:
    assert observed_at(_episode(started_at=_at(1), ended_at=_at(2))) == _at(2)
    assert observed_at(_episode(started_at=_at(1))) == _at(1)
    assert observed_at(_episode()) == _at(10)
