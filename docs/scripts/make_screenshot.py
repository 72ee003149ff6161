"""Draw docs/assets/run.svg: a real run through autoagent's terminal display, with a scripted model, recorded
by rich (`make docs-screenshot`; tests/test_docs_screenshot.py checks the committed picture is current)."""

from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from rich.console import Console
from rich.markdown import Markdown

from autoagent import AgentOptions, AutoGPT
from autoagent.acting.approval import Approver
from autoagent.events import RunObserver
from autoagent.steps import RunResult
from autoagent.terminal.display import TerminalDisplay
from autoagent.tools import default_tools

OUT = Path(__file__).resolve().parent.parent / "assets" / "run.svg"
TASK = "What is 15% of 2480? Write the result to result.txt."
ANSWER = "15% of 2480 is **372**; I wrote it to `result.txt`."


def reply(thought: str, tool: str, **args: object) -> AIMessage:
    """A Thought/Action reply as the model writes it under `--protocol json`."""
    decision = {"thought": {"text": thought, "plan": []}, "action": {"name": tool, "args": args}}
    return AIMessage(content=json.dumps(decision))


SCRIPT = [
    reply("15% of 2480 is 2480 * 15 / 100; the calculator works it out.", "calculator", expression="2480 * 15 / 100"),
    reply("The result is 372; I save it to result.txt as asked.", "write_file", path="result.txt", content="372"),
    reply("372 is computed and saved, so the task is done.", "FINISH"),
    AIMessage(content=ANSWER),
]


class PacedModel(GenericFakeChatModel):
    """The scripted replies, each after a pause, so the step times look like a small model's."""

    pause: float = 0.8

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.pause)
        return super()._generate(*args, **kwargs)


class StillDisplay(TerminalDisplay):
    """The terminal display without its spinner: a spinner's frames are erased on a terminal, but a recording
    console would keep every one."""

    def _start_spinner(self, label: str) -> None:
        self._stop_spinner()


class AnswerOnConsole(RunObserver):
    """The answer as `autoagent` prints it on a terminal's stdout: Markdown."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def on_answer(self, run: RunResult) -> None:
        """Show the answer once it exists."""
        self.console.print(Markdown(run.answer))


def record_run(width: int = 92) -> Console:
    """Run TASK on the scripted model with the terminal display on a recording console; the console."""
    console = Console(record=True, file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor")
    display = StillDisplay(console)
    model = PacedModel(messages=iter(SCRIPT))
    with tempfile.TemporaryDirectory() as workspace:
        agent = AutoGPT(model, default_tools(Path(workspace)), prompts_path=None, max_thought_steps=10,
                        options=AgentOptions(approver=Approver(auto_approve=True)))
        console.print(f"[bold]$[/] autoagent --yes {json.dumps(TASK)}", highlight=False)
        try:
            agent.execute(TASK, observers=[display, AnswerOnConsole(console)])
        finally:
            display.close()
    return console


def main() -> None:
    """Write the SVG (to the path given, else docs/assets/run.svg)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(record_run().export_svg(title="autoagent"), encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
