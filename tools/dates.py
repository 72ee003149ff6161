"""Date tools: resolve English and Chinese date phrases (with ctparse, in date_phrases.py), and tell the current
date and time."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

from collections.abc import Callable
from datetime import datetime

from langchain_core.tools import BaseTool, tool

from .date_format import WEEKDAYS

Clock = Callable[[], datetime]


def local_now() -> datetime:
    """The current local time, timezone-aware."""
    return datetime.now().astimezone()


def resolve(expression: str, now: datetime) -> str:
    """Resolve a natural-language date/time relative to now (or arithmetic on dates it writes), or raise
    ValueError; never guess."""
    from .date_math import date_arithmetic

    worked_out = date_arithmetic(expression)
    if worked_out is not None:
        return worked_out
    from .date_phrases import resolve as resolve_phrase

    return resolve_phrase(expression, now)


def make_calendar_tool(now: Clock = local_now) -> BaseTool:
    """Build the calendar tool, resolving relative phrases against the given clock."""

    @tool(parse_docstring=True)
    def calendar(expression: str) -> str:
        """Resolve a date/time phrase to an ISO date-time and its weekday, or work out arithmetic on dates.

        Understands phrases like "tomorrow", "next friday at 3pm", "in 3 days", "the day after tomorrow",
        "2 weeks from today", "march 5 at 10:30", "明天下午3点", "下周五", "10天后"; a date plus or minus
        days or weeks ("2031-07-04 + 10 days"), and the days between two dates ("2031-07-04 to 2031-08-01").

        Args:
            expression: A date or time in English or Chinese words, relative to now.
        """
        return resolve(expression, now())

    calendar.metadata = {"side_effects": False}
    return calendar


def make_current_datetime_tool(now: Clock = local_now) -> BaseTool:
    """Build the current_datetime tool reading the given clock."""

    @tool
    def current_datetime() -> str:
        """Return the current local date and time (ISO 8601, with UTC offset) and the weekday."""
        moment = now()
        return f"{moment.isoformat(timespec='seconds')} ({WEEKDAYS[moment.weekday()]})"

    current_datetime.metadata = {"side_effects": False}
    return current_datetime


calendar = make_calendar_tool()
current_datetime = make_current_datetime_tool()
