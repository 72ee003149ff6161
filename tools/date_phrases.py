"""Natural-language dates resolved with ctparse: what the calendar tool answers (imported when it is first used,
since ctparse takes ~0.1 s to import). Chinese is translated and everyday English normalised first, and the
rules in date_rules.py name the days and periods ctparse cannot."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from ctparse import ctparse_gen
from ctparse.ctparse import _preprocess_string  # pinned ctparse: its match spans index this text
from ctparse.time.postprocess_latent import apply_postprocessing_rules
from ctparse.types import Artifact, Duration, DurationUnit, Interval, Time, pod_hours

from .date_chinese import translate_chinese
from .date_english import normalize_english
from .date_format import WEEKDAYS, format_day, format_moment, format_span
from .date_rules import add_months, period_span, split_day

MAX_EXPRESSION_CHARS = 200
# Words ctparse may leave outside its match without changing the meaning.
_FILLER_WORDS = {"at", "on", "in", "the", "of", "by"}
# What may surround a bare duration, and which way it points from now.
_DURATION_FORMS = {("in",): 1, ("from", "now"): 1, ("later",): 1, ("ago",): -1}
_POD_HOURS = {**pod_hours, "noon": (12, 12)}  # ctparse spreads noon over 11:00-13:00
_YEAR = re.compile(r"\b(19|20)\d\d\b")


def _unparseable(expression: str, why: str = "") -> ValueError:
    """The error the model sees when a phrase cannot be resolved with confidence."""
    reason = f" ({why})" if why else ""
    return ValueError(
        f"could not understand the date/time {expression!r}{reason}; try a form like 'tomorrow', "
        "'next friday at 3pm', 'in 3 days', 'march 5 at 10:30', '2025-03-05 14:00' or '明天下午3点'"
    )


def _leftover_words(text: str, start: int, end: int) -> tuple[str, ...]:
    """The words of text outside the matched span [start, end)."""
    return tuple(re.findall(r"\w+", f"{text[:start]} {text[end:]}".lower()))


def _shift(now: datetime, duration: Duration, sign: int) -> datetime:
    """now moved by a ctparse Duration in the given direction."""
    if duration.unit is DurationUnit.MONTHS:
        return add_months(now, sign * duration.value)
    days = {DurationUnit.DAYS: 1, DurationUnit.NIGHTS: 1, DurationUnit.WEEKS: 7}.get(duration.unit)
    if days is not None:
        return now + timedelta(days=sign * duration.value * days)
    minutes = 60 if duration.unit is DurationUnit.HOURS else 1
    return now + timedelta(minutes=sign * duration.value * minutes)


def _format_time(time: Time) -> str:
    """Render a resolved ctparse Time: a date-time, a date, or a date with a part of the day."""
    if time.year is None or time.month is None or time.day is None:
        raise ValueError("it names no specific day")
    day = date(time.year, time.month, time.day)  # ValueError for an impossible date
    weekday = WEEKDAYS[day.weekday()]
    if time.hour is not None:
        return format_moment(datetime(day.year, day.month, day.day, time.hour, time.minute or 0))
    if time.POD is not None and time.POD in _POD_HOURS:
        first, last = _POD_HOURS[time.POD]
        if first == last:
            return f"{day}T{first:02d}:00 ({weekday} {time.POD})"
        return f"{day}T{first:02d}:00 to {day}T{last:02d}:00 ({weekday} {time.POD})"
    return format_day(day)


def _format_interval(interval: Interval) -> str:
    """Render a ctparse Interval, either end of which may be open ("after tomorrow")."""
    start = _format_time(interval.t_from) if interval.t_from is not None else None
    end = _format_time(interval.t_to) if interval.t_to is not None else None
    if start and end:
        return format_span(start, end)
    if start or end:
        return f"after {start}" if start else f"before {end}"
    raise ValueError("it names no specific day")


def _times(resolution: object) -> list[Time]:
    """The Time parts of a ctparse resolution (itself, or an Interval's ends)."""
    parts = [resolution, getattr(resolution, "t_from", None), getattr(resolution, "t_to", None)]
    return [part for part in parts if isinstance(part, Time)]


def _best_parse(text: str, reference: datetime) -> Artifact | None:
    """ctparse's highest-scoring reading of text, without resolving bare times of day yet."""
    # ctparse_gen rather than ctparse(), which logs a WARNING to stderr for every failed phrase;
    # latent_time=False keeps the match span that the latent-time post-processing would drop.
    parses = [parse for parse in ctparse_gen(text, reference, latent_time=False) if parse]
    return max(parses, key=lambda parse: parse.score).resolution if parses else None


def _render(found: Artifact, reference: datetime, text: str, day: date | None) -> str:
    """Describe a Time or Interval that matched the whole phrase (on day, when given); ValueError says why not."""
    # ctparse's "first"/"last" parts of day mean earliest/latest possible; "last monday" becomes one.
    if any(time.POD and time.POD.endswith(("first", "last")) for time in _times(found)):
        raise ValueError("'first'/'last' are ambiguous here; give the date, or say e.g. '3 days ago'")
    resolved = apply_postprocessing_rules(reference, found)  # a bare time of day: its next occurrence
    years = {time.year for time in _times(resolved)}
    if any(int(match.group(0)) not in years for match in _YEAR.finditer(text)):
        raise ValueError("a four-digit number was read as a time of day, not a year; write YYYY-MM-DD")
    if day is not None and any(
        (time.year, time.month, time.day) != (day.year, day.month, day.day) for time in _times(resolved)
    ):
        raise ValueError(f"'{text}' does not fall on {format_day(day)}")
    if isinstance(resolved, Time):
        return _format_time(resolved)
    if isinstance(resolved, Interval):
        return _format_interval(resolved)
    raise ValueError(f"unexpected reading {resolved}")


def _read(text: str, reference: datetime, day: date | None) -> str:
    """ctparse's reading of all of text; with a day named by a rule, text may only add a time of that day."""
    found = _best_parse(text, reference)
    if found is None:
        raise ValueError("")  # nothing in it reads as a date: no reason to add
    leftover = _leftover_words(text, found.mstart, found.mend)
    if isinstance(found, Duration):
        sign = _DURATION_FORMS.get(leftover)
        if sign is None or day is not None:
            raise ValueError("")
        return format_moment(_shift(reference, found, sign))
    if set(leftover) - _FILLER_WORDS:
        raise ValueError(f"did not understand: {' '.join(leftover)}")
    return _render(found, reference, text, day)


def _resolve_normalized(text: str, reference: datetime) -> str:
    """A period or a day the rules name (with any time of day read by ctparse on it), else ctparse's reading."""
    span = period_span(text, reference.date())
    if span is not None:
        return format_span(format_day(span[0]), format_day(span[1]))
    anchored = split_day(text, reference.date())
    if anchored is None:
        return _read(text, reference, None)
    day, rest = anchored
    return _read(rest, datetime.combine(day, datetime.min.time()), day) if rest else format_day(day)


def resolve(expression: str, now: datetime) -> str:
    """Resolve a natural-language date/time relative to now, or raise ValueError; never guess."""
    text = _preprocess_string(expression)
    if not text:
        raise ValueError("the date/time expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ValueError(f"the date/time expression is longer than {MAX_EXPRESSION_CHARS} characters")
    reference = now.replace(tzinfo=None, second=0, microsecond=0)
    try:
        return _resolve_normalized(normalize_english(translate_chinese(text)), reference)
    except ValueError as error:
        raise _unparseable(expression, str(error)) from None
