"""Chinese date phrases (明天下午3点, 下周五, 10天后) rewritten into the English the date rules and ctparse read."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from .date_format import MONTHS, WEEKDAYS

_HAN = re.compile(r"[\u4e00-\u9fff]")
_DIGITS = {
    "零": 0, "\u3007": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip
_NUMERAL = re.compile("[零\u3007一二两三四五六七八九十百]+")
_RELATIONS = {"下下": "the {} after next", "下": "next {}", "这": "this {}", "本": "this {}", "上": "last {}"}
_RELATION = r"(?P<relation>下下|下|这|本|上)"
_WEEK_WORD = r"(?:周|星期|礼拜)"
_UNITS = {"天": "days", "日": "days", "周": "weeks", "星期": "weeks", "礼拜": "weeks", "个月": "months", "年": "years",
          "小时": "hours", "钟头": "hours", "分钟": "minutes"}  # fmt: skip
_AFTERNOON = ("下午", "傍晚", "晚上", "夜里", "夜间")
_PARTS_OF_DAY = {
    "早上": "morning", "早晨": "morning", "清晨": "morning", "上午": "morning", "中午": "noon",
    "下午": "afternoon", "傍晚": "evening", "晚上": "evening", "夜里": "night", "夜间": "night",
}  # fmt: skip
_YEARS = {"明": "next year", "今": "this year", "去": "last year"}
# Traditional characters of the date words, as their simplified forms.
_SIMPLIFIED = str.maketrans("後週禮兩個這點時鐘頭號", "后周礼两个这点时钟头号")


def chinese_number(numeral: str) -> int:
    """二十五 -> 25, 两 -> 2, 二〇二五 -> 2025."""
    if "十" not in numeral and "百" not in numeral:
        return int("".join(str(_DIGITS[char]) for char in numeral))
    total = current = 0
    for char in numeral:
        if char in "十百":
            total += (current or 1) * (10 if char == "十" else 100)
            current = 0
        else:
            current = _DIGITS[char]
    return total + current


def _weekday(match: re.Match[str]) -> str:
    """下周五 -> 'friday next week'; 星期天 -> 'sunday'."""
    day = match["day"]
    index = int(day) - 1 if day.isdigit() else "一二三四五六日".index("日" if day == "天" else day)
    name = WEEKDAYS[index].lower()
    relation = match["relation"]
    return f" {name} {_RELATIONS[relation].format('week')} " if relation else f" {name} "


def _weekend(match: re.Match[str]) -> str:
    """周末 -> 'this weekend'; 下周末 -> 'next weekend'."""
    return f" {_RELATIONS[match['relation'] or '这'].format('weekend')} "


def _period(unit: str) -> Callable[[re.Match[str]], str]:
    """下个月 -> 'next month' (for the given English unit)."""
    return lambda match: f" {_RELATIONS[match['relation']].format(unit)} "


def _duration(match: re.Match[str]) -> str:
    """10天后 -> 'in 10 days'; 3个小时前 -> '3 hours ago'; 半小时后 -> 'in 30 minutes'."""
    count, unit = match["count"], _UNITS[match["unit"]]
    if not count and not match["half"]:  # 明天后: no count, not a duration
        return match[0]
    if match["half"]:  # 半小时, 2个半小时: only hours have a half we can count in minutes
        count, unit = str(int(count or 0) * 60 + 30), "minutes"
    return f" in {count} {unit} " if match["direction"] in ("后", "以后", "之后") else f" {count} {unit} ago "


def _clock(match: re.Match[str]) -> str:
    """下午3点 -> 'at 15:00'; 晚上9点半 -> 'at 21:30'; a bare 8点 is read on the 24-hour clock."""
    part, hour, minute = match["part"], int(match["hour"]), match["minute"] or match["colon"] or "0"
    minutes = {"半": 30, "1刻": 15, "3刻": 45}.get(minute) or int(minute)
    if part in _AFTERNOON and hour == 12:
        return " at 24:00 " if part != "下午" else " at 12:00 "  # 晚上12点 ends the day: refused, not misread
    if part in _AFTERNOON or (part == "中午" and hour < 11):
        hour += 12 if hour < 12 else 0
    elif part in ("凌晨", "半夜", "早上", "早晨", "清晨", "上午") and hour == 12:
        hour = 0
    return f" at {hour:02d}:{minutes:02d} "


# Applied in order; each is (pattern, replacement).
_REWRITES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"(?:是|为)?(?:几月几[号日]|几[号日]|(?:星期|周|礼拜)几|哪一?天|什么(?:日子|时候|日期))|[?!。]"), " "),
    (re.compile(r"([今明昨])晚"), r"\1天晚上"),
    (re.compile(r"([今明])早"), r"\1天早上"),
    (re.compile(r"现在"), " now "),
    (re.compile(rf"{_RELATION}?个?{_WEEK_WORD}末"), _weekend),
    (re.compile(rf"{_RELATION}?个?{_WEEK_WORD}(?P<day>[一二三四五六日天1-7])"), _weekday),
    (re.compile(rf"{_RELATION}个?{_WEEK_WORD}"), _period("week")),
    (re.compile(rf"{_RELATION}个?月"), _period("month")),
    (re.compile(r"([明今去])年"), lambda match: f" {_YEARS[match[1]]} "),
    (_NUMERAL, lambda match: str(chinese_number(match[0]))),
    (re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]"), lambda m: f" {m[1]}-{int(m[2]):02d}-{int(m[3]):02d} "),
    (re.compile(r"(\d{1,2})月(\d{1,2})[日号]"), lambda m: f" {MONTHS[int(m[1]) - 1].lower()} {m[2]} "),
    (
        re.compile(
            r"(?P<count>\d+)?个?(?P<half>半)?个?(?P<unit>天|日|周|星期|礼拜|个月|年|小时|钟头|分钟)"
            r"(?P<direction>以后|之后|后|以前|之前|前)"
        ),
        _duration,
    ),
    (re.compile(r"大后天"), " 3 days from today "),
    (re.compile(r"大前天"), " 3 days before today "),
    (re.compile(r"后天"), " the day after tomorrow "),
    (re.compile(r"前天"), " the day before yesterday "),
    (re.compile(r"明[天日儿]"), " tomorrow "),
    (re.compile(r"今[天日儿]"), " today "),
    (re.compile(r"昨[天日儿]"), " yesterday "),
    (
        re.compile(
            r"(?P<part>凌晨|半夜|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间)?(?P<hour>\d{1,2})"
            r"(?:[点时]钟?(?P<minute>1刻|3刻|半|\d{1,2})?分?整?|:(?P<colon>\d\d))"
        ),
        _clock,
    ),
    (re.compile("|".join(_PARTS_OF_DAY)), lambda match: f" {_PARTS_OF_DAY[match[0]]} "),
    (re.compile(r"[的在是]"), " "),
)


def translate_chinese(text: str) -> str:
    """Chinese date words in text as English ones; text without Chinese comes back unchanged."""
    if not _HAN.search(text):
        return text
    text = unicodedata.normalize("NFKC", text).translate(_SIMPLIFIED)
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return re.sub(r"\s+", " ", text).strip()
