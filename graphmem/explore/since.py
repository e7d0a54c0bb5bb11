"""Where a change listing starts: a seq, a date or time, or a span back from now."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from graphmem.errors import InvalidInput
from graphmem.models import MAX_SEQ

_SPAN = re.compile(r"^(\d{1,6})([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_HOW = (
    "give a span back from now (30m, 12h, 7d, 2w), an ISO 8601 date or time "
    "(2026-11-01, 2026-11-01T09:00:00Z) or a seq (an integer)"
)


@dataclass(frozen=True)
class Since:
    """Exactly one of: changes after a seq, or changes at or after a time."""

    seq: int | None = None
    at: datetime | None = None


def parse_since(value: int | str | datetime | date | timedelta, now: datetime) -> Since:
    """Reads ``value`` as a seq, a span back from ``now``, or a date or time.

    A date or time without a zone is UTC.

    Raises:
        InvalidInput: ``value`` is none of these (field ``since``).
    """
    if isinstance(value, bool):
        raise InvalidInput(f"since: {_HOW}", field="since", rule="since")
    if isinstance(value, int):
        return Since(seq=_seq(value))
    if isinstance(value, timedelta):
        return Since(at=now - value)
    if isinstance(value, datetime):
        return Since(at=value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return Since(at=datetime(value.year, value.month, value.day, tzinfo=UTC))
    if not isinstance(value, str):
        raise InvalidInput(f"since: {_HOW}", field="since", rule="since")
    text = value.strip()
    if text.isascii() and text.isdigit():
        return Since(seq=_seq(int(text)))
    span = _SPAN.match(text)
    if span is not None:
        try:
            return Since(at=now - timedelta(**{_UNITS[span.group(2)]: int(span.group(1))}))
        except (OverflowError, ValueError):
            raise InvalidInput(
                f"since: {text} reaches back before year 1", field="since", rule="range"
            ) from None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"since: {value!r} is not understood: {_HOW}", field="since") from None
    return Since(at=parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC))


def _seq(value: int) -> int:
    if not 0 <= value <= MAX_SEQ:
        raise InvalidInput(
            f"since: a seq is an integer from 0 to {MAX_SEQ}", field="since", rule="range"
        )
    return value


def parse_span(value: timedelta | str, field: str) -> timedelta:
    """Reads a span of time: a timedelta, or ``30m``, ``12h``, ``7d``, ``2w`` (0 allowed).

    Raises:
        InvalidInput: ``value`` is neither, or negative (naming ``field``).
    """
    how = f"{field}: give a span of time such as 30m, 12h, 30d or 2w"
    if isinstance(value, timedelta):
        if value < timedelta(0):
            raise InvalidInput(f"{how}, not a negative one", field=field, rule="span")
        return value
    span = _SPAN.match(value.strip()) if isinstance(value, str) else None
    if span is None:
        raise InvalidInput(f"{how} (got {value!r})", field=field, rule="span")
    return timedelta(**{_UNITS[span.group(2)]: int(span.group(1))})  # six digits: in range
