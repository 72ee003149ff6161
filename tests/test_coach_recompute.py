"""The coach's self-consistency of a computation (autoagent/coach/recompute.py): an answer whose number a calculator
call gave stands only when calculator inputs the model writes again, without seeing that call, come to it too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autoagent import AutoGPT
from autoagent.acting.toolbox import Toolbox
from autoagent.checks import CheckContext, VerdictKind
from autoagent.coach import Coach
from autoagent.coach.drafts import Drafts
from autoagent.coach.recompute import input_of, program_of, recompute_verdict, rerun_verdict
from autoagent.prompts import PromptTemplateBuilder
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.tools import calculator, file_tools, make_python_tool
from autoagent.tools.sandbox import bwrap_problem

from .scripted import act
from .test_consistency import _Sampled

TASK = "What do 250 boxes at 1.12 euros each cost?"


def called(number: int, name: str, observation: str, **args: str) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="t"), action=Action(name=name, args=args))
    return Step(number, StepKind.ACTION, "", decision, observation, success=True)


def drafting(steps: list[Step], tools: Toolbox, *inputs: str) -> Drafts:
    """The drafts of a finish whose model writes `inputs`, in order, each time it is asked to work the task out."""

    def draw(prompt: str, count: int, max_tokens: int, first_seed: int) -> list[str]:
        return list(inputs)[first_seed - 1:first_seed - 1 + count]

    return Drafts(PromptTemplateBuilder(), tools, 512).begin(CheckContext(TASK, steps, lambda: "", draw_replies=draw))


def context(*inputs: str, steps: list[Step] | None = None) -> Drafts:
    steps = steps if steps is not None else [called(1, "calculator", "280", expression="250 * 1.12")]
    return drafting(steps, Toolbox([calculator]), *inputs)


TOOLS = Toolbox([calculator])


def test_a_calculated_answer_stands_when_inputs_written_again_come_to_its_number() -> None:
    assert recompute_verdict(context("250 * 1.12", "112 * 250 / 100"), TOOLS, "It comes to 280 euros.") is None
    assert recompute_verdict(context("250*1.12 = 280", "```\n1.12 * 250\n```"), TOOLS, "280") is None
    stopped = recompute_verdict(context("250 / 1.12 / 2", "250 + 1.12"), TOOLS, "It comes to 280 euros.")
    assert stopped is not None and stopped.kind is VerdictKind.STOP and stopped.reason is StopReason.UNVERIFIED
    assert stopped.note == ("worked out again from the same inputs, the calculator came to 111.607142857143 | "
                            "251.12, not 280")
    one = recompute_verdict(context("the price times 1.12", "250 * 1.12"), TOOLS, "280")
    assert one is None  # one of the two came to it: with the run's own, two of three ways agree
    broken = recompute_verdict(context("the price times 1.12", "250 / 1.12 / 2"), TOOLS, "280")
    assert broken is not None and "no number | 111.607142857143" in broken.note  # one that cannot run confirms nothing
    assert recompute_verdict(context("the price", "times 1.12"), TOOLS, "280") is None  # no number to compare


def test_an_answer_resting_on_no_calculation_is_not_worked_out_again() -> None:
    assert recompute_verdict(context("1"), TOOLS, "The capital is Ottawa.") is None  # no number
    assert recompute_verdict(context("1"), TOOLS, "It comes to 281 euros.") is None  # no calculator result shows 281
    read = [called(1, "read_file", "price: 280", path="p.txt")]
    assert recompute_verdict(context("1", steps=read), TOOLS, "280") is None  # read, not calculated
    assert recompute_verdict(context("1"), Toolbox([]), "280") is None  # no calculator to work it out with
    assert recompute_verdict(context(), TOOLS, "280") is None  # a run that cannot draw inputs


def test_a_rounded_answer_stands_for_the_exact_number_it_rounds() -> None:
    steps = [called(1, "calculator", "42.1648128", expression="13.4 * 3.1466278")]
    assert recompute_verdict(context("13.4 * 3.1466278", "3.1466278 * 13.4", steps=steps), TOOLS, "42.16") is None


@pytest.mark.parametrize(("reply", "expression"), [
    ("250 * 1.12", "250 * 1.12"),
    ("`250 * 1.12`", "250 * 1.12"),
    ("```\n250 * 1.12\n```", "250 * 1.12"),
    ('{"expression": "250 * 1.12"}', "250 * 1.12"),
    ("250 * 1.12 = 280", "250 * 1.12"),
    ("250 \u00d7 1.12 \u00f7 2", "250 * 1.12 / 2"),
])
def test_the_input_is_read_out_of_how_a_model_writes_it(reply: str, expression: str) -> None:
    assert input_of(reply, "expression") == expression


def run(tmp_path: Path, *inputs: str) -> tuple[Any, _Sampled]:
    llm = _Sampled(replies=[act("calculator", expression="250 * 1.12"), act("FINISH"), "They cost 280 euros.",
                            *inputs, "280", "280 euros"])
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[calculator, *file_tools(tmp_path)])
    return agent.execute(TASK), llm


def test_the_coach_has_a_sampling_model_work_a_calculated_answer_out_again_without_showing_the_calculation(
        tmp_path: Path) -> None:
    agreed, llm = run(tmp_path, "250 * 1.12", "1.12 * 250")
    assert agreed.finished and agreed.answer == "They cost 280 euros."
    drafted = llm.prompts[3:5]
    assert all("calculator" in prompt and "250 * 1.12" not in prompt and "280" not in prompt for prompt in drafted)
    assert all("1234*5678" not in prompt for prompt in drafted)  # no example of the tool's description to copy
    disputed, _ = run(tmp_path, "250 - 1.12", "250 + 1.12")
    assert disputed.stop_reason is StopReason.UNVERIFIED and disputed.answer == "They cost 280 euros."
    assert disputed.steps[-1].check == "coach" and "came to 248.88 | 251.12" in disputed.steps[-1].observation


needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason="the python tool's sandbox (.ci/run installs it)")


def programs(*drawn: str, printed: str = "The total is 280", answer_steps: list[Step] | None = None) -> Drafts:
    steps = answer_steps or [called(1, "python", printed, code="print(...)")]
    return drafting(steps, Toolbox([]), *drawn)


@needs_bwrap
def test_numbers_a_program_printed_stand_when_a_program_written_again_prints_them(tmp_path: Path) -> None:
    tools = Toolbox([make_python_tool(tmp_path)])
    again = "```python\nprint(250 * 1.12)\n```"  # 280.00000000000006: a float's noise is the same number
    assert rerun_verdict(programs("print(250 + 1.12)", again), tools, "It costs 280 euros.") is None
    stopped = rerun_verdict(programs("print(250 / 8)", "print(251)"), tools, "It costs 280 euros.")
    assert stopped is not None and stopped.kind is VerdictKind.STOP and stopped.reason is StopReason.UNVERIFIED
    assert stopped.note == "programs written again printed 31.25 | 251, not 280"
    assert rerun_verdict(programs("raise SystemExit(1)", "print('none')"), tools, "280") is None  # nothing to compare
    writes = "open('total.txt', 'w').write('281')\nprint(281)"
    assert rerun_verdict(programs(writes, "print(279)"), tools, "280") is not None  # a program that writes: no number
    assert not (tmp_path / "total.txt").exists()


@needs_bwrap
def test_every_number_of_a_day_must_be_printed_again(tmp_path: Path) -> None:
    tools = Toolbox([make_python_tool(tmp_path)])
    day = programs("print('2027-02-17')", printed="2027-02-18")
    assert rerun_verdict(day, tools, "The trial ends on 2027-02-18.") is not None  # 2027 and 02 alone do not agree
    assert rerun_verdict(programs("print('2027-02-18')", printed="2027-02-18"), tools, "2027-02-18") is None
    assert rerun_verdict(day, tools, "The capital is Ottawa.") is None  # no number of a program's
    assert rerun_verdict(day, Toolbox([calculator]), "2027-02-18") is None  # no python tool


@pytest.mark.parametrize(("reply", "code"), [
    ("```python\nprint(1)\n```", "print(1)"),
    ("Here it is:\n```py\nx = 2\nprint(x)\n```\nDone.", "x = 2\nprint(x)"),
    ("print(3)", "print(3)"),
])
def test_the_program_is_read_out_of_a_reply(reply: str, code: str) -> None:
    assert program_of(reply) == code


@needs_bwrap
@pytest.mark.parametrize(("drawn", "finished"), [
    (("```python\nprint(1.12 * 250)\n```", "```python\nprint(250 + 1.12)\n```"), True),
    (("```python\nprint(250 + 1.12)\n```", "```python\nprint(250 - 1.12)\n```"), False),
])
def test_under_the_code_protocol_a_printed_number_stands_when_a_program_written_again_prints_it(
        tmp_path: Path, drawn: tuple[str, str], finished: bool) -> None:
    own = "Thought: multiply\n```python\nprint(250 * 1.12)\n```"
    llm = _Sampled(replies=[own, "Final Answer: They cost 280 euros.", *drawn, "280", "280 euros"])
    run = AutoGPT(advisors=[Coach()], protocol="code", llm=llm, tools=[make_python_tool(tmp_path)]).execute(TASK)
    assert run.finished is finished and run.answer == "They cost 280 euros."
    asked = [prompt for prompt in llm.prompts if "```python block" in prompt]
    assert len(asked) == 2 and all("print(250 * 1.12)" not in prompt for prompt in asked)  # not shown the run's own
    if not finished:
        assert run.stop_reason is StopReason.UNVERIFIED
        assert "printed 251.12 | 248.88, not 280" in run.steps[-1].observation


@needs_bwrap
def test_programs_written_again_start_afresh_without_the_names_the_run_s_programs_left(tmp_path: Path) -> None:
    own = "Thought: multiply\n```python\ncost = 250 * 1.12\nprint(cost)\n```"
    drawn = ("```python\nprint(cost)\n```", "```python\nprint(251)\n```")  # the first would agree, given `cost`
    llm = _Sampled(replies=[own, "Final Answer: They cost 280 euros.", *drawn, "280", "280 euros"])
    run = AutoGPT(advisors=[Coach()], protocol="code", llm=llm, tools=[make_python_tool(tmp_path)]).execute(TASK)
    assert run.steps[0].observation == "280.0"
    assert not run.finished and run.stop_reason is StopReason.UNVERIFIED
