"""The AutoGPT loop, driven by scripted models: every way a run can go."""

from __future__ import annotations

import logging

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.errors import ModelUnavailableError
from autoagent.steps import StepKind, StopReason
from autoagent.tools import calculator

from .scripted import ScriptedChatModel, act
from .test_consistency import _Sampled


@tool
def multiply(a: int, b: int) -> str:
    """Multiply two integers.

    Args:
        a: the first factor
        b: the second factor
    """
    return str(a * b)


@tool
def explode(reason: str) -> str:
    """A tool that always fails."""
    raise RuntimeError(f"boom: {reason}" + "x" * 2000)


@tool
def flood() -> str:
    """A tool with a huge output."""
    return "y" * 50_000


def make_agent(*replies: str, **kwargs: object) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    agent = AutoGPT(llm=llm, tools=[multiply, explode, flood], **kwargs)  # type: ignore[arg-type]
    return agent, llm


def test_finish_writes_the_answer_with_the_finish_prompt() -> None:
    agent, llm = make_agent(act("multiply", a=6, b=7), act("FINISH"), "The product is 42.")

    answer = agent.run("What is 6 times 7?")

    assert answer == "The product is 42."
    run = agent.last_run
    assert run is not None and run.stop_reason is StopReason.FINISHED and run.finished
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.FINISH]
    assert run.steps[0].observation == "42"
    assert 'Action: multiply {"a": 6, "b": 7} -> 42' in llm.prompts[1]  # the observation reached the next prompt
    assert "Write the final answer" in llm.prompts[2] and "-> 42" in llm.prompts[2]
    assert run.usage.calls == 3 and run.usage.input_tokens > 0


def test_finish_is_case_insensitive() -> None:
    agent, _ = make_agent(act("finish"), "nothing to do")
    run = agent.execute("say hi")
    assert run.stop_reason is StopReason.FINISHED and run.answer == "nothing to do"
    assert [step.kind for step in run.steps] == [StepKind.FINISH]
    coached, _ = make_agent(act("finish"), act("Finish"), "nothing to do", "nothing", "nothing",
                            advisors=[Coach()])  # sent back once: no tool ran; the answer, said again, stands
    run = coached.execute("say hi")
    assert [step.kind for step in run.steps] == [StepKind.REJECTED, StepKind.FINISH]  # both read as FINISH
    assert run.steps[0].check == "coach"


def test_step_limit_returns_best_answer_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    agent, _llm = make_agent(
        act("multiply", a=1, b=2), act("multiply", a=2, b=3), "best so far: 6", max_thought_steps=2
    )

    with caplog.at_level(logging.WARNING, logger="autoagent"):
        answer = agent.run("multiply things")

    assert answer == "best so far: 6"
    assert agent.last_run is not None and agent.last_run.stop_reason is StopReason.MAX_STEPS
    assert len(agent.last_run.steps) == 2
    assert "step limit" in caplog.text


def test_unknown_tool_names_the_available_tools() -> None:
    agent, _llm = make_agent(act("divide", a=1, b=2), act("multiply", a=1, b=2), act("FINISH"), "done")
    run = agent.execute("divide")
    step = run.steps[0]
    assert not step.success
    assert "Unknown tool 'divide'" in step.observation
    assert "multiply" in step.observation and "FINISH" in step.observation
    assert run.finished and run.steps[1].observation == "2"  # the model's mistake did not end the run


def test_tool_name_in_another_case_still_runs() -> None:
    agent, _ = make_agent(act("Multiply", a=2, b=2), act("FINISH"), "4")
    assert agent.execute("2*2").steps[0].observation == "4"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"a": 2}, "missing b"),
        ({"a": 2, "b": 3, "c": 4}, "unexpected c"),
        ({"a": "two", "b": 3}, "a:"),
    ],
)
def test_bad_arguments_are_named_exactly(args: dict[str, object], expected: str) -> None:
    agent, _ = make_agent(act("multiply", **args), act("multiply", a=2, b=3), act("FINISH"), "done")
    step = agent.execute("multiply").steps[0]
    assert not step.success
    assert step.observation.startswith("Invalid arguments for multiply")
    assert expected in step.observation


def test_failing_tool_becomes_a_truncated_observation() -> None:
    agent, _ = make_agent(act("explode", reason="test"), act("multiply", a=1, b=1), act("FINISH"), "it failed")
    run = agent.execute("explode")
    step = run.steps[0]
    assert not step.success
    assert step.observation.startswith("explode failed: RuntimeError: boom: test")
    assert "more characters cut" in step.observation and len(step.observation) < 700
    assert run.finished


def test_huge_output_is_truncated_with_a_note() -> None:
    agent, _ = make_agent(act("flood"), act("FINISH"), "ok")
    observation = agent.execute("flood").steps[0].observation
    assert len(observation) == 2000 and observation.endswith("\n[... 48032 more characters cut]")  # the note fits too


def test_repeat_forces_one_rethink_then_a_result_insisted_on_is_the_answer() -> None:
    same = act("multiply", a=3, b=3)
    agent, llm = make_agent(same, same, same, "9")

    run = agent.execute("square 3")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.REPEATED, StepKind.FINISH]
    assert run.stop_reason is StopReason.FINISHED  # reviewed as a finish: a tool worked, nothing left unused
    assert "repeated an earlier one" in llm.prompts[2]  # the forced rethink prompt
    assert "repeated an earlier one" not in llm.prompts[1]
    assert "Not run again: step 1" in run.steps[1].observation
    assert run.answer == "9"


def test_a_repeat_of_a_call_that_failed_asks_for_a_fix_not_a_finish() -> None:
    same = act("explode", reason="x")
    agent, llm = make_agent(same, same, act("multiply", a=3, b=3), act("FINISH"), "9")

    run = agent.execute("square 3")

    assert run.steps[1].kind is StepKind.REPEATED and run.answer == "9"
    assert run.steps[1].observation.startswith("Not run again: step 1 already did this, and it failed: ")
    assert "repeated one that failed, and it would fail the same way again" in llm.prompts[2]
    assert "the task may be done" not in llm.prompts[2]
    assert "repeated one that failed" not in llm.prompts[1]  # a failed call is shown as it is the first time


def test_a_failed_call_insisted_on_stops_the_run_on_a_loop() -> None:
    same = act("explode", reason="x")
    agent, llm = make_agent(same, same, same, "The word is bibliothèque.")

    run = agent.execute("How do you say library in French?")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.REPEATED, StepKind.REPEATED]
    assert run.stop_reason is StopReason.LOOP_DETECTED and not run.finished
    # every call failed, yet the model may know the answer: the finish prompt writes it, shown as a stopped run's
    assert run.answer == "The word is bibliothèque." and len(llm.prompts) == 4


def test_a_stopped_run_whose_every_call_failed_shows_no_reply_that_is_no_answer() -> None:
    same = act("explode", reason="x")
    agent, llm = make_agent(same, same, same, same)  # the finish prompt answered with a call (asked once)

    run = agent.execute("How do you say library in French?")

    assert run.stop_reason is StopReason.LOOP_DETECTED and run.answer == "" and len(llm.prompts) == 4


@pytest.mark.parametrize("coach", ["on", "off"])
def test_with_the_coach_the_reply_after_a_failed_call_sent_again_is_drawn_at_a_temperature(coach: str) -> None:
    failed = act("explode", reason="x")
    llm = _Sampled(replies=[failed, failed, act("multiply", a=6, b=7), act("FINISH"), "It is 42.", *["42"] * 4])
    advisors = [Coach()] if coach == "on" else []
    run = AutoGPT(llm=llm, tools=[multiply, explode], advisors=advisors).execute("What is 6 times 7?")

    assert [step.kind for step in run.steps][:3] == [StepKind.ACTION, StepKind.REPEATED, StepKind.ACTION]
    drawn = [number for number, given in enumerate(llm.given[:3]) if given.get("temperature")]
    if coach == "off":  # the core asks as before: a temperature is small-model help (some APIs refuse one)
        assert drawn == []
    else:
        assert drawn == [2] and llm.given[2]["seed"] == 2  # only the reply after the repeat, seeded by its step


def test_the_reply_after_a_call_that_worked_sent_again_is_not_drawn() -> None:
    worked = act("multiply", a=6, b=7)
    llm = _Sampled(replies=[worked, worked, worked, "It is 42.", *["42"] * 4])
    run = AutoGPT(llm=llm, tools=[multiply, explode], advisors=[Coach()]).execute("What is 6 times 7?")

    assert run.steps[-1].kind is StepKind.FINISH  # the third ask holds the result: a finish (`insists`)
    assert not any(given.get("temperature") for given in llm.given[:3])


def test_a_failed_call_is_tried_again_once_another_call_has_worked_since() -> None:
    failed, worked = act("explode", reason="x"), act("multiply", a=3, b=3)
    agent, _ = make_agent(failed, worked, failed, worked, failed, "nothing", max_thought_steps=6)

    run = agent.execute("explode")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.ACTION,
                                                 StepKind.REPEATED, StepKind.REPEATED]  # the worked call repeats
    assert run.stop_reason is StopReason.LOOP_DETECTED


def test_a_call_that_only_restates_the_last_result_is_taken_as_a_finish() -> None:
    echo = '{"thought": "t", "action": {"name": "explode", "args": {"reason": "42"}}}'
    agent, _ = make_agent(act("multiply", a=6, b=7), echo, "It is 42.", advisors=[Coach()])

    run = agent.execute("What is 6 times 7?")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.FINISH]  # explode never ran
    assert run.finished and run.answer == "It is 42."


def test_without_the_coach_a_call_that_restates_the_last_result_runs_as_called() -> None:
    echo = '{"thought": "t", "action": {"name": "explode", "args": {"reason": "42"}}}'
    agent, _ = make_agent(act("multiply", a=6, b=7), echo, act("FINISH"), "It is 42.")

    run = agent.execute("What is 6 times 7?")

    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.FINISH]
    assert not run.steps[1].success and run.finished


def test_a_call_building_on_the_last_result_is_no_echo() -> None:
    agent, _ = make_agent(act("multiply", a=6, b=7), act("multiply", a=42, b=42), act("FINISH"), "It is 1764.")

    run = agent.execute("Square 6 times 7.")

    assert run.steps[1].kind is StepKind.ACTION and run.steps[1].observation == "1764"


def test_rethink_that_changes_course_continues_the_run() -> None:
    same = act("multiply", a=3, b=3)
    agent, _llm = make_agent(same, same, act("FINISH"), "9")
    run = agent.execute("square 3")
    assert run.stop_reason is StopReason.FINISHED
    assert len(run.steps) == 3


def test_unparseable_replies_are_sent_back_then_stop_the_run() -> None:
    agent, llm = make_agent("I think I will multiply", "still no json", "nope", "never", max_parse_retries=3)
    run = agent.execute("multiply")
    assert run.stop_reason is StopReason.UNPARSEABLE
    assert len(run.steps) == 4 and all(step.kind is StepKind.PARSE_ERROR for step in run.steps)
    assert "could not be parsed (no JSON object found" in llm.prompts[1]
    assert run.answer == ""  # nothing was done, so there is nothing to answer from
    assert len(llm.prompts) == 4


def test_a_parse_error_then_a_good_reply_recovers() -> None:
    agent, _ = make_agent("oops", "```json\n{'thought': 'multiply', 'action': {'name': 'multiply', "
                          "'args': {'a': 2, 'b': 5},}}\n```", act("FINISH"), "10")
    run = agent.execute("2*5")
    assert run.finished
    assert [step.kind for step in run.steps] == [StepKind.PARSE_ERROR, StepKind.ACTION, StepKind.FINISH]
    assert run.steps[1].observation == "10"


def test_short_term_memory_keeps_only_the_window() -> None:
    replies = [act("multiply", a=i, b=1000) for i in range(1, 5)] + [act("FINISH"), "done"]
    agent, llm = make_agent(*replies, memory_window=2, compaction=False)  # no summary of older steps (test_compaction)
    agent.execute("several")
    last_prompt = llm.prompts[4]
    assert "-> 4000" in last_prompt and "-> 3000" in last_prompt
    assert "-> 2000" not in last_prompt and "-> 1000" not in last_prompt


def test_prompt_starts_with_the_static_part_so_a_local_model_can_reuse_it() -> None:
    agent, llm = make_agent(act("multiply", a=2, b=2), act("FINISH"), "4")
    agent.execute("2*2")
    first, second = llm.prompts[0], llm.prompts[1]
    static_end = first.index("Task: 2*2")
    assert first[:static_end] == second[:static_end]
    assert first.index("multiply(a: integer, b: integer)") < static_end
    assert first.index("Steps so far:") > static_end


def test_memory_retriever_fills_long_term_memory() -> None:
    class Remembered(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
            return [Document(page_content=f"last time '{query}' was answered with 42")]

    agent, llm = make_agent(act("FINISH"), act("FINISH"), "42", memory_retriever=Remembered())
    agent.execute("the answer")
    assert "- last time 'the answer' was answered with 42" in llm.prompts[0]


def test_empty_long_term_memory_renders_as_none() -> None:
    agent, llm = make_agent(act("FINISH"), act("FINISH"), "ok")
    agent.execute("hi")
    assert "Memories of similar past tasks:\n(none)" in llm.prompts[0]


def test_callbacks_see_model_and_tool_calls() -> None:
    class Counter(BaseCallbackHandler):
        def __init__(self) -> None:
            self.events: list[str] = []

        def on_chat_model_start(self, *args: object, **kwargs: object) -> None:
            self.events.append("model")

        def on_tool_start(self, *args: object, **kwargs: object) -> None:
            self.events.append("tool")

    counter = Counter()
    agent, _ = make_agent(act("multiply", a=1, b=1), act("FINISH"), "1", callbacks=[counter])
    agent.execute("1*1")
    assert counter.events == ["model", "tool", "model", "model"]


def test_on_step_and_verbose_trace_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    seen = []
    agent, _ = make_agent(act("multiply", a=2, b=21), act("FINISH"), "42", on_step=seen.append)
    agent.run("2*21", verbose=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "[step 1/10]" in captured.err and 'action: multiply {"a": 2, "b": 21}' in captured.err
    assert "observation: 42" in captured.err
    assert [step.number for step in seen] == [1, 2]


def test_model_failure_is_a_clear_error() -> None:
    class Broken(ScriptedChatModel):
        def _generate(self, *args: object, **kwargs: object):  # type: ignore[override]
            raise ConnectionError("connection refused")

    agent = AutoGPT(llm=Broken(replies=[]), tools=[multiply])
    with pytest.raises(ModelUnavailableError, match="ConnectionError: connection refused"):
        agent.run("anything")
    assert agent.last_run is not None and agent.last_run.steps == []
    assert agent.last_run.stop_reason is StopReason.ERROR and "connection refused" in agent.last_run.stop_detail


def test_a_failing_retriever_is_reported_and_the_run_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    class Down(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
            raise ConnectionError("vector store unreachable")

    agent, llm = make_agent(act("FINISH"), act("FINISH"), "ok", memory_retriever=Down())
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        assert agent.run("hi") == "ok"
    assert "no memories recalled: ConnectionError: vector store unreachable" in caplog.text
    assert "(none)" in llm.prompts[0]


def test_interrupt_is_recorded_and_raised() -> None:
    class Interrupted(ScriptedChatModel):
        def _generate(self, *args: object, **kwargs: object):  # type: ignore[override]
            raise KeyboardInterrupt

    agent = AutoGPT(llm=Interrupted(replies=[]), tools=[multiply])
    with pytest.raises(KeyboardInterrupt):
        agent.run("anything")
    assert agent.last_run is not None and agent.last_run.stop_reason is StopReason.INTERRUPTED


def test_a_tool_named_finish_is_refused() -> None:
    @tool("finish")
    def finish_tool() -> str:
        """Clashes with FINISH."""
        return ""

    with pytest.raises(ValueError, match="FINISH"):
        AutoGPT(llm=ScriptedChatModel(replies=[]), tools=[finish_tool])


def test_the_argument_schemas_words_echoed_into_a_call_are_dropped() -> None:
    @tool
    def label(type: str) -> str:
        """Label a type."""
        return f"a {type}"

    replies = ['{"thought": "t", "action": {"name": "calculator", "args": {"expression": "2+2", "type": "string"}}}',
               act("label", type="cat"), act("FINISH"), "4"]
    agent = AutoGPT(llm=ScriptedChatModel(replies=replies), tools=[calculator, label])
    run = agent.execute("2+2")
    assert run.steps[0].observation == "4" and run.steps[0].action.args == {"expression": "2+2"}  # type: ignore
    assert run.steps[1].observation == "a cat"  # a tool's own argument named like a schema word is kept


def test_schema_words_alone_in_a_call_of_a_tool_that_takes_none_are_dropped() -> None:
    @tool
    def today() -> str:
        """Today's date."""
        return "2026-12-01"

    replies = ['{"thought": "t", "action": {"name": "today", "args": {"properties": {}}}}', act("FINISH"), "ok"]
    run = AutoGPT(llm=ScriptedChatModel(replies=replies), tools=[today]).execute("What is today's date?")
    assert run.steps[0].observation == "2026-12-01"


@tool
def today() -> str:
    """Today's date."""
    return "2026-11-30"


def test_a_tool_written_as_another_tools_argument_is_the_call_it_stands_for() -> None:
    @tool
    def shout(text: str) -> str:
        """Shout text."""
        return text.upper()

    replies = [act("calculator", expression="today()"), act("calculator", expression="shout('hi')"),
               act("calculator", expression="sqrt(16)"), act("FINISH"), "done"]
    llm = ScriptedChatModel(replies=replies)
    agent = AutoGPT(llm=llm, tools=[calculator, today, shout])
    run = agent.execute("What is today's date?")
    assert [(step.action.name, step.observation) for step in run.steps[:3]] == [  # type: ignore[union-attr]
        ("today", "2026-11-30"), ("shout", "HI"), ("calculator", "4")]  # sqrt is no tool: the calculator's own


def test_a_tool_taking_no_arguments_named_as_another_tools_argument_is_that_call() -> None:
    @tool
    def read(path: str) -> str:
        """Read a file."""
        return f"contents of {path}"

    replies = [act("read", path="today"), act("read", path="calculator"), act("FINISH"), "done"]
    run = AutoGPT(llm=ScriptedChatModel(replies=replies), tools=[read, today, calculator]).execute("What day is it?")
    assert [(step.action.name, step.observation) for step in run.steps[:2]] == [  # type: ignore[union-attr]
        ("today", "2026-11-30"), ("read", "contents of calculator")]  # the calculator needs an expression
