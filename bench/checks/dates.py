# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""Dates, weekdays, hours and spans of time in the answer; "today" is the day the task ran."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from .answers import says_number, says_regex
from .combine import either
from .reading import _WEEKDAYS
from .registry import Check, register

RUN_DAY: list[dt.date] = []


def today() -> dt.date:
    """The day a check counts "today" from: the day the task ran, else the clock's (a run may end after midnight)."""
    return RUN_DAY[-1] if RUN_DAY else dt.date.today()


def _date_forms(day: dt.date) -> list[str]:
    """The ways an answer may write `day`."""
    month = day.strftime("%B")
    return [
        day.isoformat(),
        f"{day.year}/{day.month:02d}/{day.day:02d}",
        f"{day.month}/{day.day}/{day.year}",
        f"{day.month:02d}/{day.day:02d}/{day.year}",
        f"{month} {day.day}, {day.year}",
        f"{month} {day.day} {day.year}",
        f"{day.day} {month} {day.year}",
        f"{month[:3]} {day.day}, {day.year}",
        f"{day.year}年{day.month}月{day.day}日",
        f"{day.month}月{day.day}日",
    ]


@register
def says_date(days_from_today: int) -> Check:
    """The answer gives the date `days_from_today` days after today (the day the task ran)."""

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days_from_today)
        flat = " ".join(answer.split())
        if any(form.lower() in flat.lower() for form in _date_forms(day)):
            return None
        return f"answer does not give {day.isoformat()}"

    return check


@register
def says_weekday(days_from_today: int) -> Check:
    """The answer names the weekday `days_from_today` days after today, and no other weekday."""

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days_from_today)
        named = {name for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
                 if name in answer.lower()}
        return None if named == {day.strftime("%A").lower()} else f"answer does not name {day.strftime('%A')}"

    return check


_ZH = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]


@register
def says_weekday_any(days: int) -> Check:
    """The answer names the weekday `days` days after today, in Chinese or in English."""
    english = says_weekday(days)

    def check(answer: str, workspace: Path) -> str | None:
        day = today() + dt.timedelta(days=days)
        sunday = {"星期日"} if "星期天" in answer or "周日" in answer else set()
        zh = {name for name in _ZH if name in answer} | sunday
        if zh:
            return None if zh == {_ZH[day.weekday()]} else f"answer does not name {_ZH[day.weekday()]}"
        return english(answer, workspace)

    return check


@register
def says_day(day: dt.date) -> Check:
    """The answer gives the date `day` (ISO, "March 6, 2026", "6th March 2026", "2026年3月6日" ...)."""
    month = day.strftime("%B")
    th = "th" if day.day in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    forms = [*_date_forms(day), f"{day.day}{th} {month} {day.year}", f"{month} {day.day}{th}, {day.year}",
             f"{day.day} {month[:3]} {day.year}", f"{day.year}年{day.month:02d}月{day.day:02d}日"]

    def flat(text: str) -> str:
        return " ".join(text.replace(",", " ").split()).lower()

    def check(answer: str, workspace: Path) -> str | None:
        said = flat(answer)  # "6 march 2026" must not be read out of "16 march 2026"
        if any(re.search(r"(?<!\d)" + re.escape(flat(form)), said) for form in forms):
            return None
        return f"answer does not give {day.isoformat()}"

    return check


@register
def says_day_of_month(day: dt.date) -> Check:
    """The answer gives `day`, with its year or without it ("October 30", "30th October", "10月30日")."""
    month = day.strftime("%B").lower()
    number = rf"(?<!\d){day.day}(?:st|nd|rd|th)?(?!\d)"
    without_year = rf"{month}\W*{number}|{number}\W*(?:of\W+)?{month}|(?<!\d){day.month}月{day.day}[日号]"
    return either(says_day(day), says_regex(without_year, day.isoformat()))


@register
def says_day_short(day: dt.date) -> Check:
    """The answer gives `day`, with its year or without it, its month written out or cut short ("Nov 14", "14 Nov.",
    "11月14日")."""
    month = day.strftime("%b").lower()
    number = rf"(?<!\d){day.day}(?:st|nd|rd|th)?(?!\d)"
    return either(says_day_of_month(day), says_regex(rf"\b{month}\.?\s*{number}|{number}\s*{month}\b", day.isoformat()))


_ZH_DAYS = "一二三四五六日"


_ZH_WEEKDAY = re.compile(r"(?:星期|周|礼拜)([一二三四五六日天])")


@register
def says_weekday_of(day: dt.date) -> Check:
    """The answer names the weekday of `day` (in English or Chinese) and no other weekday."""

    def check(answer: str, workspace: Path) -> str | None:
        named = {name for name in _WEEKDAYS if name in answer.lower()}
        named |= {_WEEKDAYS[_ZH_DAYS.index(m if m != "天" else "日")] for m in _ZH_WEEKDAY.findall(answer)}
        right = _WEEKDAYS[day.weekday()]
        return None if named == {right} else f"answer does not name {right} alone"

    return check


@register
def names_weekday(day: dt.date) -> Check:
    """The answer names the weekday of `day`, in English or Chinese (other weekdays may be named besides)."""
    english = _WEEKDAYS[day.weekday()]
    chinese = _ZH_DAYS[day.weekday()] + ("天" if day.weekday() == 6 else "")
    pattern = rf"\b{english}\b|(?:星期|周|礼拜)[{chinese}]"

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer, re.IGNORECASE) else f"answer does not name {english}"

    return check


@register
def says_weekday_among(right: dt.date, allowed: dt.date) -> Check:
    """The answer names the weekday of `right`, and no weekday but that one and the weekday of `allowed` (a date
    the task gives, which the answer may repeat)."""

    def check(answer: str, workspace: Path) -> str | None:
        named = {name for name in _WEEKDAYS if name in answer.lower()}
        want = _WEEKDAYS[right.weekday()]
        ok = want in named and named <= {want, _WEEKDAYS[allowed.weekday()]}
        return None if ok else f"answer does not name {want} alone"

    return check


_ZH_MONTHS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]


@register
def zh_months_named(months: list[int]) -> Check:
    """The answer names the months `months` ("4月", "四月") and no other month, leaving aside a month followed by
    another day of it ("1月1日") and a month whose 13th it says is another weekday ("1月13日是星期六")."""
    numeral = "|".join(sorted((re.escape(n) for n in _ZH_MONTHS), key=len, reverse=True))
    mention = re.compile(rf"(?<![\d一二三四五六七八九十])(\d{{1,2}}|{numeral})\s*月")
    other_day = re.compile(r"\s*(?!13)(?:\d|[一二三四五六七八九十])")
    other_weekday = re.compile(r"\s*13\s*[日号]\W{0,3}(?:是|为)?\s*(?:星期|周|礼拜)[一二三四六日天]")

    def check(answer: str, workspace: Path) -> str | None:
        named = set()
        for match in mention.finditer(answer):
            rest = answer[match.end():]
            if other_day.match(rest) or other_weekday.match(rest):
                continue
            month = match.group(1)
            named.add(int(month) if month.isdigit() else _ZH_MONTHS.index(month) + 1)
        return None if named == set(months) else f"answer names the months {sorted(named)}, not {months}"

    return check


@register
def says_duration(seconds: int) -> Check:
    """The answer gives `seconds` as minutes and seconds ("27:21", "27 min 21 s", "27 minutes and 21 seconds")."""
    minutes, rest = divmod(seconds, 60)
    return says_regex(rf"(?<![\d:]){minutes}(?::|\s*m\w*,?\s*(?:and\s*)?){rest:02d}(?![\d:])", f"{minutes}:{rest:02d}")


@register
def says_hms(seconds: int) -> Check:
    """The answer gives `seconds` as hours, minutes and seconds ("1:06:12", "1 hour 6 minutes 12 seconds", "1h 6m
    12s"), as minutes and seconds ("66:12", "66 min 12 s") or as a count of seconds."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    sep = r"[\s,]*(?:and\s*)?"
    clock = rf"(?<![\d:]){hours}:{minutes:02d}:{secs:02d}(?![\d:])"
    spelled = rf"(?<![\d:.]){hours}\s*h\w*{sep}0?{minutes}\s*m\w*{sep}0?{secs}\s*s"
    return either(says_regex(f"{clock}|{spelled}", f"{hours}:{minutes:02d}:{secs:02d}"), says_duration(seconds),
                  says_number(seconds))


@register
def says_hour(hour: int) -> Check:
    """The answer names the clock hour `hour` (13 to 23) as an hour: "13:00", "13h", "13-14", "1 pm", "1-2 pm",
    "13点"."""
    pm, after = hour - 12, hour + 1
    pattern = (rf"(?<![\d:.]){hour}(?:[:.]00|\s*h\b|\s*(?:-|–|—|to|and|until)\s*{after}\b|\s*o'?clock|\s*点)"
               rf"|(?<![\d:.]){pm}(?::00)?\s*(?:-|–|to)?\s*(?:{pm + 1}(?::00)?\s*)?p\.?m\b|\bhour\s+{hour}\b")
    return says_regex(pattern, f"{hour}:00")


@register
def says_hours_minutes(minutes: int) -> Check:
    """The answer gives a span of `minutes` as hours and minutes ("32 hours 25 minutes", "32h 25m", "32:25", with
    whole days split off or not: "1 day, 8 hours and 25 minutes") or as a count of minutes."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(minutes, 60)
    sep = r"[\s,]*(?:and\s*)?"
    hour, minute = r"\s*(?:h|hrs?|hours?)(?![a-z])", r"\s*(?:m|mins?|minutes?)(?![a-z])"
    forms = [rf"(?<![\d:.]){hours}{hour}{sep}0?{mins}{minute}", rf"(?<![\d:.]){hours}:{mins:02d}(?!\d)"]
    if days:
        forms.append(rf"(?<![\d:.]){days}\s*days?{sep}{rest // 60}{hour}{sep}0?{rest % 60}{minute}")
    return either(says_regex("|".join(forms), f"{hours}:{mins:02d}"), says_number(minutes))
