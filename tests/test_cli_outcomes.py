"""What a one-shot run prints for each outcome: empty tasks, --json on errors and interrupts, the answer before
the memory summary, one `stopped:` line, and one run id in transcripts and memory."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from autoagent import AutoGPT
from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.events import RunObserver
from autoagent.report import JSON_SHAPE
from autoagent.steps import RunResult
from autoagent.terminal.display import AnswerPrinter, TerminalDisplay

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act
from .test_report import shape_errors

SOLVED = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def one_object(stdout: str) -> dict[str, Any]:
    """The single JSON object `stdout` holds, checked against the documented shape."""
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    data = json.loads(lines[0])
    assert shape_errors(data, JSON_SHAPE) == []
    return data


@pytest.mark.parametrize("task", [[""], ["   "], ["", " "]])
def test_an_empty_task_is_a_usage_error(backend: FakeBackend, isolated_home: Path, task: list[str]) -> None:
    result = CliRunner().invoke(cli, task)
    assert result.exit_code == exit_codes.USAGE and "the task is empty" in result.stderr
    assert backend.models == [] and not (isolated_home / "runs").exists()


def test_json_prints_one_object_when_the_model_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(ScriptedChatModel):
        def _generate(self, *args: Any, **kwargs: Any) -> Any:
            raise TimeoutError("server timed out")

    import autoagent.llm

    monkeypatch.setattr(autoagent.llm, "load_chat_model", lambda *a, **k: Broken(replies=[]))
    result = CliRunner().invoke(cli, ["--json", "--no-memory", "hi"])
    assert result.exit_code == exit_codes.ERROR
    data = one_object(result.stdout)
    assert data["stop_reason"] == "error" and "server timed out" in data["stop_detail"] and data["run_id"]
    assert "Error: the model call failed" in result.stderr


def test_json_prints_one_object_when_the_run_cannot_start() -> None:
    result = CliRunner().invoke(cli, ["--json", "--model", "gemini:pro", "hi"])
    assert result.exit_code == exit_codes.ERROR
    data = one_object(result.stdout)
    assert data["stop_reason"] == "error" and "unknown model spec" in data["stop_detail"] and data["task"] == "hi"


def test_json_prints_one_object_when_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupted(ScriptedChatModel):
        def _generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            if self.prompts:  # the second call: Ctrl-C
                raise KeyboardInterrupt
            return super()._generate(messages, *args, **kwargs)

    import autoagent.llm

    monkeypatch.setattr(autoagent.llm, "load_chat_model",
                        lambda *a, **k: Interrupted(replies=[act("calculator", expression="6*7")]))
    result = CliRunner().invoke(cli, ["--json", "--no-memory", "count"])
    assert result.exit_code == exit_codes.INTERRUPTED
    data = one_object(result.stdout)
    assert data["stop_reason"] == "interrupted" and len(data["steps"]) == 1 and data["run_id"]
    assert f"stopped: the run was interrupted (continue with: autoagent --resume {data['run_id']})" in result.stderr


def test_an_unfinished_run_prints_one_stopped_line(backend: FakeBackend) -> None:
    replies = [act("calculator", expression="1+1"), act("calculator", expression="2+2"), "partial: 4"]
    result = invoke(["--quiet", "--max-steps", "2", "count"], replies, backend)
    assert result.exit_code == exit_codes.NOT_FINISHED
    assert result.stderr.count("stopped:") == 1 and "unfinished (max steps) · 2 steps" in result.stderr


def test_the_answer_is_shown_before_the_memory_summary(
    backend: FakeBackend, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    import autoagent.llm.embeddings
    import autoagent.terminal.display
    from autoagent.memory.long_term import LongTermMemory

    from .test_memory_support import HashingEmbeddings

    order: list[str] = []
    real_print, real_remember = autoagent.terminal.display.print_answer, LongTermMemory.remember
    monkeypatch.setattr(autoagent.terminal.display, "print_answer",
                        lambda answer, stream=None: (order.append("answer"), real_print(answer, stream))[1])
    monkeypatch.setattr(LongTermMemory, "remember",
                        lambda *a, **k: (order.append("remember"), real_remember(*a, **k))[1])
    monkeypatch.setattr(autoagent.llm.embeddings, "load_embeddings", lambda *a, **k: HashingEmbeddings())
    monkeypatch.setenv("AUTOAGENT_MEMORY", "true")
    result = invoke(["--quiet", "--json", "6*7?"], [*SOLVED, "Multiplied 6 by 7: 42."], backend)
    assert result.exit_code == 0 and order == ["remember"]  # --json: no answer printed apart from the object
    run_id = json.loads(result.stdout)["run_id"]

    order.clear()
    result = invoke(["--quiet", "6*7 again?"], [], backend)
    assert result.exit_code == 0 and result.stdout == "42\n" and order == ["answer", "remember"]

    shown = CliRunner().invoke(cli, ["memory", "show", "1"]).stdout  # one id for the run everywhere
    assert re.search(rf"^Run: +{run_id}$", shown, re.MULTILINE)
    assert run_id in CliRunner().invoke(cli, ["runs", "list"]).stdout


class Recorder(RunObserver):
    def __init__(self) -> None:
        self.events: list[str] = []

    def on_step(self, step: Any) -> None:
        self.events.append("step")

    def on_finishing(self, run: RunResult) -> None:
        self.events.append("finishing")

    def on_answer(self, run: RunResult) -> None:
        self.events.append(f"answer:{run.answer}")

    def on_remembering(self, run: RunResult) -> None:
        self.events.append("remembering")

    def on_run_end(self, run: RunResult) -> None:
        self.events.append("end")


class FakeLongTerm:
    def as_retriever(self) -> None:
        return None

    def remember(self, result: RunResult, *args: Any, **kwargs: Any) -> None:
        pass


def test_the_loop_tells_when_the_answer_exists_and_when_it_remembers() -> None:
    from .test_repl import multiply

    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), "42"])
    agent = AutoGPT(llm=llm, tools=[multiply], long_term_memory=FakeLongTerm())  # type: ignore[arg-type]
    recorder = Recorder()
    agent.execute("6*7?", observers=[recorder])
    assert recorder.events == ["step", "step", "finishing", "answer:42", "remembering", "end"]


def test_a_spinner_while_the_answer_is_written_and_while_remembering() -> None:
    display = TerminalDisplay(Console(file=io.StringIO(), force_terminal=True, width=100))
    run = RunResult("t", "run-1", answer="42")
    display.on_finishing(run)
    assert display.thinking is not None and display.thinking.label == "writing the answer" and display._live
    display.on_answer(run)
    assert display._live is None
    display.on_remembering(run)
    assert display.thinking is not None and display.thinking.label == "remembering this run" and display._live
    display.on_run_end(run)
    assert display._live is None


def test_the_answer_is_printed_once() -> None:
    stream = io.StringIO()
    printer = AnswerPrinter(stream)
    run = RunResult("t", answer="42")
    printer.on_answer(run)
    printer.on_answer(run)
    assert stream.getvalue() == "42\n"
    silent = AnswerPrinter(stream, enabled=False)
    silent.on_answer(run)
    assert stream.getvalue() == "42\n"
