"""Advisors: a user's policy with one hook per stage of a turn changes a run's course, from Python and from an
installed package's entry point, and every verdict that does is a step naming it, in the transcript and in --json."""

from __future__ import annotations

import importlib
import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from autoagent import AutoGPT
from autoagent.advice import Advice, Advisor, ReplyConstraint, RunSetup, StandIn, TurnState, entry_point_advisors
from autoagent.checks import CheckContext, Verdict
from autoagent.errors import ConfigurationError
from autoagent.reply import ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.transcripts.reader import load_transcript

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act
from .test_agent import explode, multiply
from .test_plugins import site  # noqa: F401 (a fixture)


class NoExplosions(Advisor):
    """Refuses every call of `explode`, and tells the model a house rule after the task."""

    name = "no_explosions"

    def before_model(self, turn: TurnState) -> Advice:
        return Advice(after_task="House rule: nothing explodes.")

    def on_action(self, turn: TurnState, decision: ThoughtAndAction) -> Verdict | None:
        return Verdict.send_back("explode is not allowed here") if decision.action.name == "explode" else None


def test_an_advisor_given_in_the_options_changes_the_runs_course() -> None:
    llm = ScriptedChatModel(replies=[act("explode", text="x"), act("multiply", a=6, b=7), act("FINISH"), "42"])
    run = AutoGPT(llm, [multiply, explode], advisors=[NoExplosions()]).execute("What is 6 times 7?")
    assert run.finished and run.answer == "42"
    refused = run.steps[0]
    assert refused.kind is StepKind.REJECTED and refused.check == "no_explosions"
    assert refused.observation == "explode is not allowed here"
    assert "What is 6 times 7?\n\nHouse rule: nothing explodes." in llm.prompts[0]
    assert [step.kind for step in run.steps[1:]] == [StepKind.ACTION, StepKind.FINISH]


class Started(Advisor):
    """Keeps what each run began with, and counts its turns (a fresh count each run)."""

    name = "counter"
    runs: ClassVar[list[RunSetup]] = []

    def __init__(self, turns: int = 0) -> None:
        self.turns = turns

    def start(self, setup: RunSetup) -> Advisor:
        Started.runs.append(setup)
        return Started()

    def before_model(self, turn: TurnState) -> Advice:
        self.turns += 1
        return Advice(mentions=(f"turn {self.turns}",))


def test_each_run_has_its_own_advisor_and_advice_of_several_composes_in_order() -> None:
    Started.runs.clear()
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), "42"] * 2)
    agent = AutoGPT(llm, [multiply], advisors=[Started(), NoExplosions()])
    agent.execute("What is 6 times 7?")
    agent.execute("What is 6 times 7 again?")
    assert [setup.task for setup in Started.runs] == ["What is 6 times 7?", "What is 6 times 7 again?"]
    assert "gives turn 2, which no step has used" in llm.prompts[1]  # the step instruction names what is unused
    assert "turn 2" in llm.prompts[4] and "turn 4" not in llm.prompts[4]  # the second run's advisor counts afresh
    assert "House rule: nothing explodes." in llm.prompts[0]
    first, second = Advice(("a",), "one", ReplyConstraint("x")), Advice(("a", "b"), "two", ReplyConstraint("y"), True)
    assert first.then(second) == Advice(("a", "b"), "one\n\ntwo", ReplyConstraint("x"), True)


class CallMeansDone(Advisor):
    """A call of `multiply` with a=0 means the model is done; any call of `explode` ends the run."""

    name = "judge"

    def on_action(self, turn: TurnState, decision: ThoughtAndAction) -> Verdict | None:
        if decision.action.name == "explode":
            return Verdict.stop("nothing may explode", StopReason.STEP_FAILED)
        return Verdict.finish() if decision.action.args.get("a") == 0 else None


def test_an_advisor_may_take_a_call_as_a_finish_or_stop_the_run() -> None:
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("multiply", a=0, b=0), "It is 42."])
    run = AutoGPT(llm, [multiply, explode], advisors=[CallMeansDone()]).execute("What is 6 times 7?")
    assert run.finished and run.answer == "It is 42." and run.steps[-1].kind is StepKind.FINISH
    llm = ScriptedChatModel(replies=[act("explode", text="x"), "No answer."])
    run = AutoGPT(llm, [multiply, explode], advisors=[CallMeansDone()]).execute("What is 6 times 7?")
    assert run.stop_reason is StopReason.STEP_FAILED and run.stop_detail == "nothing may explode"
    assert run.steps[-1].check == "judge" and run.steps[-1].kind is StepKind.REJECTED


def _last_result(steps: Sequence[Step]) -> str:
    return next((step.observation for step in reversed(steps) if step.kind is StepKind.ACTION), "")


class Grounded(Advisor):
    """A finish must state the last result; a draft that is no answer is stood in for; a stopped run's answer is
    marked."""

    name = "grounded"

    def on_finish(self, context: CheckContext) -> Verdict | None:
        last = _last_result(context.steps)
        return None if last in context.answer else Verdict.send_back(f"state {last}")

    def stand_in(self, steps: Sequence[Step]) -> StandIn:
        return StandIn(_last_result(steps), final=True)

    def on_stopped(self, answer: str, task: str, steps: Sequence[Step]) -> str:
        return f"{answer} (unsure)"


def test_an_advisor_judges_a_finish_before_the_checks_and_stands_in_for_a_draft_that_is_none() -> None:
    order: list[str] = []

    def last_check(context: CheckContext) -> None:
        order.append("check")

    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), "Done.", act("FINISH"), "It is 42."])
    run = AutoGPT(llm, [multiply], advisors=[Grounded()], checks=[last_check]).execute("What is 6 times 7?")
    assert run.finished and run.answer == "It is 42." and order == ["check"]  # the check saw the second finish only
    assert run.steps[1].check == "grounded" and run.steps[1].observation == "state 42"
    unusable = '{"thought": "done", "action": "FINISH"}'
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), unusable, unusable])
    run = AutoGPT(llm, [multiply], advisors=[Grounded()]).execute("What is 6 times 7?")
    assert run.finished and run.answer == "42" and run.model_answer == unusable and run.steps[-1].check == "grounded"
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), "It is 42."])
    run = AutoGPT(llm, [multiply], advisors=[Grounded()], max_thought_steps=1).execute("What is 6 times 7?")
    assert run.stop_reason is StopReason.MAX_STEPS and run.answer == "It is 42. (unsure)"


PLUGIN = '''
    from autoagent.advice import Advisor
    from autoagent.checks import Verdict


    class Polite(Advisor):
        name = "polite"

        def on_finish(self, context):
            if "please" in context.answer.lower():
                return None
            return Verdict.stop("the answer says no please")
'''


def install_advisor(site: Path) -> None:  # noqa: F811
    """An installed distribution whose `autoagent.advisors` entry point names an Advisor class."""
    (site / "polite_advice.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    info = site / "polite_advice-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: polite_advice\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[autoagent.advisors]\npolite = polite_advice:Polite\n")
    importlib.invalidate_caches()


def test_an_advisor_from_an_entry_point_changes_the_course_and_names_its_step_in_json_and_transcript(
        site: Path, backend: FakeBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path / "home"))
    install_advisor(site)
    assert [advisor.name for advisor in entry_point_advisors()] == ["polite"]
    result = invoke(["--json", "--workspace", str(tmp_path), "Say hello"], [act("FINISH"), "Hello."], backend)
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["stop_reason"] == "unverified" and data["stop_detail"] == "the answer says no please"
    assert data["steps"][-1]["check"] == "polite"
    steps = load_transcript(data["run_id"]).steps
    assert steps[-1].check == "polite" and steps[-1].kind is StepKind.REJECTED


def test_an_entry_point_that_is_no_advisor_is_one_readable_error(site: Path) -> None:  # noqa: F811
    (site / "not_advice.py").write_text("thing = 42\n", encoding="utf-8")
    info = site / "not_advice-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: not_advice\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[autoagent.advisors]\nthing = not_advice:thing\n")
    importlib.invalidate_caches()
    with pytest.raises(ConfigurationError, match="the advisor 'thing'"):
        entry_point_advisors()
