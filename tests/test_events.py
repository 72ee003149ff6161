"""One typed event stream for every run: the loop publishes each event once, stamped with the run, the path of
agents, the step and the time; observers, `agent.stream()`, `agent.astream()` and `aexecute()` all read it."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.acting.approval import Approver, Verdict
from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.events import RunObserver
from autoagent.run_events import EVENTS_VERSION, RunEvent, event_from_json, event_line, events_schema
from autoagent.steps import StopReason
from autoagent.tools import calculator
from autoagent.transcripts.reader import load_transcript
from autoagent.transcripts.writer import TranscriptWriter

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act

pytestmark = pytest.mark.timeout(60)


@tool
def record(note: str) -> str:
    """Write a note down (a side effect: it asks for approval)."""
    return f"noted: {note}"


class ScriptedApprover(Approver):
    """Answers each question with the next of `answers`, as a person on the terminal would type them."""

    def __init__(self, *answers: str) -> None:
        super().__init__()
        self.answers = list(answers)

    def ask(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        return self.judge(tool_name, self.answers.pop(0))


class Heard(RunObserver):
    """Every typed event an observer hears, and the calls of the older methods beside them."""

    def __init__(self) -> None:
        self.events: list[RunEvent] = []
        self.calls: list[str] = []

    def on_event(self, event: RunEvent) -> None:
        self.events.append(event)

    def on_step(self, step: Any) -> None:
        self.calls.append(f"step {step.number}")

    def on_run_end(self, run: Any) -> None:
        self.calls.append(f"end {run.stop_reason.value}")


def team(*answers: str) -> AutoGPT:
    """A router with a calculator, a side-effecting tool and a sub-agent; its script: a failing calculation, a
    note that asks for approval, the sub-agent, a note refused, the finish and its answer."""
    math = AutoGPT(ScriptedChatModel(replies=[act("calculator", expression="17 * 23"), act("FINISH"), "391"]),
                   tools=[calculator], agent_name="math")
    replies = [act("calculator", expression="1 / 0"), act("record", note="start"),
               act("math", task="What is 17 * 23?"), act("record", note="again"), act("FINISH"), "It is 391."]
    return AutoGPT(ScriptedChatModel(replies=replies), tools=[calculator, record, math.as_tool("math", "arithmetic")],
                   agent_name="router", approver=ScriptedApprover(*answers))


def shape(events: list[RunEvent]) -> list[tuple[str, tuple[str, ...], int]]:
    return [(event.type, tuple(event.agents), event.step) for event in events]


def test_a_run_publishes_each_event_once_in_order_with_its_step_and_agents() -> None:
    heard = Heard()
    run = team("y", "n").execute("What is 17 * 23?", observers=[heard])

    assert run.finished and run.answer == "It is 391."
    assert shape(heard.events) == [
        ("run_started", (), 0),
        ("model_call_started", (), 1), ("model_call_ended", (), 1), ("tool_started", (), 1), ("tool_ended", (), 1),
        ("step_completed", (), 1),
        ("model_call_started", (), 2), ("model_call_ended", (), 2), ("tool_started", (), 2),
        ("approval_asked", (), 2), ("approval_answered", (), 2), ("tool_ended", (), 2), ("step_completed", (), 2),
        ("model_call_started", (), 3), ("model_call_ended", (), 3), ("tool_started", (), 3),
        ("run_started", ("math",), 0),
        ("model_call_started", ("math",), 1), ("model_call_ended", ("math",), 1), ("tool_started", ("math",), 1),
        ("tool_ended", ("math",), 1), ("step_completed", ("math",), 1),
        ("model_call_started", ("math",), 2), ("model_call_ended", ("math",), 2),
        ("model_call_ended", ("math",), 2),  # the finish's answer, written as the finish is reviewed
        ("step_completed", ("math",), 2), ("finishing", ("math",), 2), ("answer", ("math",), 2),
        ("run_ended", ("math",), 2),
        ("tool_ended", (), 3), ("step_completed", (), 3),
        ("model_call_started", (), 4), ("model_call_ended", (), 4), ("tool_started", (), 4),
        ("approval_asked", (), 4), ("approval_answered", (), 4), ("tool_ended", (), 4), ("step_completed", (), 4),
        ("model_call_started", (), 5), ("model_call_ended", (), 5), ("model_call_ended", (), 5),
        ("step_completed", (), 5), ("finishing", (), 5), ("answer", (), 5), ("run_ended", (), 5),
    ]
    assert {event.run_id for event in heard.events} == {run.run_id} and run.run_id  # the sub-agent's too
    assert all(event.version == EVENTS_VERSION for event in heard.events)
    times = [event.time for event in heard.events]
    assert times == sorted(times)
    by_type = {(event.type, event.step, tuple(event.agents)): event for event in heard.events}
    failed = by_type["step_completed", 1, ()]
    assert failed.success is False and "division by zero" in failed.observation
    assert by_type["tool_ended", 1, ()].success is False
    assert by_type["approval_answered", 2, ()].allowed is True
    refused = by_type["approval_answered", 4, ()]
    assert refused.allowed is False and by_type["step_completed", 4, ()].success is False
    assert by_type["tool_started", 3, ()].args == {"task": "What is 17 * 23?"}
    assert by_type["step_completed", 1, ("math",)].observation == "391"
    assert by_type["tool_ended", 3, ()].result == "391" and by_type["run_started", 0, ("math",)].agent == "math"
    assert heard.events[0].agent == "router"
    calls = [event for event in heard.events if event.type == "model_call_ended"]
    assert len(calls) == run.usage.calls and all(call.model == "ScriptedChatModel" for call in calls)
    assert sum(call.input_tokens for call in calls) == run.usage.input_tokens
    ended = by_type["run_ended", 5, ()]
    assert ended.finished and ended.stop_reason == "finished" and ended.steps == 5
    assert ended.usage["calls"] == run.usage.calls == 6 + 3
    # the older methods hear the sub-agent's run only through `nested`, which gives None by default
    assert heard.calls == ["step 1", "step 2", "step 3", "step 4", "step 5", "end finished"]


def test_every_event_has_one_json_form_that_reads_back_and_meets_the_schema() -> None:
    heard = Heard()
    team("y", "fix the note first").execute("What is 17 * 23?", observers=[heard])
    schema = events_schema()
    for event in heard.events:
        line = event_line(event)
        assert "\n" not in line
        jsonschema.validate(json.loads(line), schema)
        assert event_from_json(line).model_dump() == event.model_dump()
    assert {event.type for event in heard.events} >= {"run_started", "model_call_started", "model_call_ended",
                                                      "tool_started",
                                                      "approval_asked", "approval_answered", "tool_ended",
                                                      "step_completed", "finishing", "answer", "run_ended"}
    refused = [event for event in heard.events if event.type == "approval_answered"][-1]
    assert refused.feedback == "fix the note first"


def test_a_resumed_run_starts_from_its_steps_and_counts_on() -> None:
    first = AutoGPT(ScriptedChatModel(replies=[act("calculator", expression="2 + 2"), "4"]), tools=[calculator],
                    max_thought_steps=1).execute("2 + 2, then done")
    assert first.stop_reason is StopReason.MAX_STEPS
    heard = Heard()
    agent = AutoGPT(ScriptedChatModel(replies=[act("FINISH"), "4"]), tools=[calculator])
    run = agent.execute("2 + 2, then done", observers=[heard], resume=first.steps, run_id=first.run_id)

    assert run.finished and shape(heard.events) == [
        ("run_started", (), 1), ("model_call_started", (), 2), ("model_call_ended", (), 2),
        ("model_call_ended", (), 2), ("step_completed", (), 2), ("finishing", (), 2), ("answer", (), 2),
        ("run_ended", (), 2)]
    assert heard.events[0].resumed_steps == 1 and {event.run_id for event in heard.events} == {first.run_id}


def test_stream_yields_the_events_an_observer_hears() -> None:
    heard = Heard()
    streamed = list(team("y", "y").stream("What is 17 * 23?", observers=[heard]))
    assert [event.model_dump() for event in streamed] == [event.model_dump() for event in heard.events]
    assert streamed[-1].type == "run_ended" and streamed[-1].answer == "It is 391."


def test_leaving_a_stream_early_stops_the_run_and_its_transcript_resumes(tmp_path: Path) -> None:
    agent = AutoGPT(ScriptedChatModel(replies=[act("calculator", expression="6 * 7"), act("FINISH"), "42"]),
                    tools=[calculator])
    writer = TranscriptWriter({"model": "scripted"}, directory=tmp_path)
    seen = []
    for event in agent.stream("What is 6 * 7?", observers=[writer]):
        seen.append(event.type)
        if event.type == "step_completed":
            break
    assert seen == ["run_started", "model_call_started", "model_call_ended", "tool_started", "tool_ended",
                    "step_completed"]
    stopped = agent.last_run
    assert stopped is not None and stopped.stop_reason is StopReason.INTERRUPTED and len(stopped.steps) == 1
    assert agent.llm.prompts.__len__() == 1  # type: ignore[attr-defined]  # no model call after the break

    transcript = load_transcript(stopped.run_id, tmp_path)
    assert transcript.resumable and [step.observation for step in transcript.steps] == ["42"]
    resumed = agent.execute("What is 6 * 7?", resume=transcript.steps, run_id=stopped.run_id,
                            observers=[TranscriptWriter({}, run_id=stopped.run_id, directory=tmp_path)])
    assert resumed.finished and resumed.answer == "42"
    assert not load_transcript(stopped.run_id, tmp_path).resumable


def test_a_stream_raises_the_runs_error_after_its_last_event() -> None:
    agent = AutoGPT(ScriptedChatModel(replies=[]), tools=[calculator])  # runs dry: the model fails
    seen: list[str] = []
    with pytest.raises(Exception, match="no reply #1"):
        for event in agent.stream("anything"):
            seen.append(event.type)
    assert seen[0] == "run_started" and seen[-1] == "run_ended"


def test_astream_and_aexecute_run_in_a_thread_without_blocking_the_event_loop() -> None:
    async def main() -> tuple[list[str], str, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        ticker = asyncio.create_task(tick())
        types = [event.type async for event in team("y", "y").astream("What is 17 * 23?")]
        result = await team("y", "y").aexecute("What is 17 * 23?")
        ticker.cancel()
        return types, result.answer, ticks

    types, answer, ticks = asyncio.run(main())
    assert types[0] == "run_started" and types[-1] == "run_ended" and answer == "It is 391."
    assert ticks > 0


class SlowModel(ScriptedChatModel):
    """A scripted model that waits for the test's go before each reply."""

    go: Any = None

    def _generate(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        self.go.wait(10)
        return super()._generate(*args, **kwargs)


def test_cancelling_aexecute_stops_the_run_as_interrupted() -> None:
    go = threading.Event()
    agent = AutoGPT(SlowModel(replies=[act("calculator", expression="1 + 1"), act("FINISH"), "2"], go=go),
                    tools=[calculator])

    async def main() -> None:
        task = asyncio.create_task(agent.aexecute("1 + 1"))
        await asyncio.sleep(0.2)  # the run waits in its first model call
        task.cancel()
        go.set()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert agent.last_run is not None and agent.last_run.stop_reason is StopReason.INTERRUPTED
    assert len(agent.last_run.steps) == 1  # the step under way ended; no model call after it


def test_events_jsonl_prints_each_event_as_a_line_instead_of_the_answer(backend: FakeBackend,
                                                                        isolated_home: Path) -> None:
    result = invoke(["--events", "jsonl", "6*7?"], [act("calculator", expression="6*7"), act("FINISH"), "42"],
                    backend)
    assert result.exit_code == 0
    events = [event_from_json(line) for line in result.stdout.splitlines()]
    assert [event.type for event in events] == [
        "run_started", "model_call_started", "model_call_ended", "tool_started", "tool_ended", "step_completed",
        "model_call_started", "model_call_ended", "model_call_ended", "step_completed", "finishing", "answer",
        "run_ended"]
    assert events[-2].answer == "42" and events[-1].finished  # every line an event: no answer printed beside them
    run_id = events[0].run_id
    assert (isolated_home / "runs" / f"{run_id}.jsonl").is_file()  # the transcript's run, the same id
    assert "Step 1" not in result.stderr  # the steps are the events, not a display beside them


def test_events_jsonl_redacts_secrets_and_says_why_a_run_could_not_start(monkeypatch: pytest.MonkeyPatch,
                                                                         backend: FakeBackend) -> None:
    secret = "sk-test-0123456789abcdefghijklmnop"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    result = invoke(["--events", "jsonl", f"say {secret}"], [act("FINISH"), "done"], backend)
    assert result.exit_code == 0 and secret not in result.stdout and "say [REDACTED]" in result.stdout

    failed = CliRunner().invoke(cli, ["--events", "jsonl", "--model", "gemini:pro", "hi"])
    assert failed.exit_code == exit_codes.ERROR
    [ended] = [event_from_json(line) for line in failed.stdout.splitlines()]
    assert ended.type == "run_ended" and ended.stop_reason == "error" and "unknown model spec" in ended.stop_detail


@pytest.mark.parametrize("args", [["--events", "jsonl", "--json", "hi"], ["--events", "jsonl"],
                                  ["--events", "xml", "hi"]])
def test_events_needs_a_task_and_goes_without_json(args: list[str], backend: FakeBackend) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == exit_codes.USAGE and backend.models == []


class StreamingModel(ScriptedChatModel):
    """A scripted model that streams each reply in pieces of five characters, as the embedded model does."""

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        text = result.generations[0].message.text
        for start in range(0, len(text), 5):
            if run_manager is not None:
                run_manager.on_llm_new_token(text[start:start + 5])
        return result


def test_a_stream_asked_for_reply_text_has_the_replies_pieces_between_its_model_calls() -> None:
    replies = [act("calculator", expression="6*7"), act("FINISH"), "The answer is 42."]
    events = list(AutoGPT(StreamingModel(replies=replies), tools=[calculator]).stream("6*7?", reply_text=True))
    calls: list[str] = []
    for event in events:
        if event.type == "model_call_started":
            calls.append("")
        elif event.type == "reply_delta":
            calls[-1] += event.text
        elif event.type == "model_call_ended" and event.step == 2 and len(calls) == 2:
            calls.append("")  # the finish's answer: a model call of its own, in the same step
    assert calls == replies
    assert [event.type for event in events].count("reply_delta") == sum(-(-len(reply) // 5) for reply in replies)

    plain = list(AutoGPT(StreamingModel(replies=replies), tools=[calculator]).stream("6*7?"))
    assert "reply_delta" not in {event.type for event in plain}  # only where asked: each piece costs a callback


def test_a_sub_agents_reply_text_comes_nested_and_only_once() -> None:
    math = AutoGPT(StreamingModel(replies=[act("FINISH"), "391"]), tools=[calculator], agent_name="math")
    router = AutoGPT(StreamingModel(replies=[act("math", task="17 * 23?"), act("FINISH"), "It is 391."]),
                     tools=[math.as_tool("math", "arithmetic")], agent_name="router")
    deltas: dict[tuple[str, ...], str] = {}
    for event in router.stream("What is 17 * 23?", reply_text=True):
        if event.type == "reply_delta":
            path = tuple(event.agents)
            deltas[path] = deltas.get(path, "") + event.text
    assert deltas[("math",)] == act("FINISH") + "391"
    assert deltas[()] == act("math", task="17 * 23?") + act("FINISH") + "It is 391."
