"""Terminal control sequences from the model or a tool are shown escaped, never sent to the terminal raw."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from autoagent.observers import StepTrace
from autoagent.reply import ThoughtAndAction
from autoagent.steps import Step, StepKind
from autoagent.terminal.display import TerminalDisplay, print_answer
from autoagent.terminal.trace import format_step
from autoagent.text import escape_controls

TITLE, CLEAR, CLIPBOARD = "\x1b]0;pwned\x07", "\x1b[2J", "\x1b]52;c;cm0gLXJmIH4=\x07"
ATTACK = f"{TITLE}{CLEAR}{CLIPBOARD}\x9b2J\x90q\x9c\r\x08\x7f\u202eevil"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")


class TtyIO(io.StringIO):
    def isatty(self) -> bool:
        return True


def attack_step() -> Step:
    decision = ThoughtAndAction.model_validate(
        {"thought": {"text": f"thinking {ATTACK}", "plan": [ATTACK]}, "action": {"name": "read_file",
                                                                                 "args": {"path": ATTACK}}}
    )
    return Step(1, StepKind.ACTION, "{}", decision, f"file says {ATTACK}\nsecond line\ttabbed")


def test_escaping_keeps_newlines_and_tabs_and_shows_the_rest() -> None:
    assert escape_controls("a\nb\tc\r\nd") == "a\nb\tc\nd"
    assert escape_controls(TITLE + CLEAR) == "\\x1b]0;pwned\\x07\\x1b[2J"
    assert escape_controls("\x9b2J\u202eé中") == "\\x9b2J\\u202eé中"
    assert not RAW.search(escape_controls(ATTACK))


def test_the_plain_step_trace_escapes_model_and_tool_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert not RAW.search(format_step(attack_step(), 5))
    trace = StepTrace(5)
    trace.on_step(attack_step())
    trace.on_warning(f"retrying: {ATTACK}")
    err = capsys.readouterr().err
    assert "thinking \\x1b]0;pwned\\x07" in err and "second line\ttabbed" in err
    assert not RAW.search(err)


@pytest.mark.parametrize("styled", [False, True])
def test_the_terminal_display_escapes_model_and_tool_text(styled: bool) -> None:
    console = Console(file=io.StringIO(), force_terminal=styled, color_system="truecolor" if styled else None)
    display = TerminalDisplay(console)
    display.on_step(attack_step())
    display.on_warning(ATTACK)
    display.close()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    without_styles = re.sub(r"\x1b\[[0-9;]*m", "", out)  # rich's own colours are fine
    assert "\\x1b[2J" in without_styles and not RAW.search(without_styles)


def test_streamed_tokens_in_the_spinner_line_are_escaped() -> None:
    display = TerminalDisplay(Console(file=io.StringIO(), force_terminal=False))
    display.on_thinking(1, 5)
    display.on_token(ATTACK)
    assert display.thinking is not None and not RAW.search(display.thinking.text(200).plain)
    display.close()


def test_an_answer_on_a_terminal_is_escaped_but_a_pipe_gets_it_exactly() -> None:
    terminal, pipe = TtyIO(), io.StringIO()
    print_answer(f"done {CLEAR}", terminal)
    print_answer(f"done {CLEAR}", pipe)
    assert "\\x1b[2J" in terminal.getvalue() and CLEAR not in terminal.getvalue()
    assert pipe.getvalue() == f"done {CLEAR}\n"
