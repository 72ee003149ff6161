"""Arithmetic on dates written as dates: a date plus or minus a count of days or weeks ("2026-01-20 + 45 days"),
and the days from one date to another ("2026-05-07 - 2026-01-20", "from 2026-01-20 to 2026-05-07")."""

from __future__ import annotations

import re
from datetime import date, timedelta

from .date_format import format_day

_DATE = r"(\d{4}-\d{1,2}-\d{1,2})"
_SHIFTED = re.compile(rf"^\s*{_DATE}\s*([+-])\s*(\d+)\s*(days?|d|weeks?|w)?\s*$", re.I)
_TWO_DATES = re.compile(rf"^\D*{_DATE}\D+{_DATE}\D*$")  # two dates and no other number: the days between them


def date_arithmetic(expression: str) -> str | None:
    """The date `expression` comes to, or the days between its two dates; None when it is not such arithmetic (a
    phrase for the calendar's other rules). A date that does not exist raises ValueError."""
    shifted = _SHIFTED.match(expression)
    if shifted:
        start, sign, count, unit = shifted.groups()
        days = int(count) * (7 if unit and unit.lower().startswith("w") else 1)
        return format_day(_day(start) + timedelta(days=days if sign == "+" else -days))
    pair = _TWO_DATES.match(expression)
    if pair is None:
        return None
    first, second = (_day(text) for text in pair.groups())
    earlier, later = min(first, second), max(first, second)
    days = (later - earlier).days
    return f"{days} day{'' if abs(days) == 1 else 's'} (from {format_day(earlier)} to {format_day(later)})"


def _day(text: str) -> date:
    """The date `text` writes (year-month-day), or a ValueError naming it."""
    year, month, day = (int(part) for part in text.split("-"))
    try:
        return date(year, month, day)
    except ValueError as err:
        raise ValueError(f"{text} is not a date: {err}") from None
