"""The run as people see it in a terminal: a spinner while the model thinks, each step as a block, a summary.

Styled with rich on a terminal; plain text, with no escape codes at all, when the stream is not a terminal
or NO_COLOR is set.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from langchain_core.callbacks import BaseCallbackHandler
from rich.console import Console, ConsoleOptions, RenderResult
from rich.highlighter import JSONHighlighter
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from ..events import RunObserver
from ..redact import redacted
from ..reply import Action, ThoughtAndAction
from ..report import format_seconds, summary_line
from ..steps import RunResult, Step, StepKind, StopReason
from ..text import escape_controls
from .trace import Line, step_lines


def make_console(stream: TextIO | None = None) -> Console:
    """A console on `stream` (stderr by default); rich detects a terminal and honours NO_COLOR."""
    return Console(file=stream or sys.stderr, highlight=False)


def is_styled(console: Console) -> bool:
    """True when the console takes colour and animation: a real terminal, NO_COLOR unset."""
    return console.is_terminal and not console.no_color and not console.is_dumb_terminal


def print_answer(answer: str, stream: TextIO | None = None) -> None:
    """The final answer on `stream` (stdout by default): Markdown on a terminal, else exactly the text."""
    stream = stream or sys.stdout
    if not answer:
        return
    answer = redacted(answer)
    console = make_console(stream)
    if console.is_terminal:  # a terminal obeys control sequences; a pipe or file gets the text exactly
        answer = escape_controls(answer)
    if is_styled(console):
        from rich.markdown import Markdown  # only when an answer is rendered: it costs the start-up ~40 ms

        console.print(Markdown(answer))
    else:
        print(answer, file=stream, flush=True)


class AnswerPrinter(RunObserver):
    """Prints the final answer on stdout once, as soon as the run has it (before the memory summary)."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.stream = stream
        self.enabled = enabled
        self.shown = False

    def on_answer(self, run: RunResult) -> None:
        """Show `run.answer` unless it is empty or was shown already."""
        if self.enabled and not self.shown and run.answer:
            print_answer(run.answer, self.stream)
            self.shown = True


class _Thinking:
    """The spinner line: what is being done (a step, the answer, the memory), elapsed time, and the tail of
    the reply as the model streams it."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.monotonic()
        self.spinner = Spinner("dots", style="cyan")
        self.tokens = 0
        self.streamed = ""

    def add_token(self, token: str) -> None:
        """Count a streamed token and keep the reply's end for the line."""
        self.tokens += 1
        self.streamed = (self.streamed + escape_controls(token))[-500:]

    def text(self, width: int = 80) -> Text:
        """The line without its spinner frame, at most `width` cells."""
        line = Text(f"{self.label} · {format_seconds(time.monotonic() - self.started)}", style="cyan")
        if self.tokens:
            line.append(f" · {self.tokens} token{'' if self.tokens == 1 else 's'}", style="dim")
            room = width - line.cell_len - 3
            tail = " ".join(self.streamed.split())[-room:] if room > 10 else ""
            if tail:
                line.append(f" {tail}", style="dim italic")
        return line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        frame = self.spinner.render(console.get_time())  # a Text, as the spinner has no text of its own
        yield Text.assemble(frame if isinstance(frame, Text) else "", " ", self.text(options.max_width - 2),
                            no_wrap=True, overflow="ellipsis")


class TokenStream(BaseCallbackHandler):
    """A LangChain callback that shows a streaming model's tokens in the display's spinner line."""

    def __init__(self, display: TerminalDisplay) -> None:
        self.display = display

    def on_llm_new_token(self, token: str | list[str | dict[str, Any]], **kwargs: Any) -> None:
        """A token arrived from the model (a text, or content blocks)."""
        if isinstance(token, list):
            token = "".join(part if isinstance(part, str) else str(part.get("text", "")) for part in token)
        self.display.on_token(token)


class TerminalDisplay(RunObserver):
    """Renders a run's events on a console (stderr by default); `show_steps=False` keeps only the
    spinner, plan, warnings and summary."""

    def __init__(self, console: Console | None = None, *, show_steps: bool = True, depth: int = 0,
                 agent: str = "") -> None:
        self.console = console or make_console()
        self.show_steps = show_steps
        self.depth, self.agent = depth, agent  # a sub-agent's display: its lines indented under the calling step
        self.running = False
        self._inner: TerminalDisplay | None = None  # the display of the sub-agent this run called last
        self.styled = is_styled(self.console)
        self.max_steps = 0
        self.run: RunResult | None = None
        self.thinking: _Thinking | None = None
        self._live: Live | None = None
        self._step = (0, time.monotonic())  # the step being thought about, and since when
        self._announced: tuple[int, int] = (0, 0)  # a step whose thought and action were shown: number, lines

    def callbacks(self) -> list[BaseCallbackHandler]:
        """Callbacks to pass to the model so that its streamed tokens show while it thinks."""
        return [TokenStream(self)]

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        """Remember the run (its id, for transcript hints) and say when it resumes."""
        self.run, self.max_steps, self.running = run, max_steps, True
        if run.steps:
            count = len(run.steps)
            self._print([(f"resuming run {run.run_id} after {count} step{'' if count == 1 else 's'}", "dim")])

    def on_thinking(self, number: int, max_steps: int) -> None:
        """Start the spinner (on a terminal only)."""
        self.max_steps, self._step = max_steps, (number, time.monotonic())
        self._start_spinner(f"thinking · {self.agent + ' · ' if self.agent else ''}step {number}/{max_steps}")

    def on_token(self, token: str) -> None:
        """A streamed token: shown in the spinner line (a running sub-agent's, while one runs)."""
        if self._inner is not None and self._inner.running:
            self._inner.on_token(token)
        elif self.thinking is not None:
            self.thinking.add_token(token)

    def on_plan(self, plan: list[str]) -> None:
        """The planned tool chain as a numbered list."""
        self._stop_spinner()
        self._print([("[plan]", "bold")])
        for number, name in enumerate(plan, start=1):
            self._print([(f"  {number}. ", "dim"), (name, "cyan")])

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        """Stop the spinner and show the step so far (time, thought, action): the tool may ask for approval
        next, and the user should see why before answering."""
        self._stop_spinner()
        number, started = self._step
        if not self.show_steps or decision is None or not number:
            return
        thought = Step(number, StepKind.ACTION, "", decision, "", seconds=time.monotonic() - started)
        head = self._named(step_lines(thought, self.max_steps or number)[:-1])  # the observation is still to come
        for line in head:
            self._print(line)
        self._announced = (number, len(head))

    def on_step(self, step: Step) -> None:
        """Stop the spinner and show the step's block (its observation only, when the rest was shown)."""
        self._stop_spinner()
        if not self.show_steps:
            return
        run_id = self.run.run_id if self.run is not None else ""
        lines = self._named(step_lines(step, self.max_steps or step.number, run_id))
        number, shown = self._announced
        for line in lines[shown:] if number == step.number else lines:
            self._print(line)

    def on_warning(self, message: str) -> None:
        """A yellow warning line (printed above a running spinner)."""
        self._print([("warning: ", "bold yellow"), (message, "yellow")])

    def on_finishing(self, run: RunResult) -> None:
        """A spinner while the final answer is made (a carried answer stops it at once)."""
        self._start_spinner(f"{self.agent + ' · ' if self.agent else ''}writing the answer")

    def on_answer(self, run: RunResult) -> None:
        """Stop the spinner: the answer is shown next, on stdout."""
        self._stop_spinner()

    def on_remembering(self, run: RunResult) -> None:
        """A spinner while the run is summarised into long-term memory."""
        self._start_spinner("remembering this run")

    def on_run_end(self, run: RunResult) -> None:
        """Stop any spinner, then the one-line summary (on a fresh line after a Ctrl-C's `^C`)."""
        self._stop_spinner()
        self.running = False
        if run.stop_reason is StopReason.INTERRUPTED and self.console.is_terminal and not self.depth:
            self.console.print()
        if self.show_steps or not self.depth:  # --quiet keeps the one summary line: the run's own
            self._print(self._named([[(summary_line(run), "green" if run.finished else "yellow")]])[0])

    def nested(self, agent: str, depth: int) -> TerminalDisplay:
        """The display of a sub-agent's run: on the same console, its lines indented and named."""
        self._inner = TerminalDisplay(self.console, show_steps=self.show_steps, depth=depth, agent=agent)
        return self._inner

    def close(self) -> None:
        """Stop the spinner if one runs; safe to call more than once."""
        self._stop_spinner()

    def _start_spinner(self, label: str) -> None:
        """Replace any spinner with one for `label` (on a terminal only; `thinking` is kept for tokens)."""
        self._stop_spinner()
        self.thinking = _Thinking(label)
        if self.styled:
            self._live = Live(self.thinking, console=self.console, refresh_per_second=10, transient=True,
                              redirect_stdout=False)
            self._live.start()

    def _stop_spinner(self) -> None:
        live, self._live, self.thinking = self._live, None, None
        if live is not None:
            live.stop()

    def _named(self, lines: list[Line]) -> list[Line]:
        """A sub-agent's lines, the first one named after it (the top agent's as they are)."""
        if not self.agent or not lines:
            return lines
        return [[(f"{self.agent} ", "bold magenta"), *lines[0]], *lines[1:]]

    def _print(self, line: Line) -> None:
        """One line: styled segments on a terminal, plain text (no escape codes at all) otherwise; control
        characters in model or tool text are shown escaped; a sub-agent's indented under the calling step."""
        line = [(escape_controls(redacted(text)), style) for text, style in line]
        if self.depth:
            line = [("  " * self.depth + "│ ", "dim"), *line]
        if not self.styled:
            plain = "".join(text for text, _ in line)
            self.console.print(plain, markup=False, highlight=False, emoji=False, soft_wrap=True)
            return
        text = Text()
        for part, style in line:
            if style == "json":
                text.append_text(JSONHighlighter()(Text(part)))
            else:
                text.append(part, style=style or None)
        self.console.print(text, soft_wrap=True)
