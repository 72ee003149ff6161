"""Days as an answer writes them out ("6 March 2026", "March 6, 2026", "2026年3月6日", "2026-03-06"), read as
dates, so a day an answer states can be checked against the days the tools showed, whatever its form."""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from .words import LANGUAGES, entries, phrase

_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_HAN = re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")


@cache
def _month_forms() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    """The day-month-year and month-day-year patterns, and each month name's number, from words.toml."""
    names: dict[str, int] = {}
    for language in LANGUAGES:
        for number, forms in enumerate(entries("months", language), start=1):
            names.update((form, number) for form in forms)
    month = "|".join(phrase(name) for name in sorted(names, key=len, reverse=True)) or r"(?!)"
    day_first = re.compile(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({month})\.?,?\s+(\d{{4}})(?!\d)", re.I)
    month_first = re.compile(rf"({month})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?!\d)", re.I)
    return day_first, month_first, names


def _day(year: str, month: str | int, day: str) -> dt.date | None:
    """The date, or None for one that does not exist (2026-02-30)."""
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def dates_in(text: str) -> list[tuple[str, dt.date]]:
    """Each day `text` states, as written and as a date, in order of where it stands."""
    day_first, month_first, names = _month_forms()
    found: list[tuple[int, str, dt.date | None]] = []
    found += [(m.start(), m.group(0), _day(m.group(1), m.group(2), m.group(3))) for m in _ISO.finditer(text)]
    found += [(m.start(), m.group(0), _day(m.group(1), m.group(2), m.group(3))) for m in _HAN.finditer(text)]
    found += [(m.start(), m.group(0), _day(m.group(3), names[m.group(2).lower()], m.group(1)))
              for m in day_first.finditer(text)]
    found += [(m.start(), m.group(0), _day(m.group(3), names[m.group(1).lower()], m.group(2)))
              for m in month_first.finditer(text)]
    return [(written, day) for _, written, day in sorted(found, key=lambda item: item[0]) if day is not None]


def unshown_dates(answer: str, evidence: str) -> list[str]:
    """The days `answer` states, as it writes them, that `evidence` shows in no form."""
    shown = {day for _, day in dates_in(evidence)}
    return list(dict.fromkeys(written for written, day in dates_in(answer) if day not in shown))
