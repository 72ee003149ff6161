"""Approvals: side-effecting actions ask the user on a real pseudo-terminal; without one they are refused."""

from __future__ import annotations

import io
import os
import pty
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.tools import BaseTool, tool

from autoagent import AutoGPT
from autoagent.acting.approval import (
    ALLOWED,
    DENIED,
    NO_TERMINAL,
    SHOWN_VALUE_CHARS,
    Approver,
    Verdict,
    is_read_only,
)
from autoagent.acting.fence import fenced_body
from autoagent.acting.toolbox import Toolbox
from autoagent.prompts import english_prompts
from autoagent.reply import Action
from autoagent.tools import default_tools, make_shell_tool
from autoagent.tools.amap import amap_tools

from .scripted import ScriptedChatModel, act

DENIED_TEXT = "The user denied this action."
pytestmark = pytest.mark.timeout(20)  # a question nobody answers must fail the test, not hang it

QUESTION_START = "Allow? "


class Terminal:
    """A pseudo-terminal: the approver reads the slave side (a real TTY); the test types on the master side."""

    def __init__(self) -> None:
        self.master, slave = pty.openpty()
        self.input = os.fdopen(slave, "r", encoding="utf-8")
        self.output = io.StringIO()

    def type(self, *lines: str) -> None:
        """Type each line and press Enter."""
        os.write(self.master, "".join(f"{line}\n" for line in lines).encode())

    def approver(self) -> Approver:
        """An approver asking on this terminal."""
        return Approver(input_stream=self.input, output_stream=self.output)

    def questions(self) -> int:
        """How many times the user was asked."""
        return self.output.getvalue().count(QUESTION_START)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    made = Terminal()
    assert made.input.isatty()
    yield made
    made.input.close()
    os.close(made.master)


@tool
def record(note: str) -> str:
    """Record a note (unmarked, so it counts as side-effecting)."""
    return f"recorded {note}"


@tool
def erase(note: str) -> str:
    """Erase a note (another side-effecting tool)."""
    return f"erased {note}"


@tool
def peek(note: str) -> str:
    """Look at a note without changing anything."""
    return f"peeked {note}"


peek.metadata = {"read_only": True}


def test_read_only_is_what_the_metadata_says() -> None:
    assert is_read_only(peek)
    assert not is_read_only(record)  # no marking: the safe default is to ask
    marked = record.model_copy(update={"metadata": {"side_effects": False}})
    assert is_read_only(marked)
    assert not is_read_only(record.model_copy(update={"metadata": {"read_only": False}}))
    assert not is_read_only(record.model_copy(update={"metadata": {"side_effects": True}}))


def test_built_in_tools_are_classed(tmp_path: Path) -> None:
    tools = default_tools(tmp_path / "ws", DeterministicFakeEmbedding(size=8), allow_shell=True)
    tools += amap_tools("key")
    changing = sorted(made.name for made in tools if not is_read_only(made))
    assert changing == ["copy_file", "delete_file", "move_file", "shell", "write_file"]
    reading = {made.name for made in tools if is_read_only(made)}
    assert {"calculator", "calendar", "current_datetime", "read_file", "list_files", "search_files"} <= reading
    assert {"web_search", "read_webpage", "current_location", "search_place", "weather_forecast"} <= reading


def test_yes_allows_once_and_shows_the_action(terminal: Terminal) -> None:
    approver = terminal.approver()
    terminal.type("y", "n")
    assert approver.review("record", {"note": "hello"}) == Verdict(True)
    shown = terminal.output.getvalue()
    assert "The agent wants to run record with:" in shown and '"note": "hello"' in shown
    assert approver.review("record", {"note": "again"}) == DENIED  # asked again
    assert terminal.questions() == 2


def test_yes_to_the_next_n_actions_then_asks_again(terminal: Terminal) -> None:
    approver = terminal.approver()
    terminal.type("y -2", "no")
    assert approver.review("record", {"note": "1"}).allowed
    assert approver.review("erase", {"note": "2"}).allowed  # any side-effecting tool uses up the count
    assert approver.review("record", {"note": "3"}).allowed
    assert terminal.questions() == 1
    assert approver.review("record", {"note": "4"}) == DENIED
    assert terminal.questions() == 2


def test_always_allows_that_tool_only(terminal: Terminal) -> None:
    approver = terminal.approver()
    terminal.type("a", "n")
    assert approver.review("record", {"note": "1"}).allowed
    assert approver.review("record", {"note": "2"}).allowed
    assert approver.review("record", {"note": "3"}).allowed
    assert terminal.questions() == 1
    assert not approver.review("erase", {"note": "4"}).allowed
    assert terminal.questions() == 2


def test_no_denies_and_tells_the_model(terminal: Terminal) -> None:
    terminal.type("N")
    assert terminal.approver().review("record", {"note": "x"}) == DENIED
    assert DENIED.explain("record", english_prompts()) == DENIED_TEXT


def test_other_text_is_feedback_for_the_model(terminal: Terminal) -> None:
    terminal.type("  write it to notes.md instead  ")
    verdict = terminal.approver().review("record", {"note": "x"})
    assert verdict == Verdict(False, "approval_feedback", "write it to notes.md instead")
    told = verdict.explain("record", english_prompts())
    assert told == "The user did not run this action and says: write it to notes.md instead"


def test_an_empty_line_asks_again(terminal: Terminal) -> None:
    terminal.type("", "   ", "yes")
    assert terminal.approver().review("record", {"note": "x"}).allowed
    assert terminal.questions() == 3
    assert terminal.output.getvalue().count("The agent wants to run") == 1  # the action is shown once


def test_end_of_input_denies(terminal: Terminal) -> None:
    os.write(terminal.master, b"\x04")  # Ctrl-D at the start of a line
    assert terminal.approver().review("record", {"note": "x"}) == DENIED


def test_long_arguments_are_shortened_in_the_question(terminal: Terminal) -> None:
    terminal.type("y")
    terminal.approver().review("write_file", {"path": "big.txt", "content": "z" * 5000})
    shown = terminal.output.getvalue()
    cut = re.search(r'"(z+)(⟨\.\.\. ([\d,]+) more characters: answer v to see them⟩)"', shown)
    assert cut is not None and len(cut[1]) + len(cut[2]) == SHOWN_VALUE_CHARS  # the note is within the length
    assert int(cut[3].replace(",", "")) == 5000 - len(cut[1])
    assert "v = view it all" in shown


def test_view_shows_a_long_argument_whole_before_answering(terminal: Terminal) -> None:
    content = "z" * 5000 + " and the end"
    terminal.type("v", "n")
    assert terminal.approver().review("write_file", {"path": "big.txt", "content": content}) == DENIED
    shown = terminal.output.getvalue()
    assert "The whole action, write_file with:" in shown and f'"content": "{content}"' in shown
    assert terminal.questions() == 2  # asked again after showing it


def test_padding_and_control_characters_cannot_hide_part_of_a_command(terminal: Terminal) -> None:
    command = "echo 'tidying up the workspace, one sec'" + " " * 280 + "; rm -f keep.txt"
    terminal.type("n")
    terminal.approver().review("shell", {"command": command})
    shown = terminal.output.getvalue()
    assert "\"echo 'tidying up the workspace, one sec'⟨280 spaces⟩; rm -f keep.txt\"" in shown
    assert "more characters" not in shown and "v = view" not in shown  # nothing was cut
    terminal.type("n")
    terminal.approver().review("shell", {"command": "ls\x1b[2J\x1b]0;title\x07\x9b2J\r; rm -rf ~\u202e"})
    shown = terminal.output.getvalue()
    assert "\x1b" not in shown and "\x9b" not in shown and "\r" not in shown and "\u202e" not in shown
    assert "\\u001b[2J\\u001b]0;title\\u0007\\x9b2J\\r; rm -rf ~\\u202e" in shown


def test_answers_reach_the_toolbox_and_the_tool_runs_only_when_allowed(terminal: Terminal, tmp_path: Path) -> None:
    toolbox = Toolbox(default_tools(tmp_path / "ws"), approver=terminal.approver())
    terminal.type("n", "use another name", "y")
    write = Action(name="write_file", args={"path": "a.txt", "content": "A"})
    assert toolbox.run(write).content == DENIED_TEXT and not (tmp_path / "ws" / "a.txt").exists()
    feedback = toolbox.run(write)
    assert not feedback.success and feedback.content.endswith("says: use another name")
    assert toolbox.run(write).success and (tmp_path / "ws" / "a.txt").read_text() == "A"
    assert fenced_body(toolbox.run(Action(name="read_file", args={"path": "a.txt"})).content) == "A"  # never asked
    assert terminal.questions() == 3


class UnreadableStream(io.StringIO):
    """An input stream that fails the test if anyone reads it."""

    def isatty(self) -> bool:
        return True

    def readline(self, *args: Any) -> str:
        raise AssertionError("the user was asked")


def test_auto_approve_allows_everything_without_asking() -> None:
    output = io.StringIO()
    approver = Approver(auto_approve=True, input_stream=UnreadableStream(), output_stream=output)
    assert all(approver.review(name, {"note": "x"}).allowed for name in ["record", "erase", "shell"])
    assert output.getvalue() == ""


def test_without_a_terminal_side_effects_are_refused_at_once(tmp_path: Path) -> None:
    answers, output = io.StringIO("y\n"), io.StringIO()
    toolbox = Toolbox(default_tools(tmp_path / "ws"), approver=Approver(input_stream=answers, output_stream=output))
    result = toolbox.run(Action(name="write_file", args={"path": "a.txt", "content": "A"}))
    assert not result.success
    assert result.content == (
        "Not run: write_file can change things, so it needs the user's approval, but there is no terminal to ask. "
        "The user can rerun with --yes to allow such actions."
    )
    assert "no terminal to ask" in result.content and "--yes" in result.content
    assert not (tmp_path / "ws" / "a.txt").exists()
    assert answers.tell() == 0 and output.getvalue() == ""  # nothing asked, nothing read
    assert toolbox.run(Action(name="calculator", args={"expression": "6*7"})).content == "42"


def test_the_default_input_is_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert Approver().review("record", {"note": "x"}) == NO_TERMINAL


class CountingApprover(Approver):
    """Records every action it was asked about, and allows it."""

    def __init__(self) -> None:
        super().__init__(auto_approve=True)
        self.reviewed: list[str] = []

    def review(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        self.reviewed.append(tool_name)
        return super().review(tool_name, args)


def test_read_only_unknown_and_malformed_actions_are_never_reviewed() -> None:
    approver = CountingApprover()
    toolbox = Toolbox([record, peek], approver=approver)
    assert toolbox.run(Action(name="peek", args={"note": "x"})).content == "peeked x"
    assert not toolbox.run(Action(name="nope", args={})).success
    assert not toolbox.run(Action(name="record", args={"wrong": "x"})).success
    assert approver.reviewed == []
    assert toolbox.run(Action(name="Record", args={"note": "x"})).content == "recorded x"
    assert approver.reviewed == ["record"]


def test_no_approver_means_no_approvals(tmp_path: Path) -> None:
    shell: BaseTool = make_shell_tool(tmp_path)
    assert Toolbox([shell]).run(Action(name="shell", args={"command": "echo ran"})).content == "ran"


class SlowUser(Approver):
    """A user who takes `wait` seconds to answer each question."""

    def __init__(self, wait: float, verdict: Verdict) -> None:
        super().__init__()
        self.wait, self.verdict = wait, verdict

    def review(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        time.sleep(self.wait)
        return self.verdict


def test_the_time_spent_answering_is_waiting_not_the_steps_time(tmp_path: Path) -> None:
    wait = 1.5
    llm = ScriptedChatModel(replies=[act("write_file", path="a.txt", content="A"), act("FINISH"), "Written."])
    agent = AutoGPT(llm=llm, tools=default_tools(tmp_path / "ws"))
    agent.toolbox.approver = SlowUser(wait, ALLOWED)
    result = agent.execute("write a.txt")
    assert result.finished and result.steps[0].success
    assert result.steps[0].seconds < wait / 2 and result.seconds >= wait  # the run's wall time still holds it

    write = Action(name="write_file", args={"path": "b.txt", "content": "B"})
    assert agent.toolbox.run(write).waited >= wait
    agent.toolbox.approver = SlowUser(0.2, DENIED)
    assert agent.toolbox.run(write).waited >= 0.2
    assert agent.toolbox.run(Action(name="read_file", args={"path": "a.txt"})).waited == 0.0  # never asked


def test_a_denied_action_is_an_observation_and_the_run_goes_on(terminal: Terminal, tmp_path: Path) -> None:
    llm = ScriptedChatModel(replies=[act("write_file", path="a.txt", content="A"), act("search_files", pattern="a.txt"),
                                     act("FINISH"), "Not written."])
    agent = AutoGPT(llm=llm, tools=default_tools(tmp_path / "ws"))
    agent.toolbox.approver = terminal.approver()
    terminal.type("n")
    result = agent.execute("write a.txt")
    assert result.finished and result.answer == "Not written."
    assert result.steps[0].observation == DENIED_TEXT and not result.steps[0].success
    assert DENIED_TEXT in llm.prompts[1]
    assert result.steps[1].success  # the next (read-only) action ran without asking
    assert not (tmp_path / "ws" / "a.txt").exists()
