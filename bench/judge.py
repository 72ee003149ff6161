"""Judging a run: each result record checked with its task's check, classed, and the run summarised.

A result record is what `autoagent batch` writes for a task (and what a peer agent's runner writes in the same
shape): `id, answer, finished, stop_reason, steps, seconds, workspace, run_id` (`stop_detail` too, for an error).
Each task gets one class: `right-finished`, `right-stopped`, `false` (finished, but the check fails), `wrong-stopped`
or `error` (stopped by an error, the check failing).
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import checks
from .tasksets import Task, TaskSet

CLASSES = ("right-finished", "right-stopped", "false", "wrong-stopped", "error")
Steps = Callable[[Mapping[str, Any]], tuple[int, list[str], list[str]]]  # a record -> (steps, actions, trace)


@dataclass
class Outcome:
    """One task's result, checked: what the full record under bench/out/ holds."""

    task: str
    cls: str
    finished: bool
    right: bool
    problem: str
    stop_reason: str
    steps: int
    seconds: float
    answer: str
    actions: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The outcome as a JSON object (its class as `class`)."""
        data = asdict(self)
        data["class"] = data.pop("cls")
        return data


@dataclass(frozen=True)
class RunInfo:
    """What every task of a run shares, as its summary records it."""

    set: str
    config: str  # a protocol (json, tools, react, code) or plan (plan mode), or a peer's own label
    agent: str = "autoagent"
    model: str = "local"
    coach: str = ""  # "" when no coach setting was sent (the agent's default)
    python: bool = False
    commit: str = ""
    date: str = ""
    started: str = ""
    machine: str | None = None
    cores: int | None = None
    threads: int | None = None
    workers: int | None = None
    variant: str = ""  # a name for the settings below, which the run sent every task beside its config
    settings: dict[str, Any] = field(default_factory=dict)
    run: str = ""  # the fingerprint of the run's arguments (bench/measure.py digest): what --resume finds it by
    note: str = ""


def protocol_mode(config: str) -> tuple[str, str]:
    """A config's protocol and loop mode: `plan` is plan mode over the JSON protocol."""
    return ("json", "plan") if config == "plan" else (config, "loop")


def run_day(run_id: str) -> dt.date | None:
    """The day a run started on, from its id ("20261201-235416-8f29"): the "today" of the date checks."""
    return dt.datetime.strptime(run_id[:8], "%Y%m%d").date() if run_id[:8].isdigit() else None


def classify(finished: bool, right: bool, stop_reason: str) -> str:
    """A task's class from how its run ended and whether its check passed."""
    if finished:
        return "right-finished" if right else "false"
    if right:
        return "right-stopped"
    return "error" if stop_reason == "error" else "wrong-stopped"


def no_steps(record: Mapping[str, Any]) -> tuple[int, list[str], list[str]]:
    """A record's step count as the record gives it, without actions or trace (a peer's records)."""
    return int(record.get("steps") or 0), [], []


def check_record(task: Task, record: Mapping[str, Any], steps: Steps = no_steps) -> Outcome:
    """One task's result record, checked against its answer and workspace on the day it ran."""
    reason = str(record["stop_reason"])
    answer = str(record.get("stop_detail") or "") if reason == "error" else str(record["answer"])
    day = run_day(str(record.get("run_id") or ""))
    checks.RUN_DAY[:] = [day] if day else []
    problem = task.check(answer, Path(str(record["workspace"]))) or ""
    count, actions, trace = steps(record)
    finished = bool(record["finished"])
    return Outcome(task.id, classify(finished, not problem, reason), finished, not problem, problem, reason, count,
                   round(float(record["seconds"]), 2), answer[:300], actions, trace)


def judge(task_set: TaskSet, records: Iterable[Mapping[str, Any]], info: RunInfo,
          steps: Steps = no_steps) -> tuple[list[Outcome], dict[str, Any]]:
    """Every record of a run checked by its task's check, and the run's summary; a record of no task of the set is
    left out, and a task run twice keeps its last record."""
    by_id = {task.id: task for task in task_set.tasks}
    latest = {str(record["id"]): record for record in records if str(record["id"]) in by_id}
    outcomes = [check_record(by_id[task_id], record, steps) for task_id, record in latest.items()]
    return outcomes, summarise(outcomes, info)


def summarise(outcomes: list[Outcome], info: RunInfo) -> dict[str, Any]:
    """The committed summary of a run: what it ran, the counts, and each task's class."""
    return make_summary(info, {outcome.task: outcome.cls for outcome in outcomes},
                        [outcome.steps for outcome in outcomes], [outcome.seconds for outcome in outcomes])


def make_summary(info: RunInfo, classes: Mapping[str, str], steps: list[int], seconds: list[float]) -> dict[str, Any]:
    """A summary from what the run was, each task's class, and each task's steps and seconds."""
    fields = asdict(info)
    note = fields.pop("note")
    protocol, mode = protocol_mode(info.config)
    return {**fields, "protocol": protocol, "mode": mode, "counts": counts(classes, steps, seconds),
            "tasks": dict(classes), "note": note}


def counts(classes: Mapping[str, str], steps: list[int], seconds: list[float]) -> dict[str, Any]:
    """A run's counts from its tasks' classes, and its median steps and seconds a task."""
    tally = {name: sum(value == name for value in classes.values()) for name in CLASSES}
    return {"tasks": len(classes), "right": tally["right-finished"] + tally["right-stopped"],
            "finished_right": tally["right-finished"], "false_successes": tally["false"],
            "stopped": tally["right-stopped"] + tally["wrong-stopped"] + tally["error"], "errors": tally["error"],
            "median_steps": statistics.median(steps) if steps else None,
            "median_seconds": round(statistics.median(seconds), 1) if seconds else None}
