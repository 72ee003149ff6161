"""Self-consistency: an answer stands only when the model gives it again (autoagent/consistency.py), as a check
anyone may add, drawing short answers at a temperature with a seed each."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import Field

from autoagent import AutoGPT
from autoagent.checks import CheckContext
from autoagent.coach import Coach
from autoagent.consistency import agree, agree_on_numbers, disagreeing, self_consistency
from autoagent.llm.reply_caps import sampling
from autoagent.steps import StopReason

from .scripted import ScriptedChatModel, act


@pytest.mark.parametrize(("first", "second", "same"), [
    ("Ottawa.", "The capital of Canada is Ottawa.", True),
    ("Ottawa is the capital city of Canada, in Ontario.", "Ottawa", True),
    ("Toronto.", "The capital of Canada is Ottawa.", False),
    ("366", "A leap year has 366 days.", True),
    ("365", "A leap year has 366 days.", False),
    ("1,000", "It is 1000.", True),
    ("北京", "加拿大的首都是北京市。", True),
    ("上海", "北京", False),
])
def test_two_answers_agree_when_what_one_adds_to_the_request_is_part_of_the_others(first, second, same):
    assert agree(first, second, "What is the capital of Canada? How many days has a leap year?") is same


def test_a_sample_disagreeing_with_the_draft_or_an_earlier_sample_is_named():
    assert disagreeing("It is Ottawa.", ["Ottawa", "Toronto"], "Capital of Canada?") == ["Toronto"]
    assert disagreeing("It is Ottawa.", ["Ottawa", "ottawa!"], "Capital of Canada?") == []


def test_the_check_accepts_an_answer_the_model_gives_again_and_stops_one_it_does_not():
    llm = ScriptedChatModel(replies=[act("FINISH"), "Mercury is closest to the Sun.", "Mercury", "mercury."])
    run = AutoGPT(llm=llm, tools=[], checks=[self_consistency()]).execute("Which planet is closest to the Sun?")
    assert run.finished and run.answer == "Mercury is closest to the Sun." and len(llm.calls) == 4
    assert "answer alone" in llm.prompts[2] and "answer alone" in llm.prompts[3]  # the samples' own instruction

    llm = ScriptedChatModel(replies=[act("FINISH"), "Venus is closest to the Sun.", "Mercury", "Venus"])
    run = AutoGPT(llm=llm, tools=[], checks=[self_consistency()]).execute("Which planet is closest to the Sun?")
    assert run.stop_reason is StopReason.UNVERIFIED and run.answer == "Venus is closest to the Sun."
    assert run.steps[-1].check == "self_consistency" and "did not agree" in run.steps[-1].observation


def test_a_context_around_a_given_answer_draws_no_samples_and_is_accepted():
    context = CheckContext.of("Capital of Canada?", [], "Ottawa")
    assert context.samples(2) == [] and self_consistency()(context).kind.value == "accept"
    with pytest.raises(ValueError, match="at least one sample"):
        self_consistency(0)


class _Sampled(ScriptedChatModel):
    """A scripted model that declares a temperature and a seed, and records what each call was given."""

    temperature: float = 0.0
    seed: int | None = None
    given: list[dict[str, Any]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> Any:
        self.given.append(dict(kwargs))
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_samples_are_drawn_at_a_temperature_with_a_seed_each_where_the_model_takes_them():
    llm = _Sampled(replies=[act("FINISH"), "Mercury.", "Mercury", "Mercury"])
    run = AutoGPT(llm=llm, tools=[], checks=[self_consistency()]).execute("Which planet is closest to the Sun?")
    assert run.finished
    drawn = [given for given in llm.given if "seed" in given]
    assert [given["seed"] for given in drawn] == [1, 2] and all(given["temperature"] > 0 for given in drawn)
    plain = ScriptedChatModel(replies=[])
    assert sampling(plain, 0.7, 1) is plain  # a model that declares neither answers as it always does


@pytest.mark.parametrize(("first", "second", "same"), [
    ("The total is 42.16.", "42.1648128", True),  # one rounds the other
    ("42.16", "The sum of the amounts is 42.16 dollars.", True),  # other words, the same number
    ("The total is 42.16.", "43", False),
    ("The average is 7.5.", "7", False),  # a whole number is no rounding of 7.5 that the sample shows
    ("2026-03-06", "March 6, 2026", True),
    ("There are 12 lines.", "I count 13 lines.", False),
])
def test_answers_agree_on_numbers_when_the_numbers_each_adds_are_the_same_up_to_rounding(first, second, same):
    assert agree_on_numbers(first, second, "Add up the amounts in the file.") is same


def test_an_answer_with_no_number_of_its_own_is_compared_word_by_word():
    assert agree_on_numbers("Ottawa.", "The capital is Ottawa.", "Capital of Canada?")
    assert not agree_on_numbers("Ottawa.", "12", "Capital of Canada?")


def test_the_coach_asks_again_for_a_value_a_sampling_model_worked_out_and_keeps_it_only_when_given_again():
    from .test_agent import multiply

    def run(*samples: str) -> Any:
        llm = _Sampled(replies=[act("multiply", a=6, b=7), act("FINISH"), "6 times 7 is 42.", *samples])
        return AutoGPT(llm=llm, tools=[multiply], advisors=[Coach()]).execute("What is 6 times 7?"), llm

    agreed, llm = run("42", "42.")
    assert agreed.finished and agreed.answer == "6 times 7 is 42." and len(llm.calls) == 5
    outvoted, _ = run("42", "48")  # the draft and one sample: most answers agree
    assert outvoted.finished and outvoted.answer == "6 times 7 is 42."
    disputed, _ = run("48", "45")
    assert disputed.stop_reason is StopReason.UNVERIFIED and disputed.answer == "6 times 7 is 42."
    assert disputed.steps[-1].check == "coach" and "did not agree" in disputed.steps[-1].observation


def test_the_coach_asks_nothing_again_of_a_model_that_cannot_sample():
    from .test_agent import multiply

    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), "6 times 7 is 42."])
    assert AutoGPT(llm=llm, tools=[multiply], advisors=[Coach()]).execute("What is 6 times 7?").finished
    assert len(llm.calls) == 3  # two steps and the finish prompt: no sample drawn
