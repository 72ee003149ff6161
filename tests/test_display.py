"""The terminal display: step blocks, spinner, summary, answer; plain with no escape codes off a terminal."""

from __future__ import annotations

import io
import re
import time
from typing import Any
from uuid import uuid4

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from rich.console import Console

from autoagent import AutoGPT
from autoagent.reply import ThoughtAndAction
from autoagent.steps import RunResult, Step, StepKind, StopReason, Usage
from autoagent.terminal.display import TerminalDisplay, is_styled, make_console, print_answer
from autoagent.terminal.trace import format_step

from .scripted import ScriptedChatModel, act

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LONG = "\n".join(f"line {number} " + "z" * 60 for number in range(20))


class TtyIO(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def clean_terminal_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def decision(name: str, thought: str = "look it up", plan: tuple[str, ...] = (), **args: Any) -> ThoughtAndAction:
    return ThoughtAndAction.model_validate(
        {"thought": {"text": thought, "plan": list(plan)}, "action": {"name": name, "args": args}}
    )


def sample_run() -> RunResult:
    steps = [
        Step(1, StepKind.ACTION, "{}", decision("search", plan=("search", "read"), query="weather in Paris"), LONG,
             seconds=2.3),
        Step(2, StepKind.PARSE_ERROR, "not json at all", None, "no JSON object found in the reply", success=False),
        Step(3, StepKind.REPEATED, "{}", decision("search", query="weather in Paris"), "you did this in step 1",
             success=False),
        Step(4, StepKind.ACTION, "{}", decision("read_file", path="x"), "Error: no such file", success=False),
        Step(5, StepKind.FINISH, "{}", decision("FINISH", answer="sunny"), ""),
    ]
    usage = Usage(calls=5, input_tokens=1996, output_tokens=115, estimated=True)
    return RunResult("weather?", "run-42", "It is *sunny*.", StopReason.FINISHED, "", steps, usage, 8.1)


def render(console: Console, run: RunResult | None = None) -> str:
    """Drive a display through a whole run's events; the console's text."""
    run = run or sample_run()
    display = TerminalDisplay(console)
    display.on_run_start(RunResult(run.task, run.run_id), 10)
    display.on_plan(["search", "read_file"])
    for step in run.steps:
        display.on_thinking(step.number, 10)
        display.on_step(step)
    display.on_warning("80% of the step budget is spent")
    display.on_run_end(run)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


@pytest.mark.parametrize(
    "console",
    [
        Console(file=io.StringIO(), force_terminal=False),
        Console(file=io.StringIO(), force_terminal=True, no_color=True),
    ],
    ids=["not-a-terminal", "no-color"],
)
def test_plain_output_has_no_escape_codes_and_every_part_of_a_step(console: Console) -> None:
    out = render(console)
    assert "\x1b" not in out
    assert "[step 1/10] · 2.3 s\n  thought: look it up\n    - search\n    - read\n" in out
    assert '  action: search {"query": "weather in Paris"}\n  observation: line 0 ' in out
    assert "line 5" in out and "line 6" not in out  # shortened to a few lines
    assert "… (whole in the transcript: autoagent runs show run-42)" in out
    assert "[step 2/10] unparseable reply\n  reply: 'not json at all'\n" in out
    assert "[step 3/10] repeated action" in out
    assert "observation: Error: no such file" in out
    assert "[plan]\n  1. search\n  2. read_file\n" in out
    assert "warning: 80% of the step budget is spent" in out
    assert out.endswith("finished · 5 steps · 8.1 s · ~1,996 in / ~115 out tokens\n")
    assert "thinking" not in out  # no spinner off a terminal


def test_styled_output_colours_the_same_content() -> None:
    out = render(Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=120))
    assert "\x1b[" in out
    text = ANSI.sub("", out)
    assert "thought: look it up" in text and 'action: search {"query": "weather in Paris"}' in text
    assert "whole in the transcript: autoagent runs show run-42" in text
    assert "finished · 5 steps · 8.1 s" in text


def test_no_hint_without_a_run_id_and_none_for_a_short_observation() -> None:
    step = sample_run().steps[0]
    assert "transcript" not in format_step(step, 10)
    assert format_step(step, 10).rstrip().endswith("…")
    short = Step(1, StepKind.ACTION, "{}", decision("multiply", a=2, b=21), "42")
    assert format_step(short, 10, run_id="run-42").endswith('action: multiply {"a": 2, "b": 21}\n  observation: 42')


def test_make_console_honours_no_color_and_terminals(monkeypatch: pytest.MonkeyPatch) -> None:
    assert is_styled(make_console(TtyIO()))
    assert not is_styled(make_console(io.StringIO()))
    monkeypatch.setenv("NO_COLOR", "1")
    console = make_console(TtyIO())
    assert not is_styled(console)
    assert "\x1b" not in render(console)


def test_spinner_runs_while_thinking_and_stops_at_the_end() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    display = TerminalDisplay(console)
    display.on_run_start(RunResult("t", "run-1"), 10)
    display.on_thinking(3, 10)
    live = display._live
    assert live is not None and live._refresh_thread is not None and live._refresh_thread.is_alive()
    time.sleep(0.25)
    display.on_run_end(RunResult("t", "run-1", stop_reason=StopReason.INTERRUPTED))  # as from a `finally`
    assert display._live is None and not live.is_started
    assert live._refresh_thread is None or not live._refresh_thread.is_alive()
    text = ANSI.sub("", console.file.getvalue())  # type: ignore[attr-defined]
    assert re.search(r"thinking · step 3/10 · \d\.\d s", text)
    assert "unfinished (interrupted) · 0 steps" in text


def test_a_second_thinking_replaces_the_spinner() -> None:
    display = TerminalDisplay(Console(file=io.StringIO(), force_terminal=True))
    display.on_thinking(1, 10)
    first = display._live
    display.on_thinking(2, 10)
    assert first is not None and not first.is_started and display._live is not first
    display.close()
    display.close()
    assert display._live is None


def test_streamed_tokens_show_in_the_spinner_line() -> None:
    display = TerminalDisplay(Console(file=io.StringIO(), force_terminal=True, width=100))
    display.on_thinking(1, 10)
    model = GenericFakeChatModel(messages=iter([AIMessage(content='{"thought": "the sky is blue"}')]))
    "".join(str(chunk.content) for chunk in model.stream("hi", config={"callbacks": display.callbacks()}))
    assert display.thinking is not None and display.thinking.tokens > 1
    line = display.thinking.text(width=100).plain
    assert line.startswith("thinking · step 1/10 · ") and line.endswith('{"thought": "the sky is blue"}')
    assert len(display.thinking.text(width=40).plain) <= 40
    display.callbacks()[0].on_llm_new_token(["!", {"type": "text", "text": " done"}], run_id=uuid4())
    assert display.thinking.text(width=100).plain.endswith("blue\"}! done")
    display.close()


def test_show_steps_off_keeps_only_the_summary() -> None:
    console = Console(file=io.StringIO(), force_terminal=False)
    display = TerminalDisplay(console, show_steps=False)
    run = sample_run()
    display.on_run_start(run, 10)
    for step in run.steps:
        display.on_step(step)
    display.on_run_end(run)
    assert console.file.getvalue() == (  # type: ignore[attr-defined]
        "resuming run run-42 after 5 steps\nfinished · 5 steps · 8.1 s · ~1,996 in / ~115 out tokens\n"
    )


def test_answer_is_exact_off_a_terminal_and_markdown_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = "# Weather\n\nIt is **sunny**."
    piped = io.StringIO()
    print_answer(answer, piped)
    assert piped.getvalue() == answer + "\n"
    terminal = TtyIO()
    print_answer(answer, terminal)
    assert "\x1b[" in terminal.getvalue() and "**" not in terminal.getvalue()
    assert "sunny" in ANSI.sub("", terminal.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    no_color = TtyIO()
    print_answer(answer, no_color)
    assert no_color.getvalue() == answer + "\n"
    print_answer("", piped)
    assert piped.getvalue() == answer + "\n"


def test_answer_defaults_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    print_answer("42")
    assert capsys.readouterr() == ("42\n", "")


@tool
def multiply(a: int, b: int) -> str:
    """Multiply two integers."""
    return str(a * b)


def test_a_real_run_renders_through_the_display() -> None:
    console = Console(file=io.StringIO(), force_terminal=False)
    display = TerminalDisplay(console)
    llm = ScriptedChatModel(replies=[act("multiply", "compute it", a=2, b=21), act("FINISH"), "42"])
    agent = AutoGPT(llm=llm, tools=[multiply], on_step=display.on_step, callbacks=display.callbacks())
    display.on_run_start(RunResult("2*21"), agent.max_thought_steps)
    run = agent.execute("2*21")
    display.on_run_end(run)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[step 1/10]" in out and "thought: compute it" in out
    assert 'action: multiply {"a": 2, "b": 21}\n  observation: 42\n' in out
    assert "[step 2/10]" in out and "action: FINISH {}" in out
    assert out.splitlines()[-1].startswith("finished · 2 steps · ")
