"""Checks of a finish, the public interface: from AgentOptions, a --checks-module file and plan mode; each verdict
that changes a run's course is a step naming its check, and a replaced answer keeps the model's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoagent import AgentOptions, AutoGPT
from autoagent.checks import CheckContext, NamedCheck, Verdict, load_checks_module
from autoagent.errors import ConfigurationError
from autoagent.plan_mode import PlanAndExecute
from autoagent.steps import StepKind, StopReason
from autoagent.tools import calculator

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act


def needs_a_number(context: CheckContext) -> Verdict:
    """Sends an answer with no digit back once, then stops the run."""
    if any(char.isdigit() for char in context.answer):
        return Verdict.accept()
    if context.sent_back:
        return Verdict.stop("still no number in the answer")
    return Verdict.send_back("Give the number itself.")


def test_a_check_sends_the_answer_back_with_its_note_then_accepts_the_next() -> None:
    llm = ScriptedChatModel(replies=[act("calculator", expression="6*7"), act("FINISH"), "It is done.",
                                     act("FINISH"), "It is 42."])
    agent = AutoGPT(llm=llm, tools=[calculator], options=AgentOptions(checks=[needs_a_number]))

    run = agent.execute("What is 6*7?")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.FINISH]
    assert run.steps[1].check == "needs_a_number" and run.steps[1].observation == "Give the number itself."
    assert "Give the number itself." in llm.prompts[3]  # the model read the note
    assert run.finished and run.answer == "It is 42."


def test_a_check_that_stops_ends_the_run_unverified_with_the_answer_shown() -> None:
    llm = ScriptedChatModel(replies=[act("FINISH"), "Done.", act("FINISH"), "Done again."])
    run = AutoGPT(llm=llm, tools=[calculator], checks=[needs_a_number]).execute("What is 6*7?")
    assert run.stop_reason is StopReason.UNVERIFIED and run.stop_detail == "still no number in the answer"
    assert run.answer == "Done again." and run.steps[-1].check == "needs_a_number"


def test_a_check_that_replaces_the_answer_keeps_the_models_own() -> None:
    def in_capitals(context: CheckContext) -> Verdict:
        return Verdict.accept(context.answer.upper(), why="house style")

    llm = ScriptedChatModel(replies=[act("FINISH"), "canberra"])
    run = AutoGPT(llm=llm, tools=[], checks=[in_capitals]).execute("Capital of Australia?")
    assert run.finished and run.answer == "CANBERRA" and run.model_answer == "canberra"
    assert run.steps[-1].check == "in_capitals" and run.steps[-1].observation == "house style: CANBERRA"


def test_a_check_can_have_the_agent_run_a_tool_first() -> None:
    def worked_out(context: CheckContext) -> Verdict:
        if any(step.action is not None and step.action.name == "calculator" for step in context.steps):
            return Verdict.accept()
        return Verdict.run_tool("calculator", {"expression": "6*7"}, thought="work it out first")

    llm = ScriptedChatModel(replies=[act("FINISH"), "Guess: 40", act("FINISH"), "It is 42."])
    run = AutoGPT(llm=llm, tools=[calculator], checks=[worked_out]).execute("What is 6*7?")
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.FINISH]
    assert run.steps[0].check == "worked_out" and run.steps[0].observation == "42"
    assert run.answer == "It is 42."


def test_a_plain_function_returning_false_sends_back_and_true_accepts() -> None:
    answers = iter([False, True])
    llm = ScriptedChatModel(replies=[act("FINISH"), "a", act("FINISH"), "b"])
    run = AutoGPT(llm=llm, tools=[], checks=[lambda context: next(answers)]).execute("say something")
    assert [step.kind for step in run.steps] == [StepKind.REJECTED, StepKind.FINISH] and run.answer == "b"
    bad = NamedCheck("bad", lambda context: "yes")  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="check bad returned str"):
        bad.review(CheckContext.of("t", [], "a"))


def test_plan_mode_runs_the_checks_on_the_last_tools_output() -> None:
    def not_forty_two(context: CheckContext) -> Verdict:
        return Verdict.stop("42 is not allowed") if context.answer == "42" else Verdict.accept()

    llm = ScriptedChatModel(replies=['["calculator"]', '{"expression": "6*7"}'])
    run = PlanAndExecute(llm, [calculator], checks=[not_forty_two]).execute("What is 6*7?")
    assert run.stop_reason is StopReason.UNVERIFIED and run.answer == "42"
    assert run.steps[-1].kind is StepKind.REJECTED and run.steps[-1].check == "not_forty_two"


CHECKS_FILE = '''
from autoagent.checks import Verdict

def short_answers(context):
    return Verdict.accept() if len(context.answer) <= 10 else Verdict.stop("the answer is too long")

CHECKS = [short_answers]
'''


def test_a_checks_module_from_the_command_line_judges_the_finish(backend: FakeBackend, tmp_path: Path) -> None:
    module = tmp_path / "my_checks.py"
    module.write_text(CHECKS_FILE, encoding="utf-8")
    result = invoke(["--json", "--checks-module", str(module), "--workspace", str(tmp_path), "Say hello"],
                    [act("FINISH"), "Hello there, how are you today?"], backend)
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["stop_reason"] == "unverified" and data["steps"][-1]["check"] == "short_answers"
    assert data["stop_detail"] == "the answer is too long"


def test_a_checks_module_without_checks_is_one_readable_error(tmp_path: Path) -> None:
    module = tmp_path / "none.py"
    module.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="defines no CHECKS list"):
        load_checks_module(module)
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('oops')\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"cannot load checks from .*RuntimeError: oops"):
        load_checks_module(broken)
