"""Everyday English and Chinese date phrases, read by the calendar tool against a fixed Wednesday morning."""

from __future__ import annotations

from datetime import datetime

import pytest

from autoagent.tools import make_calendar_tool
from autoagent.tools.date_chinese import chinese_number, translate_chinese
from autoagent.tools.date_english import normalize_english

WEDNESDAY_MORNING = datetime(2024, 5, 15, 10, 0)


def resolve(expression: str) -> str:
    return make_calendar_tool(lambda: WEDNESDAY_MORNING).invoke({"expression": expression})


ENGLISH = [
    ("10 days from today", "2024-05-25 (Saturday)"),
    ("in 10 days from today", "2024-05-25 (Saturday)"),  # a count from today said twice, as models write it
    ("today + 10 days", "2024-05-25 (Saturday)"),
    ("today plus ten days", "2024-05-25 (Saturday)"),
    ("today - 3 days", "2024-05-12 (Sunday)"),
    ("today + 7", "2024-05-22 (Wednesday)"),  # a bare number added to a day counts days
    ("now() + 7", "2024-05-22T10:00 (Wednesday)"),  # as a program writes it
    ("7 days from now", "2024-05-22T10:00 (Wednesday)"),
    ("now - 2 hours", "2024-05-15T08:00 (Wednesday)"),
    ("in 3 days", "2024-05-18T10:00 (Saturday)"),
    ("3 days ago", "2024-05-12T10:00 (Sunday)"),
    ("the day after tomorrow", "2024-05-17 (Friday)"),
    ("the day before yesterday", "2024-05-13 (Monday)"),
    ("two weeks from today", "2024-05-29 (Wednesday)"),
    ("a week from tomorrow", "2024-05-23 (Thursday)"),
    ("3 days after tomorrow", "2024-05-19 (Sunday)"),
    ("a month from today", "2024-06-15 (Saturday)"),
    ("in twenty-one days", "2024-06-05T10:00 (Wednesday)"),
    ("an hour ago", "2024-05-15T09:00 (Wednesday)"),
    ("half an hour from now", "2024-05-15T10:30 (Wednesday)"),
    ("Friday", "2024-05-17 (Friday)"),
    ("this Friday", "2024-05-17 (Friday)"),
    ("this coming friday", "2024-05-17 (Friday)"),
    ("next Friday", "2024-05-24 (Friday)"),  # ctparse: the Friday after the coming one
    ("this Monday", "2024-05-20 (Monday)"),  # ctparse: the coming Monday
    ("last Tuesday", "2024-05-14 (Tuesday)"),  # the latest one before today
    ("last Thursday", "2024-05-09 (Thursday)"),
    ("friday next week", "2024-05-24 (Friday)"),
    ("wednesday this week", "2024-05-15 (Wednesday)"),
    ("monday last week", "2024-05-06 (Monday)"),
    ("tomorrow at 3pm", "2024-05-16T15:00 (Thursday)"),
    ("the day after tomorrow at 3pm", "2024-05-17T15:00 (Friday)"),
    ("at 9am the day after tomorrow", "2024-05-17T09:00 (Friday)"),
    ("in 3 days at 5pm", "2024-05-18T17:00 (Saturday)"),
    ("7 in the evening", "2024-05-15T19:00 (Wednesday)"),
    ("12am", "2024-05-16T00:00 (Thursday)"),
    ("jan 5 2025", "2025-01-05 (Sunday)"),
    ("tonight", "2024-05-15T17:00 to 2024-05-15T20:00 (Wednesday evening)"),
    ("this afternoon", "2024-05-15T12:00 to 2024-05-15T17:00 (Wednesday afternoon)"),
    ("tomorrow night", "2024-05-16T19:00 to 2024-05-16T22:00 (Thursday night)"),
    ("next week", "from 2024-05-20 (Monday) to 2024-05-26 (Sunday)"),
    ("this weekend", "from 2024-05-18 (Saturday) to 2024-05-19 (Sunday)"),
    ("next month", "from 2024-06-01 (Saturday) to 2024-06-30 (Sunday)"),
    ("last month", "from 2024-04-01 (Monday) to 2024-04-30 (Tuesday)"),
    ("next year", "from 2025-01-01 (Wednesday) to 2025-12-31 (Wednesday)"),
]

CHINESE = [
    ("今天", "2024-05-15 (Wednesday)"),
    ("明天", "2024-05-16 (Thursday)"),
    ("后天", "2024-05-17 (Friday)"),
    ("大后天", "2024-05-18 (Saturday)"),
    ("昨天", "2024-05-14 (Tuesday)"),
    ("前天", "2024-05-13 (Monday)"),
    ("大前天", "2024-05-12 (Sunday)"),
    ("星期五", "2024-05-17 (Friday)"),
    ("周日", "2024-05-19 (Sunday)"),
    ("礼拜天", "2024-05-19 (Sunday)"),
    ("下周五", "2024-05-24 (Friday)"),
    ("下星期二", "2024-05-21 (Tuesday)"),
    ("下週五下午3點", "2024-05-24T15:00 (Friday)"),  # traditional characters
    ("这周三", "2024-05-15 (Wednesday)"),
    ("这周一", "2024-05-13 (Monday)"),
    ("本周日", "2024-05-19 (Sunday)"),
    ("上周一", "2024-05-06 (Monday)"),
    ("下下周一", "2024-05-27 (Monday)"),
    ("10天后", "2024-05-25T10:00 (Saturday)"),
    ("十天后", "2024-05-25T10:00 (Saturday)"),
    ("二十天以后", "2024-06-04T10:00 (Tuesday)"),
    ("3天前", "2024-05-12T10:00 (Sunday)"),
    ("两周后", "2024-05-29T10:00 (Wednesday)"),
    ("三个月后", "2024-08-15T10:00 (Thursday)"),
    ("半小时后", "2024-05-15T10:30 (Wednesday)"),
    ("两个小时前", "2024-05-15T08:00 (Wednesday)"),
    ("下午3点", "2024-05-15T15:00 (Wednesday)"),
    ("早上8点", "2024-05-16T08:00 (Thursday)"),  # already past today
    ("晚上9点半", "2024-05-15T21:30 (Wednesday)"),
    ("中午12点", "2024-05-15T12:00 (Wednesday)"),
    ("上午10点15分", "2024-05-15T10:15 (Wednesday)"),
    ("下午3点一刻", "2024-05-15T15:15 (Wednesday)"),
    ("明天下午3点", "2024-05-16T15:00 (Thursday)"),
    ("明晚8点", "2024-05-16T20:00 (Thursday)"),
    ("后天晚上7点", "2024-05-17T19:00 (Friday)"),
    ("下周五下午3点", "2024-05-24T15:00 (Friday)"),
    ("周五晚上8点", "2024-05-17T20:00 (Friday)"),
    ("3天后下午5点", "2024-05-18T17:00 (Saturday)"),
    ("2025年3月5日", "2025-03-05 (Wednesday)"),
    ("十二月二十五日下午两点", "2024-12-25T14:00 (Wednesday)"),
    ("明天是几号", "2024-05-16 (Thursday)"),
    ("今晚", "2024-05-15T17:00 to 2024-05-15T20:00 (Wednesday evening)"),
    ("明天早上", "2024-05-16T06:00 to 2024-05-16T09:00 (Thursday morning)"),
    ("下周末", "from 2024-05-25 (Saturday) to 2024-05-26 (Sunday)"),
    ("下个月", "from 2024-06-01 (Saturday) to 2024-06-30 (Sunday)"),
    ("上个月", "from 2024-04-01 (Monday) to 2024-04-30 (Tuesday)"),
    ("明年", "from 2025-01-01 (Wednesday) to 2025-12-31 (Wednesday)"),
]


@pytest.mark.parametrize(("expression", "expected"), ENGLISH + CHINESE)
def test_everyday_phrases_resolve_against_a_fixed_now(expression: str, expected: str) -> None:
    assert resolve(expression) == expected


def test_the_table_covers_enough_phrases_in_both_languages() -> None:
    assert len(ENGLISH) >= 25 and len(CHINESE) >= 25


# Known gaps: each is refused with a reason, never guessed.
@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("the monday after next", "did not understand: after next"),
        ("first monday of next month", "did not understand: of next month"),
        ("next month on the 5th", "did not understand"),
        ("1 month from jan 31", "did not understand: 1 month"),  # counting from a named date
        ("the day after tomorrow at midnight", "does not fall on 2024-05-17 (Friday)"),
        ("下个月5号", "did not understand"),  # a day of the month without its month
        ("5号", "did not understand: 号"),
        ("两天半后", "did not understand"),
        ("凌晨", ""),  # the small hours without a time
        ("明天晚上12点", "did not understand"),  # midnight at the end of tomorrow: refused rather than misread
    ],
)
def test_known_gaps_are_refused_plainly(expression: str, reason: str) -> None:
    with pytest.raises(ValueError, match="could not understand the date/time") as raised:
        resolve(expression)
    assert reason in str(raised.value)


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("十", 10), ("十五", 15), ("二十", 20), ("二十五", 25), ("两", 2), ("一百零五", 105), ("二〇二五", 2025)],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert chinese_number(numeral) == value


def test_text_without_chinese_passes_through_untouched() -> None:
    assert translate_chinese("next Friday at 3pm") == "next Friday at 3pm"


def test_english_number_words_become_digits() -> None:
    assert normalize_english("In Twenty-One days and a week") == "in 21 days and 1 week"
