"""The time a question names, as a window of episode dates (issue 13, item 4).

``time_window(text, reference)`` finds the first time expression in ``text`` and
resolves it against ``reference`` (when the question is asked: the query's ``as_of``,
else when the newest episode happened; the caller passes it, nothing here reads the
clock). Windows are calendar
spans in UTC, ``start`` inclusive and ``end`` exclusive. English only, case-insensitive.

Rules, tried in this order (the first rule that matches wins; within a rule, the
leftmost match):

1. Relative to an event, not a date ("two weeks before the trip", "the day after the
   party"): unresolvable without that event, so the whole answer is ``None``, even if
   another time is named elsewhere in the question.
2. Between two dates ("between August 11 and August 15 2023"): from the first day to
   the end of the second.
3. An offset from a date ("two weeks before 11 August 2023", "3 days after May 8"):
   resolved like "N units ago" (rule 11) with that date as the reference. "the week
   before DATE" is the 7 days before it, "the week after DATE" the 7 days after it,
   "the (or last) weekend before/after DATE" the nearest Saturday and Sunday wholly
   before/after it;
   "the Saturday after DATE" is the first such weekday after it ("before": the last
   one before it).
4. A day: "2023-05-08", "8 May 2023", "8th of May, 2023", "May 8, 2023", "May 8th",
   "the 8th of May". Without a year, the most recent such day not after the reference
   (29 February without a year: the most recent leap day). An impossible day
   ("31 April 2023") is no day, but the later rules still read its month and year.
5. A month of a year: "May 2023", "May, 2023", "May of 2023".
6. A season of a year, meteorological, northern hemisphere: spring March to May, summer
   June to August, autumn/fall September to November, winter December to February (winter 2022
   is December 2022 to February 2023: the winter that begins in that year).
7. A year: "in 2022", "of 2022", bare "2022" (1900 to 2099 only; a bare year after the
   reference's is a name, as in "Cyberpunk 2077", not a time).
8. A season without a year: "this summer" is this year's; "last summer" the most recent
   one that ended on or before the reference day; "summer" alone ("in the summer") the
   most recent one that started on or before it.
9. A month name alone (full names only; "may" and "march" only after "in", "last",
   "this", "early", "mid", "late", "during", "since" or "of", as they are also verbs):
   "in May"/"this May" is the most recent May that began on or before the reference
   (possibly the current month); "last May" excludes the current month.
10. A weekday: "last Friday" is the most recent Friday strictly before the reference
    day; "on Friday"/"this Friday"/"Friday" the most recent one on or before it.
11. Relative spans, from the reference day (weeks start on Monday):
    "today"; "yesterday" and "last night" (the day before); "tonight" (today);
    "the day before yesterday";
    "this week/month/year" (the calendar unit holding the reference);
    "last week/month/year" (the calendar unit before it); "last weekend" (Saturday and
    Sunday of the previous week); "this weekend" (Saturday and Sunday of this week);
    "N days/weeks/months/years ago" (N in digits up to 1000, or "a"/"an"/"one" to
    "twelve"): the calendar unit holding the reference day moved back N units;
    "a couple of X ago" covers 2 to 3 units back, "a few X ago" 2 to 5, "several X
    ago" 3 to 7 (from the earliest unit's start to the latest unit's end);
    "the past/last N days/weeks/months/years" and "the past week/month/year": the
    rolling span of that length ending with the reference day (a month is 30 days, a
    year 365); "recently" and "lately": the 30 days ending with the reference day
    ("more recently" and "most recently" compare; they name no time).

Anything else is ``None``; in particular asking *when* ("When did X go to Y?") names no
time. The function never raises: a naive ``reference`` is taken as UTC, and anything
that cannot be resolved (an impossible date, a window outside the calendar) is simply
not a match. Work is bounded: only the first ``MAX_TEXT`` characters are read, and every
pattern is a linear alternation without nested repetition.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

MAX_TEXT = 2000
"""Only this many leading characters of a question are read (bounded work)."""


@dataclass(frozen=True)
class TimeWindow:
    """A span of episode dates a question names.

    Attributes:
        start: First instant inside the window (aware, UTC).
        end: First instant after the window (aware, UTC; exclusive).
        phrase: The words of the question that named it, as written.
    """

    start: datetime
    end: datetime
    phrase: str


_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_MONTH_ABBREVIATIONS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH_NUMBERS = {**_MONTHS, **_MONTH_ABBREVIATIONS}
_WEEKDAYS = {name.lower(): number for number, name in enumerate(calendar.day_name)}
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_VAGUE_COUNTS = {"couple": (2, 3), "few": (2, 5), "several": (3, 7)}
_MAX_COUNT = 1000
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}

_MONTH = r"(?P<{}>" + "|".join(sorted(_MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
_FULL_MONTH = "|".join(_MONTHS)
_WEEKDAY = "|".join(_WEEKDAYS)
_SEASON = "|".join(_SEASON_START)
_COUNT = r"(?P<count>\d{1,4}|" + "|".join(_NUMBER_WORDS) + r")"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_ORDINAL = r"(?:st|nd|rd|th)?"


def _day_pattern(prefix: str) -> str:
    """A day in any accepted spelling, its groups named with ``prefix``."""
    iso = rf"(?P<{prefix}iso>\d{{4}}-\d{{2}}-\d{{2}})"
    day_first = (
        rf"(?:the\s+)?(?P<{prefix}d1>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?"
        rf"{_MONTH.format(prefix + 'm1')}(?:,?\s+(?P<{prefix}y1>\d{{4}}))?"
    )
    month_first = (
        rf"{_MONTH.format(prefix + 'm2')}\s+(?:the\s+)?(?P<{prefix}d2>\d{{1,2}}){_ORDINAL}"
        rf"(?:(?:,\s*|\s+)(?P<{prefix}y2>\d{{4}}))?"
    )
    return rf"(?:{iso}|{day_first}|{month_first})(?![\d-])"


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){pattern}(?![\w])", re.IGNORECASE)


_Span = tuple[date, date]
"""A window in days: first day, first day after (exclusive)."""
_Resolver = Callable[[re.Match[str], date], _Span | None]


def _day_from(match: re.Match[str], prefix: str, reference: date) -> date | None:
    """The day a :func:`_day_pattern` match names, or None if it is impossible."""
    iso = match.group(f"{prefix}iso")
    if iso:
        year, month, day = (int(part) for part in iso.split("-"))
        return _safe_date(year, month, day)
    for suffix in ("1", "2"):
        month_name = match.group(f"{prefix}m{suffix}")
        if month_name:
            month = _MONTH_NUMBERS[month_name.lower()]
            day = int(match.group(f"{prefix}d{suffix}"))
            year_text = match.group(f"{prefix}y{suffix}")
            if year_text:
                return _safe_date(int(year_text), month, day)
            return _latest_day(month, day, reference)
    return None


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _latest_day(month: int, day: int, reference: date) -> date | None:
    """The most recent ``month``/``day`` on or before ``reference`` (8 years back at most)."""
    for year in range(reference.year, reference.year - 8, -1):
        found = _safe_date(year, month, day)
        if found is not None and found <= reference:
            return found
    return None


def _month_span(year: int, month: int, months: int = 1) -> _Span:
    """``months`` calendar months starting with ``month`` of ``year``."""
    last = year * 12 + month - 1 + months
    return date(year, month, 1), date(last // 12, last % 12 + 1, 1)


def _shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + by
    return index // 12, index % 12 + 1


def _unit_span(unit: str, day: date, back: int) -> _Span:
    """The calendar ``unit`` holding ``day``, moved ``back`` units into the past."""
    if unit == "day":
        start = day - timedelta(days=back)
        return start, start + timedelta(days=1)
    if unit == "week":
        start = day - timedelta(days=day.weekday() + 7 * back)
        return start, start + timedelta(days=7)
    if unit == "month":
        year, month = _shift_month(day.year, day.month, -back)
        return _month_span(year, month)
    return date(day.year - back, 1, 1), date(day.year - back + 1, 1, 1)


def _count_range(text: str) -> tuple[int, int] | None:
    """The number of units a count names, as (fewest, most); None when out of range."""
    lowered = text.lower()
    if lowered in _VAGUE_COUNTS:
        return _VAGUE_COUNTS[lowered]
    count = _NUMBER_WORDS.get(lowered)
    if count is None:
        count = int(lowered)
    return (count, count) if 0 <= count <= _MAX_COUNT else None


def _units_back(unit: str, counts: tuple[int, int], day: date) -> _Span:
    fewest, most = counts
    return _unit_span(unit, day, most)[0], _unit_span(unit, day, fewest)[1]


def _season_span(season: str, year: int) -> _Span:
    return _month_span(year, _SEASON_START[season], 3)


def _unit_length(unit: str) -> timedelta:
    return timedelta(days={"day": 1, "week": 7, "month": 30, "year": 365}[unit])


# Rule 1: an offset from an event, not a date.
_EVENT_UNIT = rf"(?:day|night|week|weekend|month|year|morning|evening|{_WEEKDAY})s?"
_NOT_AN_EVENT = (
    rf"(?:the\s+)?\d|(?:{'|'.join(_MONTH_NUMBERS)})\b|"
    r"(?:yesterday|today|tonight|last|this|next|that|then|now)\b"
)
_EVENT_RELATIVE = _compile(
    rf"(?:(?:\d{{1,4}}|{'|'.join(_NUMBER_WORDS)}|a\s+few|a\s+couple\s+of|several)"
    rf"\s+{_EVENT_UNIT}|the\s+{_EVENT_UNIT})\s+(?:before|after|prior\s+to|following)\s+"
    rf"(?!{_NOT_AN_EVENT})\w+"
)

_BETWEEN = _compile(rf"between\s+{_day_pattern('a')}\s+and\s+{_day_pattern('b')}")
_BETWEEN_SAME_MONTH = _compile(
    rf"between\s+{_MONTH.format('m')}\s+(?P<d1>\d{{1,2}}){_ORDINAL}\s+and\s+"
    rf"(?P<d2>\d{{1,2}}){_ORDINAL},?\s+(?P<y>\d{{4}})"
)


def _between(match: re.Match[str], reference: date) -> _Span | None:
    first = _day_from(match, "a", reference)
    last = _day_from(match, "b", reference)
    if first is None or last is None or last < first:
        return None
    return first, last + timedelta(days=1)


def _between_same_month(match: re.Match[str], reference: date) -> _Span | None:
    del reference
    month = _MONTH_NUMBERS[match.group("m").lower()]
    year = int(match.group("y"))
    first = _safe_date(year, month, int(match.group("d1")))
    last = _safe_date(year, month, int(match.group("d2")))
    if first is None or last is None or last < first:
        return None
    return first, last + timedelta(days=1)


_OFFSET_FROM_DATE = _compile(
    rf"{_COUNT}\s+{_UNIT}\s+(?P<way>before|after|prior\s+to|following)\s+"
    rf"(?:the\s+)?{_day_pattern('x')}"
)


def _offset_from_date(match: re.Match[str], reference: date) -> _Span | None:
    anchor = _day_from(match, "x", reference)
    counts = _count_range(match.group("count"))
    if anchor is None or counts is None:
        return None
    unit = match.group("unit").lower()
    if match.group("way").lower() in ("before", "prior to"):
        return _units_back(unit, counts, anchor)
    return _units_back(unit, (-counts[1], -counts[0]), anchor)


_WEEK_OR_WEEKDAY_FROM_DATE = _compile(
    rf"(?:the|last)\s+(?P<what>weekend|week|{_WEEKDAY})\s+"
    rf"(?P<way>before|after|following|prior\s+to)\s+"
    rf"(?:the\s+)?{_day_pattern('x')}"
)


def _week_or_weekday_from_date(match: re.Match[str], reference: date) -> _Span | None:
    anchor = _day_from(match, "x", reference)
    if anchor is None:
        return None
    what = match.group("what").lower()
    before = match.group("way").lower() in ("before", "prior to")
    if what == "weekend":
        saturday = 5
        if before:
            day = anchor - timedelta(days=(anchor.weekday() - saturday - 1) % 7 + 1)
        else:
            day = anchor + timedelta(days=(saturday - anchor.weekday() - 1) % 7 + 1)
        return day, day + timedelta(days=2)
    if what == "week":
        if before:
            return anchor - timedelta(days=7), anchor
        return anchor + timedelta(days=1), anchor + timedelta(days=8)
    weekday = _WEEKDAYS[what]
    if before:
        day = anchor - timedelta(days=(anchor.weekday() - weekday - 1) % 7 + 1)
    else:
        day = anchor + timedelta(days=(weekday - anchor.weekday() - 1) % 7 + 1)
    return day, day + timedelta(days=1)


_DAY = _compile(_day_pattern("x"))


def _day(match: re.Match[str], reference: date) -> _Span | None:
    day = _day_from(match, "x", reference)
    return None if day is None else (day, day + timedelta(days=1))


_MONTH_YEAR = _compile(rf"{_MONTH.format('m')}(?:,?\s+|\s+of\s+)(?P<y>\d{{4}})")


def _month_year(match: re.Match[str], reference: date) -> _Span | None:
    del reference
    return _month_span(int(match.group("y")), _MONTH_NUMBERS[match.group("m").lower()])


_SEASON_YEAR = _compile(rf"(?P<season>{_SEASON})(?:,?\s+|\s+of\s+)(?P<y>\d{{4}})")


def _season_year(match: re.Match[str], reference: date) -> _Span | None:
    del reference
    return _season_span(match.group("season").lower(), int(match.group("y")))


_YEAR = _compile(
    r"(?:(?P<cue>in|of|during|since|by|from|until|before|after)\s+)?"
    r"(?<![$£€])(?P<y>(?:19|20)\d\d)(?!\s*(?:%|[ap]\.?m\b|:)|-\d)"
)


def _year(match: re.Match[str], reference: date) -> _Span | None:
    year = int(match.group("y"))
    if not match.group("cue") and year > reference.year:
        return None
    return date(year, 1, 1), date(year + 1, 1, 1)


_SEASON_ALONE = _compile(
    rf"(?P<which>this|last|past|next|(?:in|during|over)(?:\s+the)?)\s+(?P<season>{_SEASON})"
)


def _season_alone(match: re.Match[str], reference: date) -> _Span | None:
    season = match.group("season").lower()
    which = match.group("which").lower().split()[0]
    if which == "next":
        return None
    if which == "this":
        year = reference.year - 1 if season == "winter" and reference.month < 3 else reference.year
        return _season_span(season, year)
    for year in range(reference.year, reference.year - 3, -1):
        start, end = _season_span(season, year)
        if (end <= reference) if which in ("last", "past") else (start <= reference):
            return start, end
    return None


_MONTH_ALONE = _compile(
    rf"(?:(?P<cue>in|last|this|next|early|mid|late|during|since|of)(?:\s+|-))?"
    rf"(?P<m>{_FULL_MONTH})(?!\s*\d)"
)


def _month_alone(match: re.Match[str], reference: date) -> _Span | None:
    name = match.group("m").lower()
    cue = (match.group("cue") or "").lower()
    if cue == "next" or (name in ("may", "march") and not cue):
        return None
    month = _MONTHS[name]
    back = (reference.month - month) % 12
    if cue == "last" and back == 0:
        back = 12
    year, month = _shift_month(reference.year, reference.month, -back)
    return _month_span(year, month)


_WEEKDAY_NAMED = _compile(rf"(?:(?P<which>last|this|on|past|next|coming)\s+)?(?P<day>{_WEEKDAY})s?")


def _weekday(match: re.Match[str], reference: date) -> _Span | None:
    which = (match.group("which") or "").lower()
    if which in ("next", "coming"):
        return None
    weekday = _WEEKDAYS[match.group("day").lower()]
    back = (reference.weekday() - weekday) % 7
    if which in ("last", "past") and back == 0:
        back = 7
    day = reference - timedelta(days=back)
    return day, day + timedelta(days=1)


_AGO = _compile(rf"(?:(?:a\s+)?(?P<vague>couple|few|several)(?:\s+of)?|{_COUNT})\s+{_UNIT}\s+ago")


def _ago(match: re.Match[str], reference: date) -> _Span | None:
    counts = _count_range(match.group("vague") or match.group("count"))
    if counts is None:
        return None
    return _units_back(match.group("unit").lower(), counts, reference)


_ROLLING = _compile(
    rf"(?:the\s+)?(?:past|last)\s+(?:{_COUNT}\s+{_UNIT}|(?P<single>week|month|year)(?!end))"
)


def _rolling(match: re.Match[str], reference: date) -> _Span | None:
    if match.group("single"):
        if not match.group(0).lower().startswith(("the past", "past")):
            return None
        return reference + timedelta(days=1) - _unit_length(match.group("single")), (
            reference + timedelta(days=1)
        )
    counts = _count_range(match.group("count"))
    if counts is None:
        return None
    length = _unit_length(match.group("unit").lower()) * counts[1]
    return reference + timedelta(days=1) - length, reference + timedelta(days=1)


_RELATIVE = _compile(
    r"(?<!more\s)(?<!most\s)"
    r"(?P<word>today|tonight|(?:the\s+day\s+before\s+)?yesterday|recently|lately|last\s+night"
    r"|(?:this|last)\s+(?:week|weekend|month|year))"
)


def _relative(match: re.Match[str], reference: date) -> _Span | None:
    word = " ".join(match.group("word").lower().split())
    one_day = timedelta(days=1)
    if word in ("today", "tonight"):
        return reference, reference + one_day
    if word == "the day before yesterday":
        return reference - 2 * one_day, reference - one_day
    if word in ("yesterday", "last night"):
        return reference - one_day, reference
    if word in ("recently", "lately"):
        return reference + one_day - timedelta(days=30), reference + one_day
    which, unit = word.split(" ")
    back = 1 if which == "last" else 0
    if unit == "weekend":
        week_start = _unit_span("week", reference, back)[0]
        return week_start + timedelta(days=5), week_start + timedelta(days=7)
    return _unit_span(unit, reference, back)


_RULES: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    (_BETWEEN, _between),
    (_BETWEEN_SAME_MONTH, _between_same_month),
    (_OFFSET_FROM_DATE, _offset_from_date),
    (_WEEK_OR_WEEKDAY_FROM_DATE, _week_or_weekday_from_date),
    (_DAY, _day),
    (_MONTH_YEAR, _month_year),
    (_SEASON_YEAR, _season_year),
    (_YEAR, _year),
    (_SEASON_ALONE, _season_alone),
    (_MONTH_ALONE, _month_alone),
    (_WEEKDAY_NAMED, _weekday),
    (_AGO, _ago),
    (_ROLLING, _rolling),
    (_RELATIVE, _relative),
)


def time_window(text: str, reference: datetime) -> TimeWindow | None:
    """The window of episode dates ``text`` names, resolved against ``reference``.

    Args:
        text: A question, in English.
        reference: When the question is asked (a naive value is taken as UTC).

    Returns:
        The window of the first time expression by the rules of this module, or None
        when the question names no time or names one relative to an event.
    """
    head = text[:MAX_TEXT]
    if reference.tzinfo is None:
        reference = reference.replace(tzinfo=UTC)
    today = reference.astimezone(UTC).date()
    if _EVENT_RELATIVE.search(head):
        return None
    for pattern, resolve in _RULES:
        for match in pattern.finditer(head):
            try:
                span = resolve(match, today)
            except (ValueError, OverflowError):
                span = None
            if span is not None:
                start, end = span
                return TimeWindow(
                    datetime.combine(start, time(), UTC),
                    datetime.combine(end, time(), UTC),
                    match.group(0).strip(),
                )
    return None
