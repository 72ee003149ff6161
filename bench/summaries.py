"""The committed summaries of measured runs (bench/summaries/*.json): written, read, and compared task by task.

A summary holds what a run was (set, agent, config, model, coach, python tool, commit, date, machine), its counts and
each task's class, never an answer or a trace: those stay in the ignored records under bench/out/.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
from pathlib import Path
from typing import Any

from .tasksets import TaskSet

SUMMARIES = Path(__file__).resolve().parent / "summaries"
MEASURED_ONLY = "measured-only"


def git_commit(root: Path | None = None) -> str:
    """The short hash of HEAD, with `-dirty` when a tracked file differs from it; "" outside a git checkout."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD")
    return commit + ("-dirty" if commit and git("status", "--porcelain", "--untracked-files=no") else "")


def machine() -> str:
    """The CPU's model name."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.is_file() else []
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")),
                platform.processor() or platform.machine())


def summary_name(summary: dict[str, Any]) -> str:
    """A summary's file name (without the suffix): set, agent, config, model, coach, python tool, commit."""
    config = summary["config"] + (f"+{summary['variant']}" if summary.get("variant") else "")
    parts = [summary["set"], summary["agent"], config, summary["model"] or "model-unrecorded",
             f"coach-{summary['coach'] or 'default'}", *(["python"] if summary["python"] else []),
             summary["commit"] or "commit-unrecorded"]
    return re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))


def write_summary(summary: dict[str, Any], folder: Path = SUMMARIES) -> Path:
    """Write `summary` under a name of its own (a second run of the same kind at one commit gets `-2`); the same
    run judged again (resumed: its start is the same) replaces its own summary."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = summary_name(summary)
    path, number = folder / f"{stem}.json", 1
    while path.exists() and not (summary.get("started") and
                                 json.loads(path.read_text(encoding="utf-8")).get("started") == summary["started"]):
        number += 1
        path = folder / f"{stem}-{number}.json"
    path.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_summaries(folder: Path = SUMMARIES) -> list[dict[str, Any]]:
    """Every task-run summary in `folder`, oldest first: by when the run started (where that is not known, as for
    the runs logged before summaries: by when the commit it measured was made), then by file name."""
    found = []
    for path in sorted(folder.glob("*.json")):
        summary = json.loads(path.read_text(encoding="utf-8"))
        summary["file"] = path.name
        found.append(summary)
    return sorted(found, key=lambda summary: (when(summary), summary["file"]))


def when(summary: dict[str, Any]) -> str:
    """What orders a summary among the others: when its run started, or when the commit it measured was made."""
    return str(summary.get("started") or summary.get("commit_time") or summary["date"])


def task_label(task_id: str, task_set: TaskSet | None) -> str:
    """How a task is named in a comparison: its id, or, in a measured-only set, only its place in the set."""
    if task_set is None or task_set.status != MEASURED_ONLY:
        return task_id
    places = {task.id: place for place, task in enumerate(task_set.tasks, start=1)}
    return f"#{places[task_id]}" if task_id in places else "a task no longer in the set"


def differences(before: dict[str, Any], after: dict[str, Any],
                task_set: TaskSet | None = None) -> list[tuple[str, str, str]]:
    """(task, class before, class after) of each task whose class differs ("-" where a run lacks the task)."""
    ids = list(dict.fromkeys([*before["tasks"], *after["tasks"]]))
    return [(task_label(task_id, task_set), before["tasks"].get(task_id, "-"), after["tasks"].get(task_id, "-"))
            for task_id in ids if before["tasks"].get(task_id) != after["tasks"].get(task_id)]


def describe_differences(before: dict[str, Any], after: dict[str, Any], task_set: TaskSet | None = None) -> str:
    """The comparison of two runs as lines of text."""
    head = (f"{before['set']} {before['config']}: {before.get('commit') or '?'} ({before['date']}) against "
            f"{after.get('commit') or '?'} ({after['date']})")
    found = differences(before, after, task_set)
    if not found:
        return f"{head}: every task in the same class"
    return "\n".join([f"{head}: {len(found)} task{'s' if len(found) > 1 else ''} in another class",
                      *[f"  {task}: {old} -> {new}" for task, old, new in found]])


def cores() -> int:
    """The machine's cores."""
    return os.cpu_count() or 1
