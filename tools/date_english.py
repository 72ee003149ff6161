"""Everyday English date phrasing rewritten into the plainer forms the date rules and ctparse read."""

from __future__ import annotations

import re
from collections.abc import Callable

from .date_format import MONTHS

_UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBER_WORD = re.compile(rf"\b(?:({'|'.join(_TENS)})(?:[ -]({'|'.join(_UNITS[1:10])}))?|({'|'.join(_UNITS)}))\b")
_UNIT_WORDS = r"(?:minute|hour|day|night|week|fortnight|month|year)s?"
_MONTH_WORD = r"(?P<month>" + "|".join(f"{name[:3].lower()}(?:{name[3:].lower()})?" for name in MONTHS) + r")\.?"
_ORDINAL = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"


def _number(match: re.Match[str]) -> str:
    """A number word, or a tens-and-units pair, as digits."""
    tens, units, single = match.groups()
    if single:
        return str(_UNITS.index(single))
    return str(_TENS[tens] + (_UNITS.index(units) if units else 0))


def _iso_date(match: re.Match[str]) -> str:
    """'jan 5 2025' or '5 jan 2025' as '2025-01-05' (ctparse reads a trailing year as a time of day)."""
    month = next(index for index, name in enumerate(MONTHS, 1) if name.lower().startswith(match["month"][:3]))
    return f"{match['year']}-{month:02d}-{int(match['day']):02d}"


def _years_as_months(match: re.Match[str]) -> str:
    """'2 years' as '24 months', which ctparse can shift by."""
    return f"{int(match[1]) * 12} months"


# Applied in order; each is (pattern, replacement).
_REWRITES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (_NUMBER_WORD, _number),
    (re.compile(r"\bhalf an hour\b"), "30 minutes"),
    (re.compile(rf"\b(?:a|an|one)\s+(?={_UNIT_WORDS}\b)"), "1 "),
    (re.compile(r"\b(\d+) fortnights?\b"), lambda match: f"{int(match[1]) * 2} weeks"),
    (re.compile(r"\b(\d+) years?\b"), _years_as_months),
    (re.compile(rf"\b{_MONTH_WORD} {_ORDINAL},? (?P<year>(?:19|20)\d\d)\b"), _iso_date),
    (re.compile(rf"\b{_ORDINAL} (?:of )?{_MONTH_WORD},? (?P<year>(?:19|20)\d\d)\b"), _iso_date),
    # "in 10 days from today", "today + 10 days", "now plus 2 weeks": a count from today, said twice or as a sum
    (re.compile(rf"\bin (\d+ {_UNIT_WORDS}) (from|after) (today|now)\b"), r"\1 \2 \3"),
    (re.compile(r"\b(today|now) ?\( ?\)"), r"\1"),  # "now() + 7", as a program would write it
    (re.compile(rf"\b(today|now) ?([-+]|plus|minus) ?(\d+)\b(?! ?{_UNIT_WORDS}\b)"), r"\1 \2 \3 days"),  # days
    (re.compile(rf"\b(today|now) ?(?:\+|plus) ?(\d+ {_UNIT_WORDS})\b"), r"\2 from \1"),
    (re.compile(rf"\b(today|now) ?(?:-|minus) ?(\d+ {_UNIT_WORDS})\b"), r"\2 before \1"),
    (re.compile(rf"\b(\d+ {_UNIT_WORDS}) (?:from|after) now\b"), r"in \1"),  # from now: the time of day kept
    (re.compile(rf"\b(\d+ {_UNIT_WORDS}) before now\b"), r"\1 ago"),
    (re.compile(r"\bthis (morning|afternoon|evening|night)\b"), r"today \1"),
    (re.compile(r"\bthis coming\b"), "this"),
    (re.compile(r"\b(\d{1,2}(?::\d\d)?) (?:o'clock )?in the morning\b"), r"\1am"),
    (re.compile(r"\b(\d{1,2}(?::\d\d)?) (?:o'clock )?(?:in the (?:afternoon|evening)|at night)\b"), r"\1pm"),
    (re.compile(r"\b12(:00)?\s*am\b"), "0:00"),  # ctparse reads 12am as noon
    (re.compile(r"\b12:(\d\d)\s*am\b"), r"0:\1"),
)


def normalize_english(text: str) -> str:
    """Lower-case text with number words as digits and a few phrasings ctparse misreads rewritten."""
    text = text.lower()
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return re.sub(r"\s+", " ", text).strip()
