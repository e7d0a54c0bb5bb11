"""The time a question names: each rule of graphmem.recall.when, edges and non-times."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from graphmem.recall.when import MAX_TEXT, TimeWindow, time_window

# A Sunday afternoon.
REFERENCE = datetime(2023, 8, 20, 15, 30, tzinfo=UTC)


def days(text: str, reference: datetime = REFERENCE) -> tuple[date, date] | None:
    """The window as (first day, first day after), or None."""
    window = time_window(text, reference)
    if window is None:
        return None
    assert window.start.tzinfo is UTC and window.end.tzinfo is UTC
    assert window.start.time() == window.end.time() == datetime.min.time()
    assert window.start < window.end
    return window.start.date(), window.end.date()


def one_day(year: int, month: int, day: int) -> tuple[date, date]:
    start = date(year, month, day)
    return start, start + timedelta(days=1)


@pytest.mark.parametrize(
    "text",
    [
        "What did Calvin open on 8 May 2023?",
        "What did Calvin open on 8th May, 2023?",
        "What did Calvin open on the 8th of May 2023?",
        "What did Calvin open on May 8, 2023?",
        "What did Calvin open on May 8th 2023?",
        "What did Calvin open on 2023-05-08?",
        "WHAT DID CALVIN OPEN ON MAY 8,2023?",
        "What did Calvin open on 8 may 2023?",
    ],
)
def test_absolute_days_in_every_spelling(text: str) -> None:
    assert days(text) == one_day(2023, 5, 8)


def test_the_window_keeps_the_phrase_as_written() -> None:
    window = time_window("What happened on the 8th of May, 2023?", REFERENCE)
    assert window == TimeWindow(
        datetime(2023, 5, 8, tzinfo=UTC), datetime(2023, 5, 9, tzinfo=UTC), "the 8th of May, 2023"
    )


def test_a_day_without_a_year_is_the_latest_not_after_the_reference() -> None:
    assert days("on the 8th of May") == one_day(2023, 5, 8)
    assert days("on Aug 15th") == one_day(2023, 8, 15)
    assert days("on August 21") == one_day(2022, 8, 21)
    assert days("on August 20") == one_day(2023, 8, 20)


def test_leap_days_and_month_ends() -> None:
    assert days("on 29 February 2024") == one_day(2024, 2, 29)
    assert days("on 29 February 2023") == (date(2023, 2, 1), date(2023, 3, 1))
    assert days("on February 29") == one_day(2020, 2, 29)
    assert days("on 31 April 2023") == (date(2023, 4, 1), date(2023, 5, 1))
    assert days("on 31 December 2023") == (date(2023, 12, 31), date(2024, 1, 1))
    assert days("in February 2024") == (date(2024, 2, 1), date(2024, 3, 1))
    assert days("in February 2023") == (date(2023, 2, 1), date(2023, 3, 1))
    assert days("in December 2023") == (date(2023, 12, 1), date(2024, 1, 1))


def test_months_and_years() -> None:
    assert days("What did Calvin open in May 2023?") == (date(2023, 5, 1), date(2023, 6, 1))
    assert days("in May, 2023") == (date(2023, 5, 1), date(2023, 6, 1))
    assert days("in May of 2023") == (date(2023, 5, 1), date(2023, 6, 1))
    assert days("Which country did James visit in 2021?") == (date(2021, 1, 1), date(2022, 1, 1))
    assert days("What year did the 2019 move happen?") == (date(2019, 1, 1), date(2020, 1, 1))
    assert days("in 2025") == (date(2025, 1, 1), date(2026, 1, 1))


def test_a_bare_year_after_the_reference_is_a_name() -> None:
    assert days("When did James try Cyberpunk 2077?") is None
    assert days("Who paid $2000 for it?") is None


def test_month_names_alone_resolve_to_the_latest_such_month() -> None:
    assert days("in May") == (date(2023, 5, 1), date(2023, 6, 1))
    assert days("last May") == (date(2023, 5, 1), date(2023, 6, 1))
    assert days("in September") == (date(2022, 9, 1), date(2022, 10, 1))
    assert days("in August") == (date(2023, 8, 1), date(2023, 9, 1))
    assert days("last August") == (date(2022, 8, 1), date(2022, 9, 1))
    assert days("What did she do in early March?") == (date(2023, 3, 1), date(2023, 4, 1))
    january = datetime(2024, 1, 10, tzinfo=UTC)
    assert days("last December", january) == (date(2023, 12, 1), date(2024, 1, 1))


def test_may_and_march_as_verbs_are_not_months() -> None:
    assert days("May I ask what Melanie painted?") is None
    assert days("Where will the band march?") is None
    assert days("What next June?") is None


def test_seasons() -> None:
    assert days("What state did Joanna visit in summer 2021?") == (
        date(2021, 6, 1),
        date(2021, 9, 1),
    )
    assert days("in the fall of 2022") == (date(2022, 9, 1), date(2022, 12, 1))
    assert days("in winter 2022") == (date(2022, 12, 1), date(2023, 3, 1))
    assert days("last summer") == (date(2022, 6, 1), date(2022, 9, 1))
    assert days("this summer") == (date(2023, 6, 1), date(2023, 9, 1))
    assert days("in the summer") == (date(2023, 6, 1), date(2023, 9, 1))
    assert days("last spring") == (date(2023, 3, 1), date(2023, 6, 1))
    february = datetime(2024, 2, 10, tzinfo=UTC)
    assert days("this winter", february) == (date(2023, 12, 1), date(2024, 3, 1))
    assert days("Did the vase fall?") is None
    assert days("Which hot spring did they visit?") is None


def test_weekdays() -> None:
    assert days("last Friday") == one_day(2023, 8, 18)
    assert days("on Friday") == one_day(2023, 8, 18)
    assert days("last Sunday") == one_day(2023, 8, 13)
    assert days("on Sunday") == one_day(2023, 8, 20)
    assert days("next Friday") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today", one_day(2023, 8, 20)),
        ("yesterday", one_day(2023, 8, 19)),
        ("last night", one_day(2023, 8, 19)),
        ("the day before yesterday", one_day(2023, 8, 18)),
        ("this week", (date(2023, 8, 14), date(2023, 8, 21))),
        ("last week", (date(2023, 8, 7), date(2023, 8, 14))),
        ("last weekend", (date(2023, 8, 12), date(2023, 8, 14))),
        ("this weekend", (date(2023, 8, 19), date(2023, 8, 21))),
        ("this month", (date(2023, 8, 1), date(2023, 9, 1))),
        ("last month", (date(2023, 7, 1), date(2023, 8, 1))),
        ("this year", (date(2023, 1, 1), date(2024, 1, 1))),
        ("last year", (date(2022, 1, 1), date(2023, 1, 1))),
        ("3 days ago", one_day(2023, 8, 17)),
        ("three days ago", one_day(2023, 8, 17)),
        ("a week ago", (date(2023, 8, 7), date(2023, 8, 14))),
        ("two weeks ago", (date(2023, 7, 31), date(2023, 8, 7))),
        ("twelve months ago", (date(2022, 8, 1), date(2022, 9, 1))),
        ("8 months ago", (date(2022, 12, 1), date(2023, 1, 1))),
        ("4 years ago", (date(2019, 1, 1), date(2020, 1, 1))),
        ("a couple of days ago", (date(2023, 8, 17), date(2023, 8, 19))),
        ("a few days ago", (date(2023, 8, 15), date(2023, 8, 19))),
        ("several weeks ago", (date(2023, 6, 26), date(2023, 7, 31))),
        ("a few years ago", (date(2018, 1, 1), date(2022, 1, 1))),
        ("in the past 3 days", (date(2023, 8, 18), date(2023, 8, 21))),
        ("over the last two weeks", (date(2023, 8, 7), date(2023, 8, 21))),
        ("the past week", (date(2023, 8, 14), date(2023, 8, 21))),
        ("the past month", (date(2023, 7, 22), date(2023, 8, 21))),
        ("recently", (date(2023, 7, 22), date(2023, 8, 21))),
        ("lately", (date(2023, 7, 22), date(2023, 8, 21))),
    ],
)
def test_relative_spans(text: str, expected: tuple[date, date]) -> None:
    assert days(f"What did Melanie paint {text}?") == expected


def test_relative_spans_cross_year_and_leap_edges() -> None:
    new_year = datetime(2024, 1, 1, 9, tzinfo=UTC)
    assert days("yesterday", new_year) == one_day(2023, 12, 31)
    assert days("last month", new_year) == (date(2023, 12, 1), date(2024, 1, 1))
    assert days("last week", new_year) == (date(2023, 12, 25), date(2024, 1, 1))
    leap = datetime(2024, 3, 1, tzinfo=UTC)
    assert days("yesterday", leap) == one_day(2024, 2, 29)
    assert days("a month ago", datetime(2024, 3, 31, tzinfo=UTC)) == (
        date(2024, 2, 1),
        date(2024, 3, 1),
    )


def test_offsets_from_a_date() -> None:
    assert days("the puppy he got two weeks before August 11, 2023") == (
        date(2023, 7, 24),
        date(2023, 7, 31),
    )
    assert days("3 days after May 8, 2023") == one_day(2023, 5, 11)
    assert days("Where was Tim in the week before 16 November 2023?") == (
        date(2023, 11, 9),
        date(2023, 11, 16),
    )
    assert days("the week after 16 November 2023") == (date(2023, 11, 17), date(2023, 11, 24))
    assert days("on the Saturday after October 28, 2023") == one_day(2023, 11, 4)
    assert days("on the Sunday before October 25, 2022") == one_day(2022, 10, 23)
    assert days("on the Saturday after 4 November 2023") == one_day(2023, 11, 11)
    assert days("last weekend before April 10, 2023") == (date(2023, 4, 8), date(2023, 4, 10))


def test_between_two_dates() -> None:
    assert days("Where was John between August 11 and August 15 2023?") == (
        date(2023, 8, 11),
        date(2023, 8, 16),
    )
    assert days("between 1 May 2023 and 3 June 2023") == (date(2023, 5, 1), date(2023, 6, 4))
    assert days("between August 11 and 15, 2023") == (date(2023, 8, 11), date(2023, 8, 16))


def test_an_offset_from_an_event_cannot_be_resolved() -> None:
    assert time_window("What did she buy two weeks before the trip?", REFERENCE) is None
    assert time_window("What did he do the day after the party in May 2023?", REFERENCE) is None
    assert time_window("Where was she a few days before her wedding?", REFERENCE) is None


def test_the_first_rule_that_matches_wins() -> None:
    window = time_window(
        "What was Tim's issue last week, as mentioned on November 6, 2023?", REFERENCE
    )
    assert window is not None
    assert window.phrase == "November 6, 2023"
    assert days("in the last week of October 2023") == (date(2023, 10, 1), date(2023, 11, 1))


@pytest.mark.parametrize(
    "text",
    [
        "When did Caroline go to the LGBTQ support group?",
        "When did Melanie paint a sunrise?",
        "What year did John start surfing?",
        "How long has it been since the move?",
        "When was the last photo of Deborah and Karlie taken?",
        "Which pet did Jolene adopt more recently - Susie or Seraphim?",
        "What time does the store open?",
        "Is the deadline a date in the spreadsheet?",
        "Who said 'it may rain'?",
        "How many weeks did the course take?",
        "What scored 95% on the test?",
        "",
    ],
)
def test_asking_when_is_not_naming_a_time(text: str) -> None:
    assert time_window(text, REFERENCE) is None


def test_the_reference_is_read_in_utc() -> None:
    late_in_new_york = datetime(2023, 8, 20, 22, 0, tzinfo=timezone(timedelta(hours=-4)))
    assert days("yesterday", late_in_new_york) == one_day(2023, 8, 20)
    naive = datetime(2023, 8, 20, 12, 0)
    assert days("yesterday", naive) == one_day(2023, 8, 19)


def test_never_raises_at_the_calendar_edges() -> None:
    assert time_window("1000 years ago", datetime(500, 1, 1, tzinfo=UTC)) is None
    assert time_window("9999 days ago", REFERENCE) is None
    assert time_window("last year", datetime(1, 6, 1, tzinfo=UTC)) is None
    assert days("on 9999-12-31") is None
    assert days("on 9999-12-30") == one_day(9999, 12, 30)
    assert time_window("on 0000-01-01 or 2023-13-45", REFERENCE) is None


def test_deterministic_and_bounded_on_long_input() -> None:
    hostile = "between " + "the 1 may " * 5000 + "and " + "2023 " * 5000
    spaces = "last" + " " * 100_000 + "week"
    for text in (hostile, spaces, "a" * 200_000, ("in may " * 30_000)):
        assert time_window(text, REFERENCE) == time_window(text, REFERENCE)
    late = "x" * MAX_TEXT + " yesterday"
    assert time_window(late, REFERENCE) is None
