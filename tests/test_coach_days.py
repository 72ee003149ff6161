"""A question about a day the request counts from today is answered with the calendar's reading of the request's
own words."""

from __future__ import annotations

import datetime as dt

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.days import day_asked, gives_day
from autoagent.steps import StepKind
from autoagent.tools import make_calendar_tool

from .scripted import ScriptedChatModel, act

NOW = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.timezone.utc)  # a Tuesday


def agent_with(*replies: str) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(advisors=[Coach()], llm=llm, tools=[make_calendar_tool(lambda: NOW)]), llm


@pytest.mark.parametrize(("request_", "day"), [
    ("What is the date two weeks from today?", "two weeks from today"),
    ("What day of the week was it yesterday?", "yesterday"),
    ("What date will it be 4 days from today?", "4 days from today"),
    ("昨天是几月几号？", "昨天"),  # noqa: RUF001
    ("5天后是星期几？", "5天后"),  # noqa: RUF001
    ("What is today's date?", ""),  # no day counted from today
    ("Remind me tomorrow: write 'call mum' to todo.txt.", ""),  # a change, not a question about a day
    ("What will the weather be tomorrow?", ""),  # a question, but not about a date
    ("Which date comes first, tomorrow or next friday?", ""),  # two days
])
def test_the_day_a_question_about_a_date_counts_from_today(request_: str, day: str) -> None:
    assert day_asked(request_) == day


@pytest.mark.parametrize(("answer", "weekday", "gives"), [
    ("It will be 2026-12-15.", False, True),
    ("December 15, 2026", False, True),
    ("The date is 15 December 2026 (a Tuesday).", False, True),
    ("12月15日", False, True),
    ("2026年12月15日", False, True),
    ("It is 2026-12-16.", False, False),
    ("December 1, 2026", False, False),  # not "December 15"
    ("It will be Tuesday.", False, False),  # a weekday answers a question about a weekday only
    ("It will be Tuesday.", True, True),
    ("星期二", True, True),
    ("Tuesday or Wednesday", True, False),
])
def test_an_answer_gives_a_day_as_a_date_or_for_a_weekday_question_its_weekday(answer: str, weekday: bool,
                                                                                gives: bool) -> None:
    assert gives_day(answer, dt.date(2026, 12, 15), weekday=weekday) is gives


def test_a_finish_no_call_of_the_requests_day_supports_is_checked_with_the_calendar() -> None:
    agent, _ = agent_with(act("calendar", expression="today"), act("FINISH"), act("FINISH"),
                          "It is 2026-12-01.")

    result = agent.execute("What is the date two weeks from today?")

    checked = result.steps[1]  # the first finish: the agent reads the day itself
    assert checked.kind is StepKind.ACTION and checked.action is not None
    assert (checked.action.name, checked.action.args) == ("calendar", {"expression": "two weeks from today"})
    assert checked.decision is not None and checked.decision.thought.text.startswith("Check the day the request gives")
    assert result.finished and result.answer == "2026-12-15 (Tuesday)"  # the answer gave way to the reading


def test_an_answer_giving_the_day_a_call_read_from_the_requests_words_stands() -> None:
    agent, llm = agent_with(act("calendar", expression="yesterday"), act("FINISH"), "It was Monday.")

    result = agent.execute("What day of the week was it yesterday?")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.FINISH]
    assert result.finished and result.answer == "It was Monday."
    assert len(llm.prompts) == 3
