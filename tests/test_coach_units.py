"""A final answer fits the units a request gives and asks for, where dimensional analysis settles it."""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.settled import check_arithmetic, check_percent
from autoagent.coach.units import check_units
from autoagent.steps import StepKind, StopReason
from autoagent.tools import calculator

from .scripted import ScriptedChatModel, act

SETTLED = [  # request, the unit asked for, how its quantities give it, the value
    ("How many seconds are there in 9 days?", "seconds", "9 days", 777600),
    ("A train travels 342 km in 3 hours. What is its average speed in km per hour?", "km per hour",
     "342 km / 3 hours", 114),
    ("How many minutes are in 2 weeks?", "minutes", "2 weeks", 20160),
    ("Convert 5 km to meters.", "meters", "5 km", 5000),
    ("Convert 90 km/h to m/s.", "m/s", "90 km/h", 25),
    ("A 600 km trip at 80 km per hour takes how many hours?", "hours", "600 km / 80 km per hour", 7.5),
    ("How far does a car go in 2.5 hours at 60 km/h, in km?", "km", "2.5 hours * 60 km/h", 150),
    ("I walk 5 km a day for 3 days. How many km do I walk?", "km", "5 km a day * 3 days", 15),
    ("How many days are in 36 hours?", "days", "36 hours", 1.5),
    ("How many grams are in 2.5 kg?", "grams", "2.5 kg", 2500),
    ("How many inches in 3 feet?", "inches", "3 feet", 36),
    ("How many minutes is 1,440 seconds?", "minutes", "1440 seconds", 24),
    ("9天有多少秒？", "秒", "9天", 777600),  # noqa: RUF001  (Chinese punctuation, as people write it)
    ("一辆车3小时行驶了240公里，每小时多少公里？", "公里每小时", "240公里 / 3小时", 80),  # noqa: RUF001
    # things counted are units of their own
    ("A box holds 24 eggs. How many eggs are in 17 boxes?", "eggs", "24 eggs per box * 17 boxes", 408),
    ("How many legs do 5 spiders have? A spider has 8 legs.", "legs", "5 spiders * 8 legs per spider", 40),
    ("A truck carries 40 crates per trip. How many crates in 6 trips?", "crates", "40 crates per trip * 6 trips",
     240),
    ("How many wheels do 7 cars have if each car has 4 wheels?", "wheels", "7 cars * 4 wheels per car", 28),
    ("A hen lays 5 eggs a week. How many eggs does it lay in 3 weeks?", "eggs", "5 eggs per week * 3 weeks", 15),
]

UNSETTLED = [  # the units do not settle the answer: left alone
    "What is 1234 * 5678 + 17?",
    "How many minutes do 3 films of 2 hours last?",  # a bare number: a count that multiplies
    "How many hours are in 3 days and 4 hours?",  # a sum: no product of the quantities is a time
    "What is 15% of 80 km in km?",
    "What date is 10 days from today?",  # no unit asked for
    "Write the number of seconds in 2 hours into a file named s.txt",
    "How many minutes is 2 hours? Save it to km.txt",  # two units asked for
    "Read numbers.txt and tell me the sum of the numbers in it.",
    "I have 12 cookies and eat 3 cookies. How many cookies are left?",  # a difference: no product is cookies
    "How many apples do I have if I buy 3 apples and then 5 apples?",
    "How many Markdown files are in the workspace?",
    "How many eggs are in 17 and 23 boxes?",  # "17 and": a word that counts nothing
]


@pytest.mark.parametrize(("request_", "asked", "way", "value"), SETTLED)
def test_the_units_a_request_gives_and_asks_for_settle_the_value(request_: str, asked: str, way: str,
                                                                 value: float) -> None:
    check = check_units(request_)

    assert check is not None
    assert (check.asked, check.way) == (asked, way)
    assert check.value == pytest.approx(value)


@pytest.mark.parametrize("request_", UNSETTLED)
def test_units_that_do_not_settle_the_answer_are_left_alone(request_: str) -> None:
    assert check_units(request_) is None


def test_the_conversions_needed_are_named() -> None:
    assert check_units("How many seconds are there in 9 days?").factors == ("1 day = 86400 seconds",)  # type: ignore[union-attr]
    assert check_units("How many days are in 36 hours?").factors == ("1 day = 24 hours",)  # type: ignore[union-attr]
    assert check_units("Convert 90 km/h to m/s.").factors == (  # type: ignore[union-attr]
        "1 kilometer = 1000 meters", "1 hour = 3600 seconds")


def test_an_answer_fits_when_it_states_the_value_as_written_or_rounded() -> None:
    seconds = check_units("How many seconds are there in 9 days?")
    trip = check_units("A 600 km trip at 70 km per hour takes how many hours?")
    assert seconds is not None and trip is not None

    assert seconds.fits("There are 777,600 seconds in 9 days.") and seconds.fits("777600.0")
    assert not seconds.fits("The final answer is 32400 seconds.")
    assert trip.fits("About 8.57 hours.") and trip.fits("8.6 hours")
    assert not trip.fits("8.5 hours") and not trip.fits("It takes 7 hours.")


@tool
def multiply(a: float, b: float) -> str:
    """Multiply two numbers."""
    return f"{a * b:g}"


def agent_with(*replies: str, tools: list | None = None) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(advisors=[Coach()], llm=llm, tools=tools or [calculator]), llm  # type: ignore[arg-type]


def test_an_answer_that_does_not_fit_the_units_is_checked_with_the_arithmetic_they_give() -> None:
    agent, llm = agent_with(act("calculator", expression="3600 * 9"), act("FINISH"), "It is 32400 seconds.",
                            act("FINISH"), "It is 777600 seconds.")

    result = agent.execute("How many seconds are there in 9 days?")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.FINISH]
    checked = result.steps[1]
    assert (checked.action.name, checked.action.args) == ("calculator", {"expression": "9 * 86400"})  # type: ignore[union-attr]
    assert checked.decision.thought.text == "Check the units: 9 days in seconds is 9 * 86400, with the calculator."  # type: ignore[union-attr]
    assert "-> 777600" in llm.prompts[3]  # the model decides its finish with the checked result in view
    assert result.finished and result.answer == "It is 777600 seconds."


def test_a_second_answer_that_does_not_fit_the_units_gives_way_to_the_checked_result() -> None:
    agent, _ = agent_with(act("calculator", expression="342 * 3"), act("FINISH"), "It is 1026 km per hour.",
                          act("FINISH"), "It is 1026 km per hour.")

    result = agent.execute("A train travels 342 km in 3 hours. What is its average speed in km per hour?")

    assert result.steps[1].action.args == {"expression": "342 / 3"}  # type: ignore[union-attr]
    assert result.finished and result.answer == "114"


def test_without_a_calculator_the_model_is_told_how_the_units_give_the_answer_once() -> None:
    agent, llm = agent_with(act("multiply", a=3600, b=9), act("FINISH"), "It is 32400 seconds.",
                            act("FINISH"), "It is 32400 seconds.", tools=[multiply])

    result = agent.execute("How many seconds are there in 9 days?")

    note = result.steps[1].observation
    assert result.steps[1].kind is StepKind.REJECTED and note in llm.prompts[3]
    assert 'would say "It is 32400 seconds."' in note and "that is 9 days (1 day = 86400 seconds)" in note
    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop() == "the answer was not verified: it does not give 9 days in seconds"


@pytest.mark.parametrize(("request_", "way", "value"), [
    ("What is 3.5 percent of 12000?", "3.5 percent of 12000", 420),
    ("What is 15% of 2480?", "15% of 2480", 372),
    ("计算 250 的 20%。", "250 的 20%", 50),
    ("250的百分之20是多少", "250的百分之20", 50),
])
def test_a_percentage_of_a_number_settles_the_value(request_: str, way: str, value: float) -> None:
    check = check_percent(request_)
    assert check is not None and check.way == way and check.value == pytest.approx(value)


@pytest.mark.parametrize("request_", ["Take 20% of 3550, then divide that amount by 4.",
                                      "A jacket costs 80 dollars and is 25% off.", "What is 7 percent?"])
def test_a_percentage_in_a_longer_request_is_left_alone(request_: str) -> None:
    assert check_percent(request_) is None


def test_an_answer_that_is_not_the_percentage_asked_for_is_checked_with_the_calculator() -> None:
    agent, _ = agent_with(act("calculator", expression="12000 * 0.035 / 100"), act("FINISH"), "It is 4.2.",
                          act("FINISH"), "It is 420.")

    result = agent.execute("What is 3.5 percent of 12000?")

    checked = result.steps[1]
    assert (checked.action.name, checked.action.args, checked.observation) == (  # type: ignore[union-attr]
        "calculator", {"expression": "12000 * 3.5 / 100"}, "420")
    assert result.finished and result.answer == "It is 420."


@pytest.mark.parametrize(("request_", "expression", "value"), [
    ("What is (48 + 52) * 7?", "(48 + 52) * 7", 700),
    ("What is 1234 * 5678 + 17?", "1234 * 5678 + 17", 7006669),
    ("计算 1234 * 5678 + 17 的结果。", "1234 * 5678 + 17", 7006669),
    ("What is the cube root of 3375?", "3375 ^ (1/3)", 15),
    ("What is the square root of 20736?", "20736 ^ (1/2)", 144),
    ("What is 37 squared?", "37 ^ 2", 1369),
    ("What is 7 to the power of 6?", "7 ^ 6", 117649),
    ("What is 2 to the 10th power?", "2 ^ 10", 1024),
    ("3375 的立方根是多少？", "3375 ^ (1/3)", 15),  # noqa: RUF001
    ("2 的 10 次方是多少", "2 ^ 10", 1024),
])
def test_arithmetic_the_request_spells_out_settles_the_value(request_: str, expression: str, value: float) -> None:
    check = check_arithmetic(request_)
    assert check is not None and check.expression == expression and check.value == pytest.approx(value)


@pytest.mark.parametrize("request_", [
    "What is 2 to the 10th power, minus 24?",  # another number: the request goes on
    "Compute 123 * 45, then add 6789 to that result.",
    "What date is 2026-12-01 plus 3 days?",  # a date, not a subtraction
    "Call 555-1234 about the order.",
    "Calculate 2 to the power of 16 and save the number in power.txt.",  # a write: its answer need not say it
    "What is 3 + 4 or 5 * 6?",  # two: which is meant is not settled
])
def test_arithmetic_in_a_longer_request_is_left_alone(request_: str) -> None:
    assert check_arithmetic(request_) is None


def test_an_answer_that_misreads_the_requests_own_arithmetic_is_checked_with_the_calculator() -> None:
    agent, _ = agent_with(act("calculator", expression="48 + 52 * 7"), act("FINISH"), "The result is 412.",
                          act("FINISH"), "The result is 700.")

    result = agent.execute("What is (48 + 52) * 7?")

    checked = result.steps[1]
    assert (checked.action.name, checked.action.args, checked.observation) == (  # type: ignore[union-attr]
        "calculator", {"expression": "(48 + 52) * 7"}, "700")
    assert "Check the request's own arithmetic: (48 + 52) * 7" in checked.decision.thought.text  # type: ignore[union-attr]
    assert result.finished and result.answer == "The result is 700."


def test_an_answer_that_divides_what_a_count_multiplies_is_checked_with_the_calculator() -> None:
    agent, _ = agent_with(act("calculator", expression="24 / 17"), act("FINISH"), "About 1.41176470588235 eggs.",
                          act("FINISH"), "There are 408 eggs.")

    result = agent.execute("A box holds 24 eggs. How many eggs are in 17 boxes?")

    checked = result.steps[1]
    assert (checked.action.name, checked.action.args, checked.observation) == (  # type: ignore[union-attr]
        "calculator", {"expression": "24 * 17"}, "408")
    assert result.finished and result.answer == "There are 408 eggs."
