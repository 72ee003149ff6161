"""Agents that call agents, on scripted models: a router and its specialists, one budget over every level, the
caller's approvals, nested records (display, transcript, --json, runs show), and no cycles or endless nesting."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import tool
from rich.console import Console

from autoagent import AutoGPT
from autoagent.acting.approval import Approver
from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.errors import ModelUnavailableError, SubAgentError
from autoagent.loop.budget import Budget
from autoagent.report import JSON_SHAPE, run_to_json
from autoagent.steps import StopReason
from autoagent.subagents.calls import MAX_DEPTH
from autoagent.subagents.team import AgentsFileError, load_agents_file
from autoagent.terminal.display import TerminalDisplay
from autoagent.tools import calculator, current_datetime
from autoagent.transcripts.writer import step_from_record, step_record

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act
from .test_report import shape_errors


def scripted(*replies: str) -> ScriptedChatModel:
    return ScriptedChatModel(replies=list(replies))


class FlatRateModel(ScriptedChatModel):
    """A scripted model whose every call reports 100 input and 10 output tokens."""

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, stop, run_manager, **kwargs)
        message = result.generations[0].message
        usage = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}
        result.generations[0].message = message.model_copy(update={"usage_metadata": usage})
        return result


def specialists() -> tuple[AutoGPT, AutoGPT]:
    calendar = AutoGPT(scripted(act("current_datetime"), act("FINISH"), "It is a Wednesday."),
                       tools=[current_datetime], agent_name="calendar")
    math = AutoGPT(scripted(act("calculator", expression="17 * 23"), act("FINISH"), "17 * 23 = 391"),
                   tools=[calculator], agent_name="math")
    return calendar, math


def router_of(calendar: AutoGPT, math: AutoGPT, *replies: str, **options: Any) -> AutoGPT:
    tools = [calendar.as_tool("calendar", "answers questions about dates and days"),
             math.as_tool("math", "does arithmetic")]
    return AutoGPT(scripted(*replies), tools=tools, agent_name="router", **options)


def test_a_router_sends_a_date_question_to_the_calendar_and_arithmetic_to_math() -> None:
    calendar, math = specialists()
    router = router_of(calendar, math, act("calendar", task="What day of the week is it today?"),
                       act("math", task="What is 17 * 23?"), act("FINISH"), "Today is Wednesday; 17 * 23 = 391.")

    run = router.execute("What day is it today, and what is 17 * 23?")

    assert run.finished and run.answer == "Today is Wednesday; 17 * 23 = 391."
    first, second, _ = run.steps
    assert first.action is not None and first.action.name == "calendar" and first.observation == "It is a Wednesday."
    assert first.sub_run is not None and first.sub_run.agent == "calendar"
    assert first.sub_run.run.task == "What day of the week is it today?"
    assert [step.action.name for step in first.sub_run.run.steps if step.action] == ["current_datetime", "FINISH"]
    assert second.sub_run is not None and second.sub_run.run.steps[0].observation == "391"
    assert "Action: math {\"task\": \"What is 17 * 23?\"} -> 17 * 23 = 391" in router.llm.prompts[2]  # type: ignore[attr-defined]
    assert run.usage.calls == 4 + 3 + 3  # the router's three steps and answer, and each specialist's three calls
    prompts = [*router.llm.prompts, *calendar.llm.prompts, *math.llm.prompts]  # type: ignore[attr-defined]
    assert run.usage.input_tokens == sum(len(prompt.split()) for prompt in prompts)  # the scripted model's count
    assert run.usage.input_tokens > first.sub_run.run.usage.input_tokens + second.sub_run.run.usage.input_tokens


def test_a_budget_spent_in_the_sub_agent_stops_the_whole_run() -> None:
    # every call costs 110 tokens: router step 1 (110), then the sub-agent's steps (220, 330): spent at 330
    worker = AutoGPT(FlatRateModel(replies=[act("calculator", expression="1+1"), act("calculator", expression="2+2"),
                                            act("calculator", expression="3+3")]), tools=[calculator], agent_name="w")
    router = AutoGPT(FlatRateModel(replies=[act("worker", task="add things")]),
                     tools=[worker.as_tool("worker", "adds")], budget=Budget(max_tokens=300))

    run = router.execute("add")

    assert run.stop_reason is StopReason.BUDGET
    assert run.stop_detail == "--max-tokens 300 tokens reached (330 tokens used)"
    sub = run.steps[0].sub_run
    assert sub is not None and sub.run.stop_reason is StopReason.BUDGET and len(sub.run.steps) == 2
    assert sub.run.answer == "4"  # the last good observation: no model call after a spent budget
    assert run.steps[0].success is False and "stopped before finishing" in run.steps[0].observation
    assert len(router.llm.prompts) == 1  # type: ignore[attr-defined]  # the router was not called again
    assert run.usage.total_tokens == 330 and run.usage.calls == 3


def test_a_sub_agent_is_not_started_when_the_budget_is_already_spent() -> None:
    worker = AutoGPT(FlatRateModel(replies=[]), tools=[calculator], agent_name="w")
    router = AutoGPT(FlatRateModel(replies=[act("worker", task="add")]), tools=[worker.as_tool("worker", "adds")],
                     budget=Budget(max_tokens=100))
    run = router.execute("add")
    assert run.stop_reason is StopReason.BUDGET
    assert run.steps[0].observation == "Not called: the budget is spent (--max-tokens 100 tokens reached (110 tokens " \
                                       "used))."
    assert run.steps[0].sub_run is None and worker.last_run is None


def test_a_sub_agent_that_stops_gives_its_reason_and_best_answer() -> None:
    worker = AutoGPT(scripted(act("calculator", expression="2+2"), "4, so far"), tools=[calculator],
                     agent_name="w", max_thought_steps=1)
    router = AutoGPT(scripted(act("worker", task="add"), act("FINISH"), "4"), tools=[worker.as_tool("worker", "adds")])
    run = router.execute("add")
    assert run.finished
    assert run.steps[0].observation == ("worker stopped before finishing (the step limit was reached before the task "
                                        "was finished). Its best answer: 4, so far")
    assert not run.steps[0].success


def test_the_callers_approvals_apply_to_the_sub_agents_tools() -> None:
    launched: list[str] = []

    @tool
    def launch(target: str) -> str:
        """Launch a rocket at `target` (a side effect: it asks first)."""
        launched.append(target)
        return "launched"

    worker = AutoGPT(scripted(act("launch", target="moon"), act("FINISH"), "not launched"), tools=[launch])
    assert worker.toolbox.approver is None  # on its own, nothing would ask
    no_terminal = Approver(auto_approve=False, input_stream=io.StringIO())
    router = AutoGPT(scripted(act("worker", task="launch"), act("FINISH"), "refused"),
                     tools=[worker.as_tool("worker", "launches")], approver=no_terminal)

    run = router.execute("launch a rocket")

    assert launched == []
    inner = run.steps[0].sub_run
    assert inner is not None and not inner.run.steps[0].success
    assert "no terminal" in inner.run.steps[0].observation.lower()
    assert worker.toolbox.approver is None  # given back after the call

    worker = AutoGPT(scripted(act("launch", target="moon"), act("FINISH"), "launched"), tools=[launch])
    router = AutoGPT(scripted(act("worker", task="launch"), act("FINISH"), "launched"),
                     tools=[worker.as_tool("worker", "launches")], approver=Approver(auto_approve=True))
    assert router.execute("launch").finished and launched == ["moon"]


def test_an_agent_already_running_above_cannot_be_called() -> None:
    first = AutoGPT(scripted(act("second", task="back to you"), act("FINISH"), "done"), tools=[], agent_name="first")
    second = AutoGPT(scripted(act("first", task="loop"), act("FINISH"), "no loop"),
                     tools=[first.as_tool("first", "the first agent")], agent_name="second")
    first.toolbox.tools["second"] = second.as_tool("second", "the second agent")  # a cycle only mutation can make

    run = second.execute("start")

    inner = run.steps[0].sub_run
    assert inner is not None and inner.agent == "first"
    refused = inner.run.steps[0]
    assert refused.sub_run is None and refused.observation == (
        "Not called: second is already running above this step (second -> first -> second); an agent may not call "
        "itself, directly or through others. Do this part yourself, or with another tool.")
    assert run.finished


def test_agents_nest_at_most_max_depth_levels() -> None:
    agent = AutoGPT(scripted(), tools=[calculator], agent_name="level")
    for _ in range(MAX_DEPTH):
        agent = AutoGPT(scripted(), tools=[agent.as_tool("deeper", "one level down")])
    with pytest.raises(ValueError, match=f"nests {MAX_DEPTH + 1} levels deep; agents nest at most {MAX_DEPTH}"):
        AutoGPT(scripted(), tools=[agent.as_tool("top", "the top")])


def test_a_sub_agents_model_failure_stops_the_whole_run() -> None:
    class Down(ScriptedChatModel):
        def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
            raise ModelUnavailableError("the model server is down")

    worker = AutoGPT(Down(replies=[]), tools=[calculator])
    router = AutoGPT(scripted(act("worker", task="add")), tools=[worker.as_tool("worker", "adds")])
    with pytest.raises(SubAgentError, match="the agent worker failed: the model server is down"):
        router.execute("add")
    assert router.last_run is not None and router.last_run.stop_reason is StopReason.ERROR


def test_langchain_callbacks_hear_the_sub_agents_model_calls() -> None:
    class Heard(BaseCallbackHandler):
        def __init__(self) -> None:
            self.models = 0
            self.tools: list[str] = []

        def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
            self.models += 1

        def on_tool_start(self, serialized: dict[str, Any], *args: Any, **kwargs: Any) -> None:
            self.tools.append(serialized.get("name", ""))

    calendar, math = specialists()
    router = router_of(calendar, math, act("math", task="17 * 23"), act("FINISH"), "391")
    heard = Heard()
    router.execute("17 * 23?", callbacks=[heard])
    assert heard.models == 3 + 3 and heard.tools == ["math", "calculator"]


def test_the_terminal_shows_the_sub_agents_steps_nested() -> None:
    calendar, math = specialists()
    router = router_of(calendar, math, act("math", task="What is 17 * 23?"), act("FINISH"), "391")
    stream = io.StringIO()
    display = TerminalDisplay(Console(file=stream, width=200))
    router.execute("17 * 23?", observers=[display])
    shown = re.sub(r"\d+\.\d s|[\d,]+ in / [\d,]+ out", "#", stream.getvalue())
    assert shown.splitlines() == [
        "[step 1/10] · #", "  thought: working on it", '  action: math {"task": "What is 17 * 23?"}',
        "  │ math [step 1/10] · #", "  │   thought: working on it",
        '  │   action: calculator {"expression": "17 * 23"}', "  │   observation: 391",
        "  │ math [step 2/10] · #", "  │   thought: working on it", "  │   action: FINISH {}",
        "  │ math finished · 2 steps · # · # tokens",
        "  observation: 17 * 23 = 391",
        "[step 2/10] · #", "  thought: working on it", "  action: FINISH {}",
        "finished · 2 steps · # · # tokens"]


def test_a_step_with_a_sub_run_survives_the_transcript() -> None:
    calendar, math = specialists()
    router = router_of(calendar, math, act("calendar", task="today?"), act("FINISH"), "Wednesday")
    step = router.execute("today?").steps[0]
    again = step_from_record(json.loads(json.dumps(step_record(step))))
    assert again.sub_run is not None and step.sub_run is not None
    assert again.sub_run.agent == "calendar" and step_record(again) == step_record(step)
    assert again.sub_run.run.answer == "It is a Wednesday." and again.sub_run.run.usage == step.sub_run.run.usage


def test_json_output_holds_the_sub_runs_in_the_documented_shape() -> None:
    calendar, math = specialists()
    router = router_of(calendar, math, act("calendar", task="today?"), act("FINISH"), "Wednesday")
    data = run_to_json(router.execute("today?"))
    assert shape_errors(data, JSON_SHAPE) == []
    jsonschema.validate(data, JSON_SHAPE)
    sub = data["steps"][0]["sub_run"]
    assert sub["agent"] == "calendar" and sub["finished"] and sub["steps"][0]["action"]["name"] == "current_datetime"
    assert "sub_run" not in data["steps"][1]  # only a step that called an agent has one


# The agents file


TEAM = """\
main = "router"

[[agent]]
name = "router"
role = "sends each question to the agent that knows"
tools = ["dates", "math"]

[[agent]]
name = "dates"
description = "answers questions about dates and days"
tools = ["current_datetime"]
max_steps = 3

[[agent]]
name = "math"
description = "does arithmetic"
tools = ["calculator"]
"""


def write(tmp_path: Path, text: str, name: str = "agents.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_agents_file_is_read_and_checked(tmp_path: Path) -> None:
    team = load_agents_file(write(tmp_path, TEAM))
    assert team.entry.name == "router" and [spec.name for spec in team.agent] == ["router", "dates", "math"]
    assert team.calls(team.entry) == ["dates", "math"] and team.agent[1].max_steps == 3


@pytest.mark.parametrize(("text", "expected"), [
    ('[[agent]]\nname = "a"\ndescription = "a"\ntools = ["b"]\n[[agent]]\nname = "b"\ndescription = "b"\n'
     'tools = ["a"]\n[[agent]]\nname = "c"\n',
     "agents call each other in a cycle: a -> b -> a (an agent may not call itself, directly or through others)"),
    ('[[agent]]\nname = "a"\ndescription = "a"\ntools = ["a"]\n', "agents call each other in a cycle: a -> a"),
    ('[[agent]]\nname = "a"\nbudget = 3\n', "agent 'a': budget: not a known key (known: name, description, role"),
    ('[[agent]]\nname = "a"\nmax_steps = 0\n', "agent 'a': max_steps: Input should be greater than or equal to 1"),
    ('[[agent]]\nname = "two words"\n', "agent 'two words': name: a name is a letter, then letters, digits"),
    ('main = "z"\n[[agent]]\nname = "a"\n', "main names no agent: 'z' (agents: a)"),
    ('[[agent]]\nname = "a"\n[[agent]]\nname = "a"\n', "two agents are named 'a'"),
    ('[[agent]]\nname = "a"\ntools = ["b"]\n[[agent]]\nname = "b"\n',
     "agent 'b' needs a description: a calls it, and its model reads it"),
    ("agent = 3\n", "agent: Input should be a valid list"),
    ("[[agent]\n", "not TOML"),
])
def test_a_bad_agents_file_is_one_clear_line_per_problem(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(AgentsFileError) as raised:
        load_agents_file(path)
    assert f"{path}: " in str(raised.value) and expected in str(raised.value)


def test_agents_nesting_too_deep_in_the_file_is_an_error(tmp_path: Path) -> None:
    names = [f"a{index}" for index in range(MAX_DEPTH + 2)]
    text = "".join(f'[[agent]]\nname = "{name}"\ndescription = "{name}"\ntools = [{json.dumps(after)}]\n'
                   for name, after in itertools.pairwise(names))
    text += f'[[agent]]\nname = "{names[-1]}"\ndescription = "x"\n'
    with pytest.raises(AgentsFileError, match=f"agents nest {MAX_DEPTH + 1} levels deep \\(a0 -> a1 -> "):
        load_agents_file(write(tmp_path, text))


def test_a_cycle_in_the_agents_file_is_a_clear_error_and_a_non_zero_exit(backend: FakeBackend, tmp_path: Path) -> None:
    path = write(tmp_path, '[[agent]]\nname = "a"\ndescription = "a"\ntools = ["b"]\n'
                           '[[agent]]\nname = "b"\ndescription = "b"\ntools = ["c"]\n'
                           '[[agent]]\nname = "c"\ndescription = "c"\ntools = ["a"]\n')
    result = invoke(["--agents", str(path), "anything"], [], backend)
    assert result.exit_code == exit_codes.ERROR
    assert result.stderr == f"Error: {path}: agents call each other in a cycle: a -> b -> c -> a (an agent may not " \
                            "call itself, directly or through others)\n"
    assert not backend.models[0].prompts  # no model was called


def test_an_unknown_tool_in_the_agents_file_names_what_there_is(backend: FakeBackend, tmp_path: Path) -> None:
    path = write(tmp_path, '[[agent]]\nname = "a"\ntools = ["calculater"]\n')
    result = invoke(["--agents", str(path), "--tools", "calculator", "anything"], [], backend)
    assert result.exit_code == exit_codes.ERROR
    assert f"{path}: agent 'a': unknown tool calculater (tools: calculator; agents: a)" in result.stderr


CLI_REPLIES = [act("dates", task="What day is it?"), act("current_datetime"), act("FINISH"), "It is Wednesday.",
               act("math", task="17 * 23"), act("calculator", expression="17 * 23"), act("FINISH"), "391",
               act("FINISH"), "Wednesday, and 391."]


def test_the_cli_runs_a_team_from_the_agents_file(backend: FakeBackend, tmp_path: Path) -> None:
    path = write(tmp_path, TEAM)
    result = invoke(["--agents", str(path), "--workspace", str(tmp_path / "ws"), "What day is it, and 17 * 23?"],
                    CLI_REPLIES, backend)
    assert result.exit_code == 0, result.output
    assert result.stdout == "Wednesday, and 391.\n"
    assert len(backend.models) == 1  # one model spec, loaded once for every agent
    prompts = backend.prompts
    assert "You are router" in prompts[0] or "router" in prompts[0]
    assert "dates(task: string (the whole task for this agent" in prompts[0]
    assert "You are dates" in prompts[1] and "Task: What day is it?" in prompts[1]
    stderr = result.stderr.splitlines()
    assert any(line.startswith("  │ dates [step 1/3]") for line in stderr)
    assert '  │   action: calculator {"expression": "17 * 23"}' in stderr
    assert "  observation: 391" in stderr

    run_id = json.loads(invoke(["--agents", str(path), "--json", "--workspace", str(tmp_path / "ws"), "again"],
                               CLI_REPLIES, backend).stdout)["run_id"]
    shown = CliRunner().invoke(cli, ["runs", "show", run_id], catch_exceptions=False).stdout
    assert "  Sub-agent:    dates, given: What day is it?\n    |\n    | Step 1 (action, " in shown
    assert "    |   Action:       current_datetime {}" in shown
    assert "    | Outcome:  the task was finished" in shown


def test_the_json_of_a_team_run_is_in_the_documented_shape(backend: FakeBackend, tmp_path: Path) -> None:
    result = invoke(["--agents", str(write(tmp_path, TEAM)), "--json", "--workspace", str(tmp_path / "ws"), "q"],
                    CLI_REPLIES, backend)
    data = json.loads(result.stdout)
    assert shape_errors(data, JSON_SHAPE) == [] and data["finished"]
    assert [step["sub_run"]["agent"] for step in data["steps"] if "sub_run" in step] == ["dates", "math"]
    assert data["usage"]["calls"] == 10  # every agent's calls, counted in the run's usage


def test_agents_run_in_loop_mode_only(backend: FakeBackend, tmp_path: Path) -> None:
    result = invoke(["--agents", str(write(tmp_path, TEAM)), "--mode", "plan", "q"], [], backend)
    assert result.exit_code == exit_codes.ERROR and "--agents runs its agents in loop mode" in result.stderr


def test_help_explains_the_agents_flag() -> None:
    shown = " ".join(CliRunner().invoke(cli, ["--help"]).stdout.split())
    assert "--agents FILE A TOML file of agents that call each other as tools" in shown


def test_a_plan_mode_agent_keeps_and_pays_for_the_sub_agents_it_runs() -> None:
    from autoagent import PlanAndExecute

    _, math = specialists()
    planner = PlanAndExecute(scripted('["math"]', '{"task": "What is 17 * 23?"}'), [math.as_tool("math", "does sums")])
    run = planner.execute("What is 17 * 23?")
    assert run.finished and run.answer == "17 * 23 = 391"
    sub = run.steps[0].sub_run
    assert sub is not None and sub.run.steps[0].observation == "391"
    assert run.usage.calls == 2 + 3  # the plan and its arguments, and the sub-agent's calls


def test_quiet_keeps_one_summary_line_for_a_team(backend: FakeBackend, tmp_path: Path) -> None:
    result = invoke(["--agents", str(write(tmp_path, TEAM)), "--quiet", "--workspace", str(tmp_path / "ws"), "q"],
                    CLI_REPLIES, backend)
    assert result.exit_code == 0 and result.stdout == "Wednesday, and 391.\n"
    assert re.fullmatch(r"finished · 3 steps · \d+\.\d s · [\d,]+ in / [\d,]+ out tokens\n", result.stderr)


def test_a_call_deeper_than_max_depth_is_refused_at_run_time() -> None:
    leaf = AutoGPT(scripted(), tools=[calculator], agent_name="leaf")
    agent = AutoGPT(scripted(act("leaf", task="go deeper"), act("FINISH"), "too deep"), tools=[], agent_name="d3")
    chain = [agent]
    for depth in (2, 1, 0):
        agent = AutoGPT(scripted(act(chain[-1].identity["ai_name"], task="go deeper"), act("FINISH"), "down"),
                        tools=[chain[-1].as_tool(chain[-1].identity["ai_name"], "one level down")],
                        agent_name=f"d{depth}")
        chain.append(agent)
    chain[0].toolbox.tools["leaf"] = leaf.as_tool("leaf", "a fourth level")  # past the check at construction

    run = chain[-1].execute("go down")

    step = run.steps[0]
    for _ in range(MAX_DEPTH):
        assert step.sub_run is not None
        step = step.sub_run.run.steps[0]
    assert step.observation == f"Not called: leaf would run more than {MAX_DEPTH} agents deep. Do this part " \
                               "yourself, or with another tool."
    assert leaf.last_run is None


def test_the_cost_of_a_sub_agent_is_the_callers_and_its_budget_stops_both(isolated_home: Path) -> None:
    (isolated_home / "prices.json").write_text(json.dumps({"FlatRateModel": [1_000_000, 1_000_000]}))  # $1 a token
    worker = AutoGPT(FlatRateModel(replies=[act("calculator", expression=f"{n}+{n}") for n in range(5)]),
                     tools=[calculator])
    router = AutoGPT(FlatRateModel(replies=[act("worker", task="add")]), tools=[worker.as_tool("worker", "adds")],
                     budget=Budget(max_cost=250.0))

    run = router.execute("add")

    assert run.stop_reason is StopReason.BUDGET and run.stop_detail == "--max-cost $250.0000 reached ($330.0000 used)"
    assert run.usage.cost_usd == 330.0 and run.steps[0].sub_run is not None
    assert run.steps[0].sub_run.run.usage.cost_usd == 220.0


def test_the_time_a_sub_agent_takes_is_the_callers() -> None:
    @tool
    def nap(seconds: float) -> str:
        """Sleep a while."""
        import time

        time.sleep(seconds)
        return f"slept {seconds}"

    nap.metadata = {"read_only": True}
    worker = AutoGPT(scripted(*(act("nap", seconds=0.2 + n / 100) for n in range(8))), tools=[nap])
    router = AutoGPT(scripted(act("worker", task="nap")), tools=[worker.as_tool("worker", "naps")],
                     budget=Budget(max_seconds=0.3))

    run = router.execute("nap")

    assert run.stop_reason is StopReason.BUDGET and run.stop_detail.startswith("--max-seconds 0.3 s reached")
    sub = run.steps[0].sub_run
    assert sub is not None and sub.run.stop_reason is StopReason.BUDGET and len(sub.run.steps) <= 2


SCRIBE = """\
[[agent]]
name = "boss"
tools = ["scribe"]

[[agent]]
name = "scribe"
description = "writes files"
tools = ["write_file"]
"""
SCRIBE_REPLIES = [act("scribe", task="write hi.txt"), act("write_file", path="hi.txt", content="hi"), act("FINISH"),
                  "wrote it", act("FINISH"), "done"]


def test_the_invocations_approvals_reach_the_sub_agents(backend: FakeBackend, tmp_path: Path) -> None:
    team, workspace = write(tmp_path, SCRIBE), tmp_path / "ws"
    result = invoke(["--agents", str(team), "--workspace", str(workspace), "write hi"], SCRIBE_REPLIES, backend)
    assert not (workspace / "hi.txt").exists()  # no terminal to ask on, and no --yes: refused
    assert "  │   observation: " in result.stderr and "no terminal" in result.stderr.lower()

    result = invoke(["--agents", str(team), "--yes", "--workspace", str(workspace), "write hi"], SCRIBE_REPLIES,
                    backend)
    assert result.exit_code == 0 and (workspace / "hi.txt").read_text() == "hi"


def test_the_invocations_permission_flags_decide_the_sub_agents_tools(backend: FakeBackend, tmp_path: Path) -> None:
    team = write(tmp_path, '[[agent]]\nname = "boss"\ntools = ["ops"]\n'
                           '[[agent]]\nname = "ops"\ndescription = "runs commands"\ntools = ["shell"]\n')
    result = invoke(["--agents", str(team), "uptime?"], [], backend)
    assert result.exit_code == exit_codes.ERROR and "agent 'ops': unknown tool shell (tools: " in result.stderr
    result = invoke(["--agents", str(team), "--allow-shell", "uptime?"], [act("FINISH"), "fine"], backend)
    assert result.exit_code == 0


def test_a_sub_agent_without_an_answer_says_why() -> None:
    from autoagent.steps import RunResult

    worker = AutoGPT(scripted(act("FINISH"), "", ""), tools=[calculator])  # an empty answer, asked again once
    router = AutoGPT(scripted(act("worker", task="nothing"), act("FINISH"), "ok"),
                     tools=[worker.as_tool("worker", "works")])
    step = router.execute("nothing").steps[0]
    assert step.observation.startswith("worker stopped before finishing (the answer was not verified: ")
    assert step.observation.endswith(") and has no answer.") and not step.success
    finished = RunResult(task="t", stop_reason=StopReason.FINISHED)
    assert worker.as_tool("worker", "works")._observation(finished, None) == "worker finished without an answer."


def test_a_team_run_resumes_with_its_sub_runs(backend: FakeBackend, tmp_path: Path) -> None:
    team, workspace = write(tmp_path, TEAM), str(tmp_path / "ws")
    first = invoke(["--agents", str(team), "--max-steps", "1", "--json", "--workspace", workspace, "q"],
                   [*CLI_REPLIES[:4], "Wednesday, so far"], backend)
    assert first.exit_code == exit_codes.NOT_FINISHED
    run_id = json.loads(first.stdout)["run_id"]

    backend.replies[:] = [*CLI_REPLIES[4:]]
    again = CliRunner().invoke(cli, ["--resume", run_id, "--max-steps", "5", "--json"], catch_exceptions=False)

    data = json.loads(again.stdout)
    assert again.exit_code == 0 and data["answer"] == "Wednesday, and 391."
    assert [step["sub_run"]["agent"] for step in data["steps"] if "sub_run" in step] == ["dates", "math"]
    assert "Action: dates" in backend.models[-1].prompts[0]  # the resumed router saw its first step
    shown = CliRunner().invoke(cli, ["runs", "show", run_id], catch_exceptions=False).stdout
    assert shown.count("  Sub-agent:    ") == 2


def test_the_agents_file_is_a_setting_kept_with_the_run() -> None:
    from autoagent.settings import Settings

    record = Settings(agents_file=Path("team.toml")).to_record()
    assert record["agents_file"] == "team.toml"
    assert Settings.from_record(record).agents_file == Path("team.toml")
