"""`make bench`'s autoagent script (bench/agent_ours.py) on its instant scripted model: a run long enough that the
default settings would compact it (a step limit past twice the window) keeps to the script's calls, both when timed
and when its prompts are written out; and how bench/embedded.py times the finish prompt apart from the finish step.
Offline and fast (a fraction of a second a run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from bench.embedded import CallTimes, step_seconds

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "agent_ours.py"
STEPS = 12  # past twice the default window of 5: compaction's auto setting would compact this run


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    """bench/agent_ours.py in this venv, as `python -m bench overhead` starts it."""
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_timed_runs_make_only_the_scripts_calls() -> None:
    done = run_script("--steps", str(STEPS), "--runs", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    timings = json.loads(done.stdout)
    assert list(timings) == [str(STEPS)]
    assert len(timings[str(STEPS)]) == 1 and timings[str(STEPS)][0] > 0


def test_prompts_of_a_long_run_are_written(tmp_path: Path) -> None:
    out = tmp_path / "prompts.json"
    done = run_script("--steps", str(STEPS), "--prompts-out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["loop_calls"] == STEPS + 1
    assert len(record["calls"]) == STEPS + 2  # every loop step, then the final answer; no summary call


def test_the_finish_prompt_is_timed_apart_from_the_finish_step() -> None:
    calls = CallTimes()
    calls.wall = [2.5, 1.5, 0.75]  # two steps' calls, then the finish prompt the finish step made
    run = SimpleNamespace(steps=[SimpleNamespace(seconds=3.0), SimpleNamespace(seconds=2.5)], finished=True)
    assert step_seconds(run, calls) == ([3.0, 1.75], 0.75)
    stopped = SimpleNamespace(steps=run.steps, finished=False)  # no finish prompt: the steps as they were
    assert step_seconds(stopped, calls) == ([3.0, 2.5], 0.0)
