"""`python -m bench run`: each chosen set run under each config, judged, its full records written under bench/out/
(ignored) and its summary into bench/summaries/ (unless the run replays recorded model calls: a replay is a check of
a change, not a measurement)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .judge import Outcome, RunInfo, judge
from .runner import OUT, PEERS, Options, run_batch, run_peer, transcript_steps
from .summaries import (
    SUMMARIES,
    cores,
    describe_differences,
    git_commit,
    machine,
    summary_name,
    task_label,
    write_summary,
)
from .tasksets import TaskSet, load_set

MARKS = {"right-finished": "ok", "right-stopped": "ok-stopped", "false": "FALSE", "wrong-stopped": "fail",
         "error": "ERROR"}


@dataclass(frozen=True)
class Plan:
    """What `python -m bench run` was asked to do."""

    sets: list[str]
    configs: list[str]
    options: Options
    threads: int = 0
    tasks: set[str] = field(default_factory=set)
    note: str = ""
    replaying: bool = False
    variant: str = ""
    against: list[Path] = field(default_factory=list)
    summaries: Path = SUMMARIES


def run_plan(plan: Plan) -> list[dict[str, Any]]:
    """Run every set of the plan under every config; the summaries of the runs."""
    commit, started = git_commit(), dt.datetime.now(dt.timezone.utc)
    made = []
    for name in plan.sets:
        task_set = load_set(name)
        tasks = task_set.chosen(plan.tasks)
        for config in plan.configs:
            peer = config in PEERS
            info = RunInfo(set=name, config=PEERS.get(config, config), agent=config if peer else "autoagent",
                           model=plan.options.model, coach="" if peer else plan.options.coach,
                           python=plan.options.python, commit=commit, date=started.date().isoformat(),
                           started=started.isoformat(timespec="seconds"), machine=machine(), cores=cores(),
                           threads=plan.threads or cores(), workers=plan.options.workers, variant=plan.variant,
                           settings=limits_of(plan.options, peer), note=plan.note)
            records = run_peer(name, tasks, config, plan.options) if peer else run_batch(name, tasks, config,
                                                                                           plan.options)
            outcomes, summary = judge(task_set, records, info, peer_steps if peer else transcript_steps)
            show(task_set, config, outcomes)
            where = write_records(summary, outcomes, plan.replaying)
            if not plan.replaying:
                where = write_summary(summary, plan.summaries)
            print(f"{name} {config}: {describe_counts(summary['counts'])} ({where})")
            for path in plan.against:
                against = json.loads(path.read_text(encoding="utf-8"))
                kind = (against.get("agent", "autoagent"), against["config"])
                if against["set"] == name and kind == (info.agent, info.config):
                    print(describe_differences(against, summary, task_set))
            made.append(summary)
    return made


def limits_of(options: Options, peer: bool) -> dict[str, Any]:
    """What a run's summary records of the settings every task got: the step and time limits, and for autoagent the
    further --setting values."""
    limits = {"max_steps": options.max_steps or (8 if peer else None), "max_seconds": options.task_seconds}
    return {**{key: value for key, value in limits.items() if value}, **({} if peer else dict(options.settings))}


def peer_steps(record: dict[str, Any]) -> tuple[int, list[str], list[str]]:
    """A peer's steps: its count (no transcript to read)."""
    return int(record.get("steps") or 0), [], []


def show(task_set: TaskSet, config: str, outcomes: Sequence[Outcome]) -> None:
    """One line per task on stderr; of a measured-only set only its place and class (its tasks are not read)."""
    hidden = task_set.status == "measured-only"
    for outcome in outcomes:
        label = task_label(outcome.task, task_set)
        detail = "" if hidden else f"{outcome.stop_reason:14} {' > '.join(outcome.actions)} | {outcome.problem}"
        print(f"{config:6} {MARKS[outcome.cls]:10} {label:22} {outcome.seconds:6.1f}s {detail}", file=sys.stderr,
              flush=True)


def write_records(summary: dict[str, Any], outcomes: Sequence[Outcome], replaying: bool) -> Path:
    """The full records of a run (answers, actions, traces), one JSON line a task, under bench/out/records/."""
    folder = OUT / "records"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = summary["started"][11:19].replace(":", "")  # the time the run started: each run a file of its own
    path = folder / f"{'replay-' if replaying else ''}{summary_name(summary)}-{stamp}.jsonl"
    meta = {key: summary[key] for key in ("set", "agent", "config", "model", "coach", "python", "commit", "started")}
    path.write_text("".join(json.dumps({**meta, **outcome.as_json()}, ensure_ascii=False) + "\n"
                            for outcome in outcomes), encoding="utf-8")
    return path


def describe_counts(counts: dict[str, Any]) -> str:
    """A run's counts in one line."""
    tasks = counts["tasks"] or 1
    return (f"{counts['right']}/{counts['tasks']} right ({counts['right'] / tasks:.0%}), "
            f"{counts['finished_right']} finished and right, {counts['false_successes']} false successes "
            f"({counts['false_successes'] / tasks:.0%}), {counts['stopped']} stopped; median "
            f"{counts['median_steps']} steps, {counts['median_seconds']} s a task")
