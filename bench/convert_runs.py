"""One-off: a summary in bench/summaries/ for each run log in bench/runs/ (the JSON lines bench/success.py wrote, one
Outcome a task), so the logs can leave git.

Per log and per config in it: the set, config, model, coach and python tool from the records (an older record that
lacks one: model and coach "", python false); the commit from the file name (the two logs named before and after:
from bench/RESULTS.md, which names them); the date the log was added, from git log; the note: what the file name says
besides the set and the commit. When a run started is not known: `commit_time` (the time of the commit measured)
orders the runs instead. A run of a commit whose change was later reverted gets `taken_out` (the reverting commit):
the pooled results leave it out. Each task's class from the record's success, finished and stop reason.

Run: python -m bench.convert_runs
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

from .judge import RunInfo, classify, make_summary
from .summaries import SUMMARIES, write_summary

RUNS = Path(__file__).resolve().parent / "runs"
NAMED_IN_RESULTS = {"task-success-before": "d6db47f", "task-success-after": "a2916e9"}
SAID_BY_FIELDS = {"task", "success", "main", "default", "json", "code", "python", "base", "local", "local0.5b",
                  "1.5b", "coachauto", "coachon", "coachoff", "coachonpy"}  # name parts the records' fields say
_COMMIT = re.compile(r"^(?=[0-9a-f]{0,6}\d)[0-9a-f]{7}")
_HASH = re.compile(r"(?<![0-9a-z])(?=[0-9a-f]{0,6}\d)[0-9a-f]{7,40}(?![0-9a-z])")


def git(*args: str) -> str:
    """A git command's output in this checkout ("" when it fails)."""
    done = subprocess.run(["git", *args], capture_output=True, text=True, check=False, cwd=RUNS.parent)
    return done.stdout.strip() if done.returncode == 0 else ""


def reverted() -> dict[str, str]:
    """Each commit (7 characters) whose change a later commit reverted, and that commit: "This reverts commit X"
    in a body, or the commits a subject that says it reverts names."""
    found = {}
    for entry in git("log", "--format=%h%x00%s%x00%b%x01").split("\x01"):
        if not entry.strip():
            continue
        commit, subject, body = [*entry.strip().split("\x00"), "", ""][:3]
        named = re.findall(r"This reverts commit ([0-9a-f]{7,40})", body)
        if re.search(r"\brevert\b", subject, re.IGNORECASE):
            named += _HASH.findall(subject)
        for target in named:
            found.setdefault(target[:7], commit)
    return found


def commit_time(commit: str) -> str | None:
    """When `commit` was made, if this checkout has it."""
    return git("show", "-s", "--format=%cI", commit) or None if commit else None


def set_of(stem: str, records: list[dict[str, Any]]) -> str:
    """The set a log ran: its records say, or its name (task-success-*: the suite)."""
    if records[0].get("suite"):
        return str(records[0]["suite"])
    return "main" if stem.startswith("task-success") else stem.split("-")[0]


def commit_and_note(stem: str, set_name: str) -> tuple[str, str]:
    """The commit a log's name gives, and what the name says besides (before the commit only what no field says)."""
    parts = stem.split("-")
    for place, part in enumerate(parts):
        found = _COMMIT.match(part)
        if found and place > 0:
            before = [word for word in parts[1:place] if word not in SAID_BY_FIELDS]
            after = ([part[7:]] if part[7:] else []) + parts[place + 1:]
            return found.group(), "-".join(before + after)
    return NAMED_IN_RESULTS.get(stem, ""), "-".join(word for word in parts if word not in SAID_BY_FIELDS | {set_name})


def added(path: Path) -> str:
    """The date the file was added to git."""
    return git("log", "--diff-filter=A", "--format=%ad", "--date=short", "--", str(path)).splitlines()[-1]


def convert(path: Path, taken_out: dict[str, str], folder: Path = SUMMARIES) -> list[Path]:
    """The summaries of one log, written."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    set_name = set_of(path.stem, records)
    commit, note = commit_and_note(path.stem, set_name)
    day = added(path)
    groups: dict[tuple[str, str, str, bool], dict[str, dict[str, Any]]] = defaultdict(dict)
    for record in records:  # a task run twice keeps its last record
        key = (record["config"], record.get("model", ""), record.get("coach", ""), bool(record.get("python", False)))
        groups[key][record["task"]] = record
    written = []
    for (config, model, coach, python), by_task in groups.items():
        info = RunInfo(set=set_name, config=config, model=model, coach=coach, python=python, commit=commit, date=day,
                       started="", note=note)
        classes = {task: classify(bool(r["finished"]), bool(r["success"]), str(r["stop_reason"]))
                   for task, r in by_task.items()}
        summary = make_summary(info, classes, [int(r["steps"]) for r in by_task.values()],
                               [float(r["seconds"]) for r in by_task.values()])
        summary.update(started=None, commit_time=commit_time(commit), source=f"bench/runs/{path.name}")
        if commit in taken_out:
            summary["taken_out"] = taken_out[commit]
        written.append(write_summary(summary, folder))
    return written


def main() -> None:
    logs = sorted(RUNS.glob("*.jsonl"))
    taken_out = reverted()
    made = [summary for path in logs for summary in convert(path, taken_out)]
    print(f"{len(logs)} run logs, {len(made)} summaries")


if __name__ == "__main__":
    main()
