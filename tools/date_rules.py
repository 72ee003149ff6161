"""Date phrases ctparse lacks, resolved by rule: whole periods ("next month", "this weekend") and days named
from another day ("the day after tomorrow", "2 weeks from today", "friday next week", "last tuesday")."""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable
from datetime import date, timedelta
from typing import TypeVar

Day = TypeVar("Day", bound=date)

_WEEKDAY = (
    r"(?P<weekday>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?"
    r"|sun(?:day)?)"
)
_OFFSETS = {
    "next": 1, "coming": 1, "following": 1, "this": 0, "current": 0, "last": -1, "previous": -1,
    "after next": 2, "before last": -2,
}  # fmt: skip
_PERIODS = (
    re.compile(
        r"(?:the )?(?P<offset>next|coming|following|this|current|last|previous) (?P<unit>week|month|year|weekend)"
    ),
    re.compile(r"the (?P<unit>week|month|year|weekend) (?P<offset>after next|before last)"),
    re.compile(r"(?:the )?(?P<unit>weekend)"),
)
_WEEK = r"(?P<offset>next|this|last) week|the week (?P<far>after next|before last)"
_SIMPLE_DAY = rf"today|tomorrow|yesterday|\d{{4}}-\d\d-\d\d|(?:(?:next|this|last) )?{_WEEKDAY}"


def add_months(moment: Day, months: int) -> Day:
    """Shift by whole calendar months, clamping the day (Jan 31 + 1 month = Feb 28/29)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, monthrange(year, month)[1]))


def _weekday_index(name: str) -> int:
    """0 for 'mon'/'monday', ... 6 for 'sun'/'sunday'."""
    return "montuewedthufrisatsun".index(name[:3]) // 3


def _upcoming(today: date, weekday: int, *, include_today: bool) -> date:
    """The next day that falls on weekday (ctparse's 'friday'; with today included, its 'this friday')."""
    ahead = (weekday - today.weekday()) % 7
    return today + timedelta(days=ahead if ahead or include_today else 7)


def _in_week(today: date, weekday: int, weeks: int) -> date:
    """That weekday in the Monday-to-Sunday week `weeks` away from today's (as 下周五 means)."""
    return today + timedelta(days=weekday - today.weekday() + 7 * weeks)


def _simple_day(phrase: str, today: date) -> date:
    """A day named on its own: today, tomorrow, yesterday, an ISO date, or a weekday with next/this/last."""
    fixed = {"today": 0, "tomorrow": 1, "yesterday": -1}
    if phrase in fixed:
        return today + timedelta(days=fixed[phrase])
    if phrase[0].isdigit():
        return date.fromisoformat(phrase)  # ValueError for an impossible date
    relation, _, name = phrase.rpartition(" ")
    weekday = _weekday_index(name)
    if relation == "last":  # the latest one before today
        return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    upcoming = _upcoming(today, weekday, include_today=relation == "this")
    return upcoming + timedelta(days=7) if relation == "next" else upcoming  # as ctparse reads 'next friday'


def period_span(text: str, today: date) -> tuple[date, date] | None:
    """The first and last day of a whole-phrase period like 'next week' or 'last month', else None."""
    for pattern in _PERIODS:
        match = pattern.fullmatch(text)
        if match:
            offset = _OFFSETS[match.groupdict().get("offset") or "this"]
            return _span(match["unit"], offset, today)
    return None


def _span(unit: str, offset: int, today: date) -> tuple[date, date]:
    """The week, weekend, month or year `offset` units from the one holding today."""
    if unit in ("week", "weekend"):
        monday = today + timedelta(days=7 * offset - today.weekday())
        return (
            (monday, monday + timedelta(days=6))
            if unit == "week"
            else (monday + timedelta(days=5), monday + timedelta(days=6))
        )
    if unit == "month":
        first = add_months(today.replace(day=1), offset)
        return first, first.replace(day=monthrange(first.year, first.month)[1])
    return date(today.year + offset, 1, 1), date(today.year + offset, 12, 31)


def _counted(match: re.Match[str], today: date) -> date:
    """'2 weeks from today', '3 days before friday', 'in 3 days' (the last when a time of day follows)."""
    base = _simple_day(match["base"], today) if match["base"] else today
    count = -int(match["count"]) if match["direction"] == "before" else int(match["count"])
    if match["unit"] == "month":
        return add_months(base, count)
    return base + timedelta(days=count * (7 if match["unit"] == "week" else 1))


def _weekday_in_week(match: re.Match[str], today: date) -> date:
    """'friday next week', 'next week's friday', 'wednesday this week'."""
    weeks = _OFFSETS[match["far"] or match["offset"]]
    return _in_week(today, _weekday_index(match["weekday"]), weeks)


_COUNT = r"(?P<count>\d+) (?P<unit>day|week|month)s?"
# Each rule finds a day anywhere in the phrase; the rest of the phrase (a time of day) is read on that day.
_DAY_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], date], date]], ...] = (
    (re.compile(r"\b(?:the )?day after tomorrow\b|\bovermorrow\b"), lambda match, today: today + timedelta(days=2)),
    (re.compile(r"\b(?:the )?day before yesterday\b"), lambda match, today: today - timedelta(days=2)),
    (re.compile(rf"\b{_COUNT} (?P<direction>from|after|before) (?P<base>{_SIMPLE_DAY})\b"), _counted),
    (re.compile(rf"\b{_WEEKDAY}(?: of)? (?:{_WEEK})\b"), _weekday_in_week),
    (re.compile(rf"\b(?:{_WEEK})(?:'s)? {_WEEKDAY}\b"), _weekday_in_week),
    (re.compile(rf"\blast {_WEEKDAY}\b"), lambda match, today: _simple_day(match[0], today)),
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), lambda match, today: _simple_day(match[0], today)),
)
# 'in 3 days' alone is a moment ctparse resolves; followed by a time of day it names a day.
_IN_COUNT = re.compile(rf"\bin {_COUNT}(?P<direction>)(?P<base>)\b")


def split_day(text: str, today: date) -> tuple[date, str] | None:
    """The day a rule finds in text and the words left around it, else None; ValueError for an impossible date."""
    for pattern, day_of in _DAY_RULES:
        match = pattern.search(text)
        if match:
            return day_of(match, today), _without(text, match)
    match = _IN_COUNT.search(text)
    if match and _without(text, match):
        return _counted(match, today), _without(text, match)
    return None


def _without(text: str, match: re.Match[str]) -> str:
    """text with the match cut out."""
    return f"{text[: match.start()]} {text[match.end() :]}".strip().replace("  ", " ")
