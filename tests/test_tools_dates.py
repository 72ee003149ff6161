"""The date tools: readings relative to an injected clock, and plain refusals."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest

from autoagent.tools import calendar, current_datetime, make_calendar_tool, make_current_datetime_tool

MONDAY_MORNING = datetime(2024, 1, 1, 9, 30)


def resolve(expression: str, now: datetime = MONDAY_MORNING) -> str:
    return make_calendar_tool(lambda: now).invoke({"expression": expression})


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("tomorrow", "2024-01-02 (Tuesday)"),
        ("today", "2024-01-01 (Monday)"),
        ("yesterday", "2023-12-31 (Sunday)"),
        ("Friday", "2024-01-05 (Friday)"),
        ("next friday at 3pm", "2024-01-12T15:00 (Friday)"),
        ("tomorrow at 9am", "2024-01-02T09:00 (Tuesday)"),
        ("march 5", "2024-03-05 (Tuesday)"),
        ("2025-03-05 14:00", "2025-03-05T14:00 (Wednesday)"),
        ("in 3 days", "2024-01-04T09:30 (Thursday)"),
        ("in 2 hours", "2024-01-01T11:30 (Monday)"),
        ("2 weeks from now", "2024-01-15T09:30 (Monday)"),
        ("3 days ago", "2023-12-29T09:30 (Friday)"),
        ("3pm", "2024-01-01T15:00 (Monday)"),
        ("noon", "2024-01-01T12:00 (Monday noon)"),
        ("tomorrow evening", "2024-01-02T17:00 to 2024-01-02T20:00 (Tuesday evening)"),
        ("monday to friday", "from 2024-01-08 (Monday) to 2024-01-12 (Friday)"),
        ("after tomorrow", "after 2024-01-02 (Tuesday)"),
        # Once refused; now read by the rules in front of ctparse (more in test_date_phrases.py).
        ("next month", "from 2024-02-01 (Thursday) to 2024-02-29 (Thursday)"),
        ("the day after tomorrow", "2024-01-03 (Wednesday)"),
        ("last monday", "2023-12-25 (Monday)"),
        ("in 3 days at 5pm", "2024-01-04T17:00 (Thursday)"),
        ("jan 5 2025", "2025-01-05 (Sunday)"),
    ],
)
def test_resolves_relative_to_the_injected_now(expression: str, expected: str) -> None:
    assert resolve(expression) == expected


def test_a_bare_time_already_past_today_means_tomorrow() -> None:
    assert resolve("3pm", now=datetime(2024, 1, 1, 16, 0)) == "2024-01-02T15:00 (Tuesday)"


def test_months_are_calendar_months_clamped_to_the_last_day() -> None:
    assert resolve("in 1 month", now=datetime(2024, 1, 31, 8, 0)) == "2024-02-29T08:00 (Thursday)"


def test_an_aware_clock_is_read_as_local_wall_time() -> None:
    aware = datetime(2024, 1, 1, 23, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert resolve("tomorrow", now=aware) == "2024-01-02 (Tuesday)"


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("blah blah", ""),
        ("christmas", ""),
        ("march", "names no specific day"),
        ("march 5 at 2025", "read as a time of day"),  # ctparse reads 2025 as 20:25
        ("2025-02-30", "day is out of range"),
    ],
)
def test_refuses_what_it_cannot_read_fully(expression: str, reason: str) -> None:
    with pytest.raises(ValueError, match="could not understand the date/time") as raised:
        resolve(expression)
    assert reason in str(raised.value)


def test_empty_expression_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        resolve("  ")


def test_failures_log_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="ctparse"), pytest.raises(ValueError):
        resolve("christmas")
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_current_datetime_reports_iso_time_with_offset_and_weekday() -> None:
    now = datetime(2024, 1, 1, 9, 30, 15, tzinfo=timezone(timedelta(hours=2)))
    assert make_current_datetime_tool(lambda: now).invoke({}) == "2024-01-01T09:30:15+02:00 (Monday)"


def test_default_tools_read_the_real_clock() -> None:
    before = datetime.now().date()
    today, stamp = calendar.invoke({"expression": "today"}), current_datetime.invoke({})
    after = datetime.now().date()
    assert today.split()[0] in {before.isoformat(), after.isoformat()}
    assert stamp[:10] in {before.isoformat(), after.isoformat()}


def test_tools_are_named_and_marked_read_only() -> None:
    assert (calendar.name, current_datetime.name) == ("calendar", "current_datetime")
    assert calendar.metadata == current_datetime.metadata == {"side_effects": False}
    assert list(calendar.args) == ["expression"]
    assert current_datetime.args == {}


@pytest.mark.parametrize(("expression", "expected"), [
    ("2031-07-04 + 10 days", "2031-07-14 (Monday)"),
    ("2031-07-04 + 10", "2031-07-14 (Monday)"),
    ("2031-07-04 - 2 weeks", "2031-06-20 (Friday)"),
    ("2031-08-01 - 2031-07-04", "28 days (from 2031-07-04 (Friday) to 2031-08-01 (Friday))"),
    ("from 2031-07-04 to 2031-08-01", "28 days (from 2031-07-04 (Friday) to 2031-08-01 (Friday))"),
    ("2032-03-01 - 2032-02-28", "2 days (from 2032-02-28 (Saturday) to 2032-03-01 (Monday))"),  # a leap year
])
def test_the_calendar_works_out_arithmetic_on_dates(expression: str, expected: str) -> None:
    from autoagent.tools import calendar as calendar_tool

    assert calendar_tool.invoke({"expression": expression}) == expected


def test_a_date_that_does_not_exist_is_an_error_not_a_guess() -> None:
    from autoagent.tools.date_math import date_arithmetic

    with pytest.raises(ValueError, match="2031-02-30 is not a date"):
        date_arithmetic("2031-02-30 + 1 day")
    assert date_arithmetic("next friday") is None and date_arithmetic("2031-07-04 at 10:30 + 2") is None
