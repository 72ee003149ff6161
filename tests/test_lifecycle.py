"""One run lifecycle for both agents: observers hear every run (a plan too), options group the constructor's rest."""

from __future__ import annotations

import dataclasses

import pytest
from langchain_core.tools import tool

from autoagent import AgentOptions, AutoGPT, PlanAndExecute
from autoagent.errors import ConfigurationError, ModelUnavailableError
from autoagent.events import RunObserver
from autoagent.loop.budget import Budget
from autoagent.steps import RunResult, Step, StepKind, StopReason

from .scripted import ScriptedChatModel, act


@tool
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


@tool
def multiply(a: int, b: int) -> str:
    """Multiply two integers."""
    return str(a * b)


class Recorder(RunObserver):
    """Every event, in order, by name."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.plans: list[list[str]] = []

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        self.events.append("start")

    def on_thinking(self, number: int, max_steps: int) -> None:
        self.events.append("thinking")

    def on_plan(self, plan: list[str]) -> None:
        self.events.append("plan")
        self.plans.append(plan)

    def on_tool_start(self, action: object, decision: object = None) -> None:
        self.events.append("tool")

    def on_step(self, step: Step) -> None:
        self.events.append("step")

    def on_run_end(self, run: RunResult) -> None:
        self.events.append(f"end:{run.stop_reason.value}")


class Broken(ScriptedChatModel):
    def _generate(self, *args: object, **kwargs: object):  # type: ignore[override]
        raise ConnectionError("connection refused")


def test_an_observer_hears_the_plan_and_plan_mode_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    recorder = Recorder()
    llm = ScriptedChatModel(replies=['["shout"]', '{"text": "hi"}'])
    agent = PlanAndExecute(llm, [shout], options=AgentOptions(observers=[recorder]))
    run = agent.execute("hi")
    assert run.finished and run.answer == "HI"
    assert recorder.plans == [["shout"]]
    assert recorder.events == ["start", "thinking", "plan", "tool", "step", "end:finished"]
    assert capsys.readouterr() == ("", "")  # the plan is reported, not printed


def test_a_failed_plan_step_is_a_typed_stop() -> None:
    @tool
    def refuse(text: str) -> str:
        """Always fails."""
        raise ValueError("no")

    llm = ScriptedChatModel(replies=['["refuse", "shout"]', '{"text": "hi"}'])
    run = PlanAndExecute(llm, [refuse, shout]).execute("hi")
    assert run.stop_reason is StopReason.STEP_FAILED and run.answer == "" and len(run.steps) == 1
    assert run.stop_detail.startswith("step 1 (refuse): ")


def test_on_step_and_on_plan_keywords_still_work() -> None:
    steps: list[Step] = []
    plans: list[list[str]] = []
    llm = ScriptedChatModel(replies=['["shout"]', '{"text": "hi"}'])
    PlanAndExecute(llm, [shout], on_step=steps.append, on_plan=plans.append).execute("hi")
    assert plans == [["shout"]] and [step.observation for step in steps] == ["HI"]

    seen: list[int] = []
    recorder = Recorder()
    llm = ScriptedChatModel(replies=[act("multiply", a=2, b=3), act("FINISH"), "6"])
    agent = AutoGPT(llm=llm, tools=[multiply], on_step=lambda step: seen.append(step.number), observers=[recorder])
    assert agent.run("2*3") == "6"
    assert seen == [1, 2] and recorder.events.count("step") == 2  # the function and the observers both hear


def test_options_and_keywords_shape_the_agent_alike() -> None:
    llm = ScriptedChatModel(replies=[])
    budget = Budget(max_tokens=100)
    grouped = AutoGPT(llm, [multiply], options=AgentOptions(lang="zh", memory_window=2, budget=budget))
    loose = AutoGPT(llm, [multiply], lang="zh", memory_window=2, budget=budget)
    for agent in (grouped, loose):
        assert agent.options.lang == "zh" and agent.memory_window == 2 and agent.budget is budget
    assert grouped.options == loose.options
    mixed = AutoGPT(llm, [multiply], options=AgentOptions(memory_window=2), memory_window=3)
    assert mixed.memory_window == 3  # a keyword wins over the options it is given with
    with pytest.raises(dataclasses.FrozenInstanceError):
        grouped.options.lang = "en"  # type: ignore[misc]


def test_an_unknown_keyword_is_refused_by_name() -> None:
    llm = ScriptedChatModel(replies=[])
    with pytest.raises(TypeError, match="AutoGPT\\(\\) got an unexpected keyword argument 'colour'"):
        AutoGPT(llm, [multiply], colour="red")
    with pytest.raises(TypeError, match="'budget'"):  # plan mode has no budget
        PlanAndExecute(llm, [shout], budget=Budget())


def test_the_default_role_comes_from_the_prompts_language() -> None:
    llm = ScriptedChatModel(replies=['["shout"]', '{"text": "hi"}'])
    PlanAndExecute(llm, [shout], lang="zh").execute("hi")
    assert llm.prompts[0].startswith("你是AutoAgent，一个使用工具完成用户任务的助手。")
    agent = AutoGPT(ScriptedChatModel(replies=[]), [multiply])
    assert agent.identity["ai_role"] == "an assistant that completes the user's task with tools."
    assert AutoGPT(ScriptedChatModel(replies=[]), [multiply], agent_role="a poet.").identity["ai_role"] == "a poet."


def test_a_plan_error_is_told_to_the_model_in_its_language() -> None:
    llm = ScriptedChatModel(replies=['["teleport"]', '["shout"]', '{"text": "hi"}'])
    PlanAndExecute(llm, [shout], lang="zh").execute("hi")
    assert "未知的工具 teleport" in llm.prompts[1] and "可用的工具" in llm.prompts[1]


@pytest.mark.parametrize("make", [
    lambda observer: AutoGPT(Broken(replies=[]), [multiply], observers=[observer]),
    lambda observer: PlanAndExecute(Broken(replies=[]), [shout], observers=[observer]),
])
def test_both_agents_end_a_failed_run_alike(make: object) -> None:
    recorder = Recorder()
    agent = make(recorder)  # type: ignore[operator]
    with pytest.raises(ModelUnavailableError):
        agent.execute("hi")
    assert agent.last_run.stop_reason is StopReason.ERROR and "connection refused" in agent.last_run.stop_detail
    assert recorder.events[0] == "start" and recorder.events[-1] == "end:error"
    assert agent.last_run.seconds > 0


def test_only_a_resumable_agent_resumes() -> None:
    done = Step(1, StepKind.ACTION, "", None, "6")
    with pytest.raises(ConfigurationError, match="plan-mode run cannot be resumed"):
        PlanAndExecute(ScriptedChatModel(replies=[]), [shout]).execute("hi", resume=[done])
    agent = AutoGPT(ScriptedChatModel(replies=[act("multiply", a=2, b=3), act("FINISH"), "6"]), [multiply])
    run = agent.execute("2*3", resume=[done])
    assert agent.resumable and run.steps[0] is done and [step.number for step in run.steps] == [1, 2, 3]


def test_the_agent_protocol_is_importable_where_it_was() -> None:
    from autoagent.settings import Agent

    agent: Agent = AutoGPT(ScriptedChatModel(replies=[]), [multiply])
    assert agent.last_run is None and not PlanAndExecute.resumable
