"""parse_span: how far back a sweep reaches (a timedelta or 30m, 12h, 30d, 2w)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graphmem import InvalidInput
from graphmem.explore.since import parse_span


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30d", timedelta(days=30)),
        (" 12h ", timedelta(hours=12)),
        ("2w", timedelta(weeks=2)),
        ("90m", timedelta(minutes=90)),
        ("0d", timedelta(0)),
        (timedelta(days=3), timedelta(days=3)),
        (timedelta(0), timedelta(0)),
    ],
)
def test_spans(value: str | timedelta, expected: timedelta) -> None:
    assert parse_span(value, "older_than") == expected


@pytest.mark.parametrize(
    "value", ["30", "30 days", "-1d", "1y", "", "2026-01-01", timedelta(days=-1), 30, None]
)
def test_anything_else_names_the_field(value: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_span(value, "older_than")  # type: ignore[arg-type]
    assert caught.value.field == "older_than" and caught.value.rule == "span"
    assert "30d" in caught.value.message
