"""Feedback settings: hint thresholds and the operator-field window, from the environment."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graphmem.errors import ConfigError
from graphmem.settings import FEEDBACK_ENV, FeedbackSettings, resolve_feedback


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in FEEDBACK_ENV.values():
        monkeypatch.delenv(name, raising=False)


def test_defaults_are_three_misses_in_seven_days_and_thirty_day_lifetimes() -> None:
    settings = resolve_feedback()
    assert settings == FeedbackSettings()
    assert settings.hint_misses == 3
    assert settings.hint_window == timedelta(days=7)
    assert settings.hint_ttl == timedelta(days=30)
    assert settings.operator_window == timedelta(days=30)


def test_the_environment_sets_each_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_HINT_MISSES", "5")
    monkeypatch.setenv("GRAPHMEM_HINT_WINDOW_DAYS", "0.5")
    monkeypatch.setenv("GRAPHMEM_HINT_TTL_DAYS", "14")
    monkeypatch.setenv("GRAPHMEM_TRACE_OPERATOR_DAYS", "90")
    assert resolve_feedback() == FeedbackSettings(
        5, timedelta(hours=12), timedelta(days=14), timedelta(days=90)
    )


@pytest.mark.parametrize(
    ("name", "value", "rule"),
    [
        ("GRAPHMEM_HINT_MISSES", "0", "count"),
        ("GRAPHMEM_HINT_MISSES", "three", "count"),
        ("GRAPHMEM_HINT_MISSES", "-1", "count"),
        ("GRAPHMEM_HINT_MISSES", "1001", "count"),
        ("GRAPHMEM_HINT_WINDOW_DAYS", "0", "days"),
        ("GRAPHMEM_HINT_WINDOW_DAYS", "nan", "days"),
        ("GRAPHMEM_HINT_TTL_DAYS", "inf", "days"),
        ("GRAPHMEM_TRACE_OPERATOR_DAYS", "-3", "days"),
        ("GRAPHMEM_TRACE_OPERATOR_DAYS", "30d", "days"),
        ("GRAPHMEM_HINT_TTL_DAYS", "3", "at_least_window"),
    ],
)
def test_bad_values_are_config_errors_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, rule: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        resolve_feedback()
    assert caught.value.details["rule"] == rule
    assert caught.value.details["field"] in FEEDBACK_ENV.values()
    assert caught.value.details["field"] in caught.value.message
