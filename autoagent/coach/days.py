"""A question about a day the request counts from today ("What date is it two weeks from today?", "昨天是几号")
is answered with the date tool's reading of the request's own words: a finish that no call reading those words
supports is checked by a step of the agent's own, and an answer that does not give that day gives way to it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ..steps import Step
from .request import read_request
from .verify import ran
from .words import ZH, entries, one_of

# a question about a weekday ("which weekday", "星期几")
_ASKS_WEEKDAY = re.compile(one_of("asks.weekday"), re.I)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
# the days of the week, Monday first: English names stand alone, Chinese ones follow a word for "week" ("星期一")
_WEEKDAYS = entries("weekdays", "en")
_ZH_WEEKDAYS = {name: index for index, names in enumerate(entries("weekdays", "zh")) for name in names}
_ZH_WEEKDAY = re.compile(rf"{one_of('weekday_words', ZH)}({'|'.join(map(re.escape, _ZH_WEEKDAYS))})")
_MONTHS = [names[0] for names in entries("months", "en")]  # a month's full name, as an answer writes it


def day_asked(task: str) -> str:
    """The day counted from today ("two weeks from today", "昨天") that a question about a date or a weekday
    gives, when it gives exactly one; empty otherwise, and for a request to change something."""
    return read_request(task).day


def reading(day: str, steps: Sequence[Step]) -> Step | None:
    """The last successful call that took `day` whole as an argument and gave a date: the tool's reading of it."""
    for step in reversed(ran(steps)):
        if step.success and step.action is not None and _ISO.search(step.observation) and any(
                isinstance(value, str) and value.strip().casefold() == day.casefold()
                for value in step.action.args.values()):
            return step
    return None


def answer_for_day(answer: str, task: str, steps: Sequence[Step]) -> str:
    """`answer`, when it gives the day the date tool read from the request's words (or no tool read them); else
    that reading itself ("2026-11-30 (Monday)")."""
    day = day_asked(task)
    read = reading(day, steps) if day else None
    match = _ISO.search(read.observation) if read is not None else None
    if read is None or match is None:
        return answer
    date = dt.date(*map(int, match.groups()))
    asks_weekday = bool(_ASKS_WEEKDAY.search(task))  # over the whole task, as it always was: not only the request
    return answer if gives_day(answer, date, weekday=asks_weekday) else read.observation.strip()


def gives_day(answer: str, day: dt.date, weekday: bool = False) -> bool:
    """Whether `answer` gives `day` as a date in a common form ("2026-11-30", "November 30, 2026", "11月30日"),
    or, for a question about a `weekday`, names its weekday and no other."""
    flat = " ".join(answer.split()).casefold()
    month = _MONTHS[day.month - 1]
    forms = (day.isoformat(), f"{day.year}/{day.month:02d}/{day.day:02d}", f"{day.month}/{day.day}/{day.year}",
             f"{day.month:02d}/{day.day:02d}/{day.year}", f"{month} {day.day}", f"{day.day} {month}",
             f"{month[:3]} {day.day}", f"{day.month}月{day.day}日", f"{day.month}月{day.day}号")
    if any(re.search(rf"(?<![0-9/-]){re.escape(form)}(?![0-9/-])", flat) for form in forms):
        return True
    if not weekday:
        return False
    named = {index for index, names in enumerate(_WEEKDAYS) if any(name in flat for name in names)}
    named |= {_ZH_WEEKDAYS[name] for name in _ZH_WEEKDAY.findall(answer)}
    return named == {day.weekday()}
