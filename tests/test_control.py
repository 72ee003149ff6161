"""Budgets, loop detection over a window, context trimming and resuming, driven by scripted models."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.events import RunObserver
from autoagent.loop.budget import Budget, price_of
from autoagent.loop.context import REPLY_RESERVE, ContextWindowError, estimate_tokens
from autoagent.steps import RunResult, Step, StepKind, StopReason

from .scripted import ScriptedChatModel, act
from .test_agent import multiply


@tool
def nap(seconds: float) -> str:
    """Sleep a while, then say so.

    Args:
        seconds: how long to sleep
    """
    time.sleep(seconds)
    return f"slept {seconds}"


@tool
def page(number: int) -> str:
    """A long page of text.

    Args:
        number: which page
    """
    return f"page {number}: " + "lorem ipsum dolor sit amet " * 200


class Recorder(RunObserver):
    """Keeps every event it hears."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.warnings: list[str] = []

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        self.events.append("start")

    def on_thinking(self, number: int, max_steps: int) -> None:
        self.events.append(f"thinking {number}")

    def on_step(self, step: Step) -> None:
        self.events.append(f"step {step.number}")

    def on_warning(self, message: str) -> None:
        self.warnings.append(message)

    def on_run_end(self, run: RunResult) -> None:
        self.events.append(f"end {run.stop_reason.value}")


def agent_for(*replies: str, tools: list[Any] | None = None, **kwargs: Any) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(llm=llm, tools=tools or [multiply, nap, page], **kwargs), llm


def test_events_arrive_in_order() -> None:
    recorder = Recorder()
    agent, _ = agent_for(act("multiply", a=2, b=3), act("FINISH"), "6", observers=[recorder])

    agent.execute("2*3")

    assert recorder.events == ["start", "thinking 1", "step 1", "thinking 2", "step 2", "end finished"]


def test_a_spent_token_budget_stops_with_the_last_good_observation_and_no_more_model_calls() -> None:
    agent, llm = agent_for(act("multiply", a=2, b=3), act("multiply", a=4, b=5), budget=Budget(max_tokens=10))

    result = agent.execute("2*3, then 4*5")

    assert result.stop_reason is StopReason.BUDGET and not result.finished
    assert result.stop_detail.startswith("--max-tokens 10 tokens reached (")
    assert result.answer == "6"
    assert len(llm.prompts) == 1  # no second step, and no finish prompt either


def test_a_budget_warns_once_at_80_percent_then_stops_at_100() -> None:
    probe, _ = agent_for(act("multiply", a=2, b=3), act("multiply", a=4, b=5), act("FINISH"), "done")
    first = probe.execute("task").steps[0]
    one_step = first.input_tokens + first.output_tokens
    recorder = Recorder()
    agent, _ = agent_for(act("multiply", a=2, b=3), act("multiply", a=4, b=5), act("FINISH"), "done",
                         budget=Budget(max_tokens=int(one_step / 0.85)), observers=[recorder])

    result = agent.execute("task")

    assert len(recorder.warnings) == 1 and "of --max-tokens" in recorder.warnings[0]
    assert "the run stops at 100%" in recorder.warnings[0]
    assert result.stop_reason is StopReason.BUDGET and len(result.steps) == 2 and result.answer == "20"


def test_a_time_budget_stops_the_run() -> None:
    agent, _ = agent_for(act("nap", seconds=0.3), act("nap", seconds=0.31), budget=Budget(max_seconds=0.2))

    result = agent.execute("sleep twice")

    assert result.stop_reason is StopReason.BUDGET and result.stop_detail.startswith("--max-seconds 0.2 s reached")
    assert [step.observation for step in result.steps] == ["slept 0.3"]


def test_a_cost_budget_uses_the_price_table_which_a_user_file_extends(isolated_home: Path) -> None:
    (isolated_home / "prices.json").write_text(json.dumps({"ScriptedChatModel": [1_000_000, 1_000_000]}))
    assert price_of("ScriptedChatModel") == (1_000_000.0, 1_000_000.0)
    agent, _ = agent_for(act("multiply", a=2, b=3), act("FINISH"), "6", budget=Budget(max_cost=5.0))

    result = agent.execute("2*3")

    assert result.usage.cost_usd == result.usage.total_tokens  # a dollar a token
    assert result.stop_reason is StopReason.BUDGET and result.stop_detail.startswith("--max-cost $5.0000 reached")


def test_an_unknown_price_is_said_rather_than_ignored() -> None:
    recorder = Recorder()
    agent, _ = agent_for(act("FINISH"), act("FINISH"), "nothing to do", budget=Budget(max_cost=1.0),
                         observers=[recorder])

    result = agent.execute("task")

    assert result.finished and result.usage.cost_usd is None
    assert recorder.warnings == [recorder.warnings[0]] and "--max-cost is not enforced" in recorder.warnings[0]


def test_known_prices_match_dated_model_names() -> None:
    assert price_of("openai:gpt-4o-mini-2024-07-18") == price_of("gpt-4o-mini") == (0.15, 0.60)
    assert price_of("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert price_of("local:/models/x.gguf") == price_of("qwen2.5-coder-0.5b-instruct-q4.gguf") == (0.0, 0.0)
    assert price_of("some-unknown-model") is None


def test_alternating_actions_force_a_rethink_then_stop_even_with_a_one_step_window() -> None:
    a, b = act("multiply", a=2, b=3), act("multiply", a=4, b=5)
    agent, llm = agent_for(a, b, a, b, "6 and 20", memory_window=1, compaction=False)  # recalled by the loop check

    result = agent.execute("task")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.REPEATED,
                                                    StepKind.REPEATED]
    assert result.stop_reason is StopReason.LOOP_DETECTED
    assert "step 1 already did this" in result.steps[2].observation
    assert "repeated an earlier one" in llm.prompts[3]  # the forced rethink


def test_a_repeat_after_a_new_action_still_gets_its_rethink_first() -> None:
    a, b, c = act("multiply", a=2, b=3), act("multiply", a=4, b=5), act("multiply", a=6, b=7)
    agent, _ = agent_for(a, b, a, c, act("FINISH"), "done")

    result = agent.execute("task")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.REPEATED,
                                                    StepKind.ACTION, StepKind.FINISH]
    assert result.finished


def test_prompts_are_trimmed_to_fit_a_small_context_window() -> None:
    replies = [act("page", number=n) for n in range(1, 6)] + [act("FINISH"), "read five pages"]
    probe, probe_llm = agent_for(*replies)
    probe.execute("read pages")
    untrimmed = [estimate_tokens(prompt) for prompt in probe_llm.prompts[:6]]
    window = untrimmed[0] + 700 + REPLY_RESERVE  # room for about one page besides the bare prompt and the reply
    agent, llm = agent_for(*replies, context_window=window)

    result = agent.execute("read pages")

    assert result.finished and result.answer == "read five pages"
    assert max(untrimmed) > window  # the test would pass vacuously otherwise
    assert all(estimate_tokens(prompt) <= window - REPLY_RESERVE for prompt in llm.prompts[:6])
    assert "To fit your context window" in llm.prompts[5] and "earlier steps are left out" in llm.prompts[5]
    assert "page 5:" in llm.prompts[5]  # the newest step is kept


def test_a_prompt_that_cannot_fit_at_all_is_a_clear_error() -> None:
    agent, _ = agent_for(act("FINISH"), "x", context_window=300)

    with pytest.raises(ContextWindowError, match="--context-window"):
        agent.execute("task " * 50)
    assert agent.last_run is not None and agent.last_run.stop_reason is StopReason.ERROR


class SilentModel(ScriptedChatModel):
    """A model that reports no token usage."""

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        message = result.generations[0].message
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=message.content))])


def test_usage_is_estimated_when_the_model_reports_none() -> None:
    llm = SilentModel(replies=[act("multiply", a=2, b=3), act("FINISH"), "6"])
    result = AutoGPT(llm=llm, tools=[multiply]).execute("2*3")

    assert result.usage.estimated and result.usage.calls == 3
    assert result.usage.input_tokens >= sum(estimate_tokens(prompt) for prompt in llm.prompts)
    assert result.steps[0].input_tokens > 0


def test_a_resumed_run_continues_numbering_memory_and_loop_detection() -> None:
    first, _ = agent_for(act("multiply", a=2, b=3), act("multiply", a=4, b=5), "not yet", max_thought_steps=2)
    stopped = first.execute("2*3 then 4*5 then finish")
    assert stopped.stop_reason is StopReason.MAX_STEPS
    agent, llm = agent_for(act("multiply", a=2, b=3), act("FINISH"), "6 and 20")

    result = agent.execute("2*3 then 4*5 then finish", resume=stopped.steps[:2])

    assert [step.number for step in result.steps] == [1, 2, 3, 4]
    assert result.steps[2].kind is StepKind.REPEATED  # the resumed steps count for loop detection
    assert "-> 20" in llm.prompts[0]  # the short-term memory was rebuilt from them
    assert result.finished and result.answer == "6 and 20"


class FakeMemory:
    """Stands in for LongTermMemory: recalls nothing, records what it is asked to remember."""

    def __init__(self) -> None:
        self.remembered: list[RunResult] = []

    def as_retriever(self) -> None:
        return None

    def remember(self, result: RunResult, llm: Any, model: str) -> None:
        self.remembered.append(result)


def test_an_interrupted_run_is_still_remembered_and_ends_its_events() -> None:
    @tool
    def interrupt() -> str:
        """Press Ctrl-C."""
        raise KeyboardInterrupt

    memory, recorder = FakeMemory(), Recorder()
    agent, _ = agent_for(act("multiply", a=2, b=3), act("interrupt"), tools=[multiply, interrupt],
                         long_term_memory=memory, observers=[recorder])  # type: ignore[arg-type]

    with pytest.raises(KeyboardInterrupt):
        agent.execute("task")

    assert [run.stop_reason for run in memory.remembered] == [StopReason.INTERRUPTED]
    assert recorder.events[-1] == "end interrupted"


def test_callbacks_given_to_one_run_join_the_agents_own() -> None:
    from langchain_core.callbacks import BaseCallbackHandler

    class Counter(BaseCallbackHandler):
        def __init__(self) -> None:
            self.models = 0
            self.tools = 0

        def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
            self.models += 1

        def on_tool_start(self, *args: Any, **kwargs: Any) -> None:
            self.tools += 1

    own, this_run = Counter(), Counter()
    agent, _ = agent_for(act("multiply", a=2, b=3), act("FINISH"), "6", callbacks=[own])

    agent.execute("2*3", callbacks=[this_run])

    assert (own.models, own.tools) == (this_run.models, this_run.tools) == (3, 1)


def test_the_step_limit_bounds_the_model_calls_the_answer_one_more() -> None:
    # The finding: --max-steps 3 made six model calls, the answer of the stopped run asked for again (and the memory
    # summary one more). A stopped run's answer is asked for once; a reply that is none leaves the last observation.
    replies = [act("multiply", a=2, b=n) for n in (3, 4, 5)] + [act("multiply", a=2, b=6), "60"]
    agent, llm = agent_for(*replies, max_thought_steps=3)

    result = agent.execute("2*3, 2*4, 2*5, 2*6")

    assert result.stop_reason is StopReason.MAX_STEPS and result.answer == "10"
    assert len(llm.prompts) == 4  # three steps, and the answer once (its reply was the reply format: 10 stands)
