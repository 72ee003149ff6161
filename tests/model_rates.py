"""Rates of the real bundled model over a small set of tasks, for the slow tests: how many runs were right, and
how many said finished but were wrong. Each task runs in a fresh workspace holding its files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from autoagent import AutoGPT
from autoagent.steps import RunResult

# (task, files, whether the outcome is right: given the run and the workspace)
Case = tuple[str, dict[str, str], Callable[[RunResult, Path], bool]]


def rates(cases: list[Case], tmp_path: Path, make_agent: Callable[[Path], AutoGPT], label: str) -> tuple[int, int]:
    """Each case run by the agent `make_agent` builds for its workspace; (right, finished but wrong)."""
    right = false = 0
    for index, (task, files, check) in enumerate(cases):
        space = tmp_path / f"space{index}"
        space.mkdir()
        for name, text in files.items():
            (space / name).write_text(text, encoding="utf-8")
        run = make_agent(space).execute(task)
        good = check(run, space)
        print(f"\n[measure] {label}: {task!r}: {run.stop_reason.value}, right={good}, {run.answer[:60]!r}")
        right += good
        false += run.finished and not good
    return right, false
