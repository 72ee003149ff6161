"""Smaller things a polished CLI does: the thought before an approval, ^C on its own line, `warning:` lines,
ties in memory search, honest plurals."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from autoagent.acting.approval import QUESTION
from autoagent.memory.store import MemoryStore
from autoagent.reply import ThoughtAndAction
from autoagent.steps import RunResult, Step, StepKind, StopReason
from autoagent.terminal.display import TerminalDisplay

from .cli_backend import FakeBackend, invoke
from .scripted import act
from .test_memory_cli import hash_embeddings  # noqa: F401
from .test_memory_support import HASH_MODEL, entry, hash_vector

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_thought_and_action_show_before_the_tool_asks_for_approval() -> None:
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    display = TerminalDisplay(console)
    decision = ThoughtAndAction.model_validate(
        {"thought": {"text": "save the note"}, "action": {"name": "write_file", "args": {"path": "n.txt"}}})
    display.on_thinking(1, 10)
    display.on_tool_start(decision.action, decision)
    before = console.file.getvalue()  # type: ignore[attr-defined]
    assert before.startswith("[step 1/10]") and "thought: save the note" in before
    assert 'action: write_file {"path": "n.txt"}' in before and "observation" not in before
    display.on_step(Step(1, StepKind.ACTION, "", decision, "Wrote 2 characters to n.txt.", seconds=30.0))
    after = console.file.getvalue()[len(before):]  # type: ignore[attr-defined]
    assert after == "  observation: Wrote 2 characters to n.txt.\n"  # the rest of the block; the thought once
    assert "30.0 s" not in before  # the step's time is the model's, not the user's answering


def test_an_interrupted_run_ends_on_a_fresh_line_after_the_terminal_s_caret_c() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    TerminalDisplay(console).on_run_end(RunResult("t", stop_reason=StopReason.INTERRUPTED))
    assert ANSI.sub("", console.file.getvalue()).startswith("\nunfinished (interrupted)")  # type: ignore[attr-defined]


def test_the_always_answer_says_it_lasts_the_session() -> None:
    assert "a = always allow {tool} (this session)" in QUESTION


def test_log_warnings_are_warning_lines(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.llm.embeddings

    from .test_memory_support import HashingEmbeddings

    monkeypatch.setattr(autoagent.llm.embeddings, "load_embeddings", lambda *a, **k: HashingEmbeddings())
    monkeypatch.setenv("AUTOAGENT_MEMORY", "true")
    result = invoke(["--quiet", "6*7?"], [act("calculator", expression="6*7"), act("FINISH"), "42"], backend)
    assert result.exit_code == 0 and result.stdout == "42\n"  # the script has no summary: nothing remembered
    assert re.search(r"^warning: this run is not remembered: ", result.stderr, re.MULTILINE)


def test_memory_search_lists_ties_newest_first(hash_embeddings: list[object]) -> None:  # noqa: F811
    store = MemoryStore()
    for number, task in enumerate(["oldest", "middle", "newest"]):
        record = dataclasses.replace(entry(task, "Converted USD to EUR."), created=f"2026-01-0{number + 1}T10:00:00")
        store.add(record, hash_vector("usd to eur"), HASH_MODEL)
    from autoagent.commands.memory import memory

    result = CliRunner().invoke(memory, ["search", "usd", "to", "eur"])
    assert result.exit_code == 0, result.output
    tasks = [line.split()[-1] for line in result.output.splitlines() if line[:1].isdigit()]
    assert tasks == ["newest", "middle", "oldest"]


def test_one_character_is_singular(tmp_path: Path) -> None:
    from autoagent.tools.files import file_tools

    write = {tool.name: tool for tool in file_tools(tmp_path)}["write_file"]
    assert write.invoke({"path": "a.txt", "content": "x"}) == "Wrote 1 character to a.txt."


def test_a_budget_warns_before_a_step_that_would_jump_past_it() -> None:
    from autoagent.loop.budget import Budget, BudgetGuard
    from autoagent.steps import Usage

    guard = BudgetGuard(Budget(max_tokens=2500))
    assert guard.check(Usage(input_tokens=900, output_tokens=100), 1.0) == ([], None)  # 40%: +40% stays under
    warnings, stop = guard.check(Usage(input_tokens=1700, output_tokens=200), 2.0)  # 76%, and +36% passes it
    assert stop is None and warnings == ["76% of --max-tokens 2,500 tokens used (1,900 tokens); one more step like "
                                         "the last would spend it; the run stops at 100%"]
    assert guard.check(Usage(input_tokens=2700, output_tokens=264), 3.0)[1] == "--max-tokens 2,500 tokens reached " \
        "(2,964 tokens used)"


def test_recall_gives_each_summary_once(tmp_path: Path) -> None:
    from .test_memory_support import local_memory

    memory = local_memory(tmp_path)
    for task in ("convert usd to eur", "convert usd to eur", "convert usd to eur today"):
        memory.backend.add(entry(task, "Converted 100 USD to EUR at 0.92: 92 EUR."))
    memory.backend.add(entry("convert usd to gbp", "Converted 100 USD to GBP at 0.79: 79 GBP."))
    summaries = [document.page_content for document in memory.recall("convert usd to eur")]
    assert summaries.count("Converted 100 USD to EUR at 0.92: 92 EUR.") == 1
