"""A question about a day the request counts from today ("What date is it two weeks from today?", "昨天是几号")
is answered with the date tool's reading of the request's own words: a finish that no call reading those words
supports is checked by a step of the agent's own, and an answer that does not give that day gives way to it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ..steps import Step
from .verify import counted_day, mentions, ran
from .writes import asks_for_change

# a question about a date or a weekday: "what date", "which day", "what is the date", "几号", "星期几"
_ASKS_DAY = re.compile(r"\b(?:what|which)\s+(?:date|day|weekday)\b|\bwhat\s+is\s+the\s+date\b"
                       r"|\bwhen\s+(?:is|was|will)\b|几号|几月几|星期几|周几|礼拜几|哪一?天|日期", re.I)
_ASKS_WEEKDAY = re.compile(r"\bday\s+of\s+the\s+week\b|\bweekday\b|星期几|周几|礼拜几", re.I)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_ZH_WEEKDAY = re.compile(r"(?:星期|周|礼拜)([一二三四五六日天])")


def day_asked(task: str) -> str:
    """The day counted from today ("two weeks from today", "昨天") that a question about a date or a weekday
    gives, when it gives exactly one; empty otherwise, and for a request to change something."""
    request = task.strip().split("\n\n")[0]
    if asks_for_change(request) or not _ASKS_DAY.search(request):
        return ""
    days = [item for item in mentions(task) if counted_day(item)]
    return days[0] if len(days) == 1 else ""


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
    return answer if gives_day(answer, date, weekday=bool(_ASKS_WEEKDAY.search(task))) else read.observation.strip()


def gives_day(answer: str, day: dt.date, weekday: bool = False) -> bool:
    """Whether `answer` gives `day` as a date in a common form ("2026-11-30", "November 30, 2026", "11月30日"),
    or, for a question about a `weekday`, names its weekday and no other."""
    flat = " ".join(answer.split()).casefold()
    month = day.strftime("%B").casefold()
    forms = (day.isoformat(), f"{day.year}/{day.month:02d}/{day.day:02d}", f"{day.month}/{day.day}/{day.year}",
             f"{day.month:02d}/{day.day:02d}/{day.year}", f"{month} {day.day}", f"{day.day} {month}",
             f"{month[:3]} {day.day}", f"{day.month}月{day.day}日", f"{day.month}月{day.day}号")
    if any(re.search(rf"(?<![0-9/-]){re.escape(form)}(?![0-9/-])", flat) for form in forms):
        return True
    if not weekday:
        return False
    named = {index for index, name in enumerate(_WEEKDAYS) if name in flat}
    named |= {_ZH_WEEKDAYS.index(char) if char != "天" else 6 for char in _ZH_WEEKDAY.findall(answer)}
    return named == {day.weekday()}
