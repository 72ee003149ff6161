"""Plan-and-execute: the plan is asked for once, shown, validated, then run as a pipe of tools."""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from autoagent import PlanAndExecute
from autoagent.steps import StopReason

from .scripted import ScriptedChatModel


@tool
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


@tool
def exclaim(text: str) -> str:
    """Add an exclamation mark."""
    return text + "!"


@tool
def repeat(text: str, times: int) -> str:
    """Repeat the text a number of times."""
    return " ".join([text] * times)


@tool
def refuse(text: str) -> str:
    """Always fails."""
    raise ValueError(f"cannot handle {text!r}")


def planner(*replies: str, **kwargs: object) -> tuple[PlanAndExecute, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return PlanAndExecute(llm=llm, tools=[shout, exclaim, repeat, refuse], **kwargs), llm  # type: ignore[arg-type]


def test_each_output_becomes_the_next_input_and_the_last_is_the_answer() -> None:
    seen: list[list[str]] = []
    agent, llm = planner('["shout", "exclaim"]', '{"text": "hello"}', on_plan=seen.append)
    run = agent.execute("Shout hello, then exclaim it")
    assert run.finished and run.answer == "HELLO!"
    assert seen == [["shout", "exclaim"]]
    assert [step.observation for step in run.steps] == ["HELLO", "HELLO!"]
    assert "shout(text: string): Upper-case the text." in llm.prompts[0]
    assert "Request: Shout hello, then exclaim it" in llm.prompts[0]
    assert "Input for this step: Shout hello, then exclaim it" in llm.prompts[1]  # the request is prose
    assert len(llm.prompts) == 2  # a later one-argument tool takes the previous output as it is


def test_plan_is_shown_before_it_runs(capsys: pytest.CaptureFixture[str]) -> None:
    agent, _ = planner("```json\n{'plan': ['Shout']}\n```", '{"text": "hi"}')
    assert agent.run("hi", verbose=True) == "HI"
    err = capsys.readouterr().err
    assert err.index("[plan] shout") < err.index("[step 1/1]")


def test_unknown_tool_is_re_asked_once_with_the_reason() -> None:
    agent, llm = planner('["shout", "translate"]', '["shout"]', '{"text": "hi"}')
    run = agent.execute("hi")
    assert run.finished and run.answer == "HI" and run.stop_detail == ""
    assert "unknown tool(s) translate; available: shout, exclaim, repeat, refuse" in llm.prompts[1]


def test_a_second_bad_plan_stops_the_run() -> None:
    agent, _ = planner("no idea", '["teleport"]')
    run = agent.execute("hi")
    assert run.stop_reason is StopReason.UNPARSEABLE and run.steps == []
    assert "unknown tool(s) teleport" in run.describe_stop()


def test_a_plan_longer_than_the_step_limit_is_refused() -> None:
    agent, _ = planner('["shout", "exclaim", "exclaim"]', '["shout", "exclaim", "exclaim"]', max_thought_steps=2)
    run = agent.execute("hi")
    assert run.stop_reason is StopReason.UNPARSEABLE and "more than the limit of 2" in run.stop_detail


def test_a_failing_step_stops_with_a_clear_report() -> None:
    agent, _ = planner('["shout", "refuse", "exclaim"]', '{"text": "hi"}')
    run = agent.execute("hi")
    assert run.stop_reason is StopReason.STEP_FAILED
    assert len(run.steps) == 2 and run.answer == ""
    assert run.describe_stop() == "a step failed: step 2 (refuse): refuse failed: ValueError: " \
                                  "cannot handle 'HI'"


def test_a_tool_with_several_arguments_gets_them_from_the_model() -> None:
    agent, llm = planner('["shout", "repeat"]', '{"text": "hi"}', '{"text": "HI", "times": 3}')
    run = agent.execute("hi")
    assert run.answer == "HI HI HI"
    assert "Input for this step: HI" in llm.prompts[2] and "repeat(text: string, times: integer)" in llm.prompts[2]


def test_a_fenced_output_is_piped_and_answered_as_its_data(tmp_path: object) -> None:
    from pathlib import Path

    from autoagent.tools import file_tools

    workspace = Path(str(tmp_path))
    (workspace / "note.txt").write_text("hello")
    read_file = file_tools(workspace)[0]
    llm = ScriptedChatModel(replies=['["read_file", "shout"]', '{"path": "note.txt"}', '["read_file"]',
                                     '{"path": "note.txt"}'])
    agent = PlanAndExecute(llm=llm, tools=[read_file, shout])  # type: ignore[arg-type]
    run = agent.execute("Read note.txt and shout it")
    assert "<<<FILE CONTENT " in run.steps[0].observation  # the model sees the file fenced
    assert run.steps[1].decision is not None and run.steps[1].decision.action.args == {"text": "hello"}
    assert run.answer == "HELLO"
    assert agent.execute("Show note.txt").answer == "hello"  # the user gets the data, not the quote
