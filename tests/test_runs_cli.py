"""`autoagent runs list` / `runs show`, and the REPL's /runs helper, on transcripts written by the writer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from autoagent.cli import cli
from autoagent.commands.runs import run_runs_command, runs
from autoagent.steps import RunResult, StopReason, Usage
from autoagent.transcripts import writer as transcript_module
from autoagent.transcripts.writer import TranscriptWriter, runs_dir

from .test_transcript import SETTINGS, sample_steps, write_run

REPO = Path(__file__).resolve().parents[1]
FINISHED = "20260101-090000-aaaa"
STOPPED = "20260101-100000-bbbb"
KILLED = "20260102-080000-cccc"


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three runs: one finished after a resume, one stopped at the step limit, one killed."""
    monkeypatch.setattr(transcript_module, "_now", lambda: "2026-01-01T09:00:00+00:00")
    steps = sample_steps()
    write_run(runs_dir(), steps[:2], run_id=FINISHED, stop=StopReason.BUDGET, answer="")
    writer = TranscriptWriter(SETTINGS)
    run = RunResult(task="What is 6 times 7?", run_id=FINISHED, steps=steps[:2])
    writer.on_run_start(run, 5)
    for step in steps[2:]:
        writer.on_step(step)
    writer.on_warning("80% of the token budget is spent")
    run.stop_reason, run.answer, run.seconds = StopReason.FINISHED, "The product is 42.\nChecked twice.", 2.5
    run.usage = Usage(calls=6, input_tokens=300, output_tokens=40, estimated=True, cost_usd=0.00012)
    writer.on_run_end(run)
    write_run(runs_dir(), steps[:1], run_id=STOPPED, task="Count " + "and count " * 20, stop=StopReason.MAX_STEPS)
    write_run(runs_dir(), steps[:2], run_id=KILLED, task="Multi\nline task", stop=None)
    return runs_dir()


def invoke(*args: str) -> Result:
    return CliRunner().invoke(runs, list(args))


def test_list_without_runs() -> None:
    result = invoke("list")
    assert (result.exit_code, result.output) == (0, "No runs yet.\n")


def test_list_shows_newest_first_with_status_steps_and_a_one_line_task(history: Path) -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert result.output == (
        "ID                    WHEN (UTC)        STATUS              STEPS  TASK\n"
        "20260102-080000-cccc  2026-01-01 09:00  killed                  2  Multi line task\n"
        "20260101-100000-bbbb  2026-01-01 09:00  stopped: max_steps      1  "
        "Count and count and count and count and count and count and…\n"
        "20260101-090000-aaaa  2026-01-01 09:00  finished                5  What is 6 times 7?\n")
    assert invoke("list", "--limit", "1").output.splitlines()[1:] == [
        "20260102-080000-cccc  2026-01-01 09:00  killed      2  Multi line task", "(1 of 3 shown)"]


def test_show_prints_the_whole_run(history: Path) -> None:
    result = invoke("show", "20260101-09")
    assert result.exit_code == 0
    assert result.output == """\
Run:      20260101-090000-aaaa
Task:     What is 6 times 7?
Started:  2026-01-01T09:00:00+00:00
Status:   finished
Resumed:  2026-01-01T09:00:00+00:00, from step 3
Settings:
  model: openai:gpt-4o-mini
  max_steps: 5
  protocol: json

Step 1 (action, 1.23 s, 120 in / 31 out tokens)
  Thought:      multiply
  Reasoning:    it is asked
  Plan:         multiply
                finish
  Criticism:    none
  Speak:        on it
  Action:       multiply {"a": 6, "b": 7, "note": "café ☕", "nested": {"x": [1, 2.5, null]}}
  Observation:  42

Step 2 (parse_error, failed, 0.50 s, 0 in / 0 out tokens)
  Reply:        not json at all
  Observation:  no JSON object found

Step 3 (repeated, failed, 0.00 s, 0 in / 0 out tokens)
  Thought:      working on it
  Action:       multiply {"a": 6, "b": 7}
  Observation:  you did that at step 1

Step 4 (action, failed, 0.01 s, 7 in / 3 out tokens)
  Thought:      working on it
  Action:       explode {"reason": "x"}
  Observation:  Error: boom
                line 2

Step 5 (finish, 0.00 s, 9 in / 2 out tokens)
  Thought:      working on it
  Action:       FINISH {}

Warnings:
  - 80% of the token budget is spent

Outcome:  the task was finished
Answer:   The product is 42.
          Checked twice.
Usage:    6 calls, 300 input + 40 output tokens (estimated), $0.000120, 2.5 s
"""


def test_show_says_how_to_continue_a_run_that_did_not_finish(history: Path) -> None:
    killed = invoke("show", KILLED).output.splitlines()
    assert killed[-1] == ("Outcome:  no end record: the process was killed (or is still running); "
                          f"continue it with `autoagent --resume {KILLED}`")
    stopped = invoke("show", STOPPED).output.splitlines()
    assert stopped[-3:] == [
        "Outcome:  the step limit was reached before the task was finished; "
        f"continue it with `autoagent --resume {STOPPED}`",
        "Answer:   42",
        "Usage:    2 calls, 300 input + 40 output tokens (estimated), $0.000120, 2.5 s"]


def test_show_json_prints_the_raw_records(history: Path) -> None:
    result = invoke("show", "--json", KILLED)
    assert result.exit_code == 0
    path = history / f"{KILLED}.jsonl"
    expected = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [json.loads(line) for line in result.output.splitlines()] == expected
    assert [record["type"] for record in expected] == ["start", "step", "step"]


def test_unknown_ambiguous_and_damaged_ids_are_one_line_and_exit_1(history: Path) -> None:
    unknown = invoke("show", "zzz")
    assert unknown.exit_code == 1
    assert unknown.output == f"Error: no run with id 'zzz' in {history} (see `autoagent runs list`)\n"
    ambiguous = invoke("show", "20260101")
    assert (ambiguous.exit_code, ambiguous.output) == (
        1, f"Error: the id '20260101' is ambiguous: it starts 2 runs ({STOPPED}, {FINISHED})\n")
    (history / f"{KILLED}.jsonl").write_text("not json\n{}\n", encoding="utf-8")
    damaged = invoke("show", KILLED)
    assert damaged.exit_code == 1 and damaged.output.startswith(f"Error: the transcript {history / KILLED}.jsonl")
    assert len(damaged.output.splitlines()) == 1


@pytest.mark.parametrize("depth", [150, 100_000])
def test_a_deeply_nested_record_is_a_damaged_transcript_not_a_crash(history: Path, depth: int) -> None:
    # The attack: a record nested past the recursion limit crashed `runs list`, `runs show` and `--resume`.
    deep = json.dumps({"type": "step", "number": 2, "kind": "action"})[:-1] + ', "x": ' + "[" * depth + "]" * depth
    path = history / f"{KILLED}.jsonl"
    path.write_text("\n".join([*path.read_text(encoding="utf-8").splitlines()[:2], deep + "}", '{"type": "step"}']),
                    encoding="utf-8")
    listed = invoke("list")
    assert listed.exit_code == 0 and KILLED in listed.output
    shown = invoke("show", KILLED)
    assert shown.exit_code == 1 and shown.output == (f"Error: the transcript {path} is damaged: record 3 is not "
                                                     "JSON\n")
    resumed = CliRunner().invoke(cli, ["--resume", KILLED], catch_exceptions=False)
    assert resumed.exit_code == 1 and "is damaged: record 3 is not JSON" in resumed.stderr


def test_the_runs_group_is_a_sub_command_of_autoagent_and_every_option_has_help(history: Path) -> None:
    result = CliRunner().invoke(cli, ["runs", "show", KILLED])
    assert result.exit_code == 0 and result.output.startswith(f"Run:      {KILLED}\n")
    for command in runs.commands.values():
        for parameter in command.params:
            assert not isinstance(parameter, click.Option) or parameter.help, f"{parameter.name}: no help"
    assert "Show at most this many runs" in CliRunner().invoke(cli, ["runs", "list", "--help"]).output


def test_repl_runs_command(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_runs_command("")
    assert capsys.readouterr().out.splitlines()[1].startswith(KILLED)
    run_runs_command("  show --json  20260102 ")
    assert json.loads(capsys.readouterr().out.splitlines()[0])["run_id"] == KILLED
    run_runs_command("show nope")
    assert capsys.readouterr().err == f"Error: no run with id 'nope' in {history} (see `autoagent runs list`)\n"
    run_runs_command('show "unbalanced')
    assert capsys.readouterr().err == "Error: No closing quotation\n"


def test_importing_the_cli_loads_no_langchain() -> None:
    code = "import sys, autoagent.cli; print(sorted(m for m in sys.modules if m.startswith('langchain')))"
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=environment,
                            check=True, timeout=60).stdout
    assert output == "[]\n"
