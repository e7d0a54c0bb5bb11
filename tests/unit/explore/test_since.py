"""parse_since: a seq, a span back from now, or an ISO 8601 date or time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from graphmem import InvalidInput
from graphmem.explore.since import Since, parse_since

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, Since(seq=0)),
        ("42", Since(seq=42)),
        ("30m", Since(at=NOW - timedelta(minutes=30))),
        ("12h", Since(at=NOW - timedelta(hours=12))),
        ("7d", Since(at=NOW - timedelta(days=7))),
        ("2w", Since(at=NOW - timedelta(weeks=2))),
        (timedelta(days=1), Since(at=NOW - timedelta(days=1))),
        ("2026-11-01", Since(at=datetime(2026, 11, 1, tzinfo=UTC))),
        ("2026-11-01T09:30:00+01:00", Since(at=datetime(2026, 11, 1, 8, 30, tzinfo=UTC))),
        ("2026-11-01T09:30:00Z", Since(at=datetime(2026, 11, 1, 9, 30, tzinfo=UTC))),
        (date(2026, 11, 2), Since(at=datetime(2026, 11, 2, tzinfo=UTC))),
        (datetime(2026, 11, 2, 8), Since(at=datetime(2026, 11, 2, 8, tzinfo=UTC))),
    ],
)
def test_understood(value: object, expected: Since) -> None:
    assert parse_since(value, NOW) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["", "yesterday", "7x", "-3", "7 d", -1, True, 1.5])
def test_refused_with_the_field_named(value: object) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_since(value, NOW)  # type: ignore[arg-type]
    assert refused.value.details["field"] == "since"
