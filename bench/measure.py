"""`python -m bench run`: each chosen set run under each config, judged, its full records written under bench/out/
(ignored) and its summary into bench/summaries/ (unless the run replays recorded model calls: a replay is a check of
a change, not a measurement). A run that was cut off goes on with `--resume`: the same command, at the same commit,
runs only the tasks that have no result yet, and the summary is the one run's. A set and config whose summary the
command already wrote is not run again, even on a fresh checkout with no bench/out/ (its summary was committed), and
every run of the command keeps the command's first start, which is what makes them one command in the results.
`--checkpoint` carries a run cut off to another checkout: what its ended tasks came to (each one's class, steps and
seconds, never an answer) into bench/summaries/partial/, from which `--resume` goes on with the rest."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .judge import Outcome, RunInfo, judge, make_summary
from .runner import OUT, PEERS, Options, results_file, run_batch, run_peer, transcript_steps
from .summaries import (
    MEASURED_ONLY,
    SUMMARIES,
    cores,
    describe_differences,
    git_commit,
    load_summaries,
    machine,
    summary_name,
    task_label,
    write_summary,
)
from .tasksets import Task, TaskSet, load_set

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
    resume: bool = False  # go on with the run these arguments began at this commit: its tasks with a result stay
    checkpoint: bool = False  # run nothing: keep what the run cut off has done in summaries/partial/ (see above)


def run_plan(plan: Plan) -> list[dict[str, Any]]:
    """Run every set of the plan under every config; the summaries of the runs."""
    commit = git_commit()
    done = {summary["run"]: summary for summary in load_summaries(plan.summaries)
            if summary.get("run") and summary["commit"] == commit} if plan.resume or plan.checkpoint else {}
    started = ""  # the command's start: now, or the first start a resumed command finds
    made = []
    for name in plan.sets:
        task_set = load_set(name)
        tasks = task_set.chosen(plan.tasks)
        for config in plan.configs:
            peer = config in PEERS
            key = run_key(plan, name, config, tasks)
            if digest(key) in done:
                summary = done[digest(key)]
                started = started or summary["started"]
                print(f"{name} {config}: measured already by this command: {describe_counts(summary['counts'])} "
                      f"({summary['file']})")
                made.append(summary)
                continue
            kept = partial_file(plan.summaries, name, config, key)
            earlier = load_partial(kept, commit) if plan.resume or plan.checkpoint else {}
            started = started or earlier.get("started", "")
            if plan.checkpoint:
                checkpoint(kept, results_file(name, config, plan.options), task_set, config, key, commit, earlier)
                continue
            begun = begin(results_file(name, config, plan.options), key, commit,
                          started or dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), plan.resume)
            started = started or begun.started
            info = RunInfo(set=name, config=PEERS.get(config, config), agent=config if peer else "autoagent",
                           model=plan.options.model, coach="" if peer else plan.options.coach,
                           python=plan.options.python, commit=commit, date=begun.started[:10],
                           started=begun.started, machine=machine(), cores=cores(),
                           threads=plan.threads or cores(), workers=plan.options.workers, variant=plan.variant,
                           settings=limits_of(plan.options, peer), run=digest(key), note=plan.note)
            run = run_peer if peer else run_batch
            ended = earlier.get("tasks", {})
            rest = [task for task in tasks if task.id not in ended]
            records = run(name, rest, config, plan.options, fresh=begun.fresh, hidden=task_set.status == MEASURED_ONLY)
            if len(records) < len(rest):  # interrupted (Ctrl-C, SIGTERM): no summary of a part, nothing more run
                raise SystemExit(f"{name} {config}: cut off with {len(ended) + len(records)} of {len(tasks)} tasks "
                                 "done; the same command with --resume goes on with the rest")
            outcomes, _ = judge(task_set, records, info, peer_steps if peer else transcript_steps)
            summary = summary_of(info, tasks, {**ended, **ended_tasks(outcomes)})
            show(task_set, config, outcomes)
            where = write_records(summary, outcomes, plan.replaying)
            if not plan.replaying:
                where = write_summary(summary, plan.summaries)
                kept.unlink(missing_ok=True)  # the summary holds what it kept
            print(f"{name} {config}: {describe_counts(summary['counts'])} ({where})")
            for path in plan.against:
                against = json.loads(path.read_text(encoding="utf-8"))
                kind = (against.get("agent", "autoagent"), against["config"])
                if against["set"] == name and kind == (info.agent, info.config):
                    print(describe_differences(against, summary, task_set))
            made.append(summary)
    return made


def run_key(plan: Plan, set_name: str, config: str, tasks: Sequence[Task]) -> dict[str, Any]:
    """What makes a run the same run when it is resumed: the set, its tasks, the config and everything every task
    gets."""
    options = plan.options
    return {"set": set_name, "tasks": [task.id for task in tasks], "config": config, "variant": plan.variant,
            "model": options.model, "coach": options.coach, "base_url": options.base_url, "python": options.python,
            "settings": dict(options.settings), "max_steps": options.max_steps, "task_seconds": options.task_seconds,
            "workers": options.workers, "threads": plan.threads}


def digest(key: dict[str, Any]) -> str:
    """A short fingerprint of a run's key, which its summary keeps: a resumed command knows the runs it finished."""
    return hashlib.sha256(json.dumps(key, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def partial_file(folder: Path, set_name: str, config: str, key: dict[str, Any]) -> Path:
    """Where `--checkpoint` keeps what a run cut off had done (beside the summaries, committed with them)."""
    return folder / "partial" / f"{set_name}-{config}-{digest(key)}.json"


def load_partial(path: Path, commit: str) -> dict[str, Any]:
    """What a run at this commit had done when it was checkpointed (its start and its ended tasks), or {}."""
    partial = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return partial if partial.get("commit") == commit else {}


def ended_tasks(outcomes: Sequence[Outcome]) -> dict[str, dict[str, Any]]:
    """What a summary needs of each ended task: its class, steps and seconds."""
    return {outcome.task: {"class": outcome.cls, "steps": outcome.steps, "seconds": outcome.seconds}
            for outcome in outcomes}


def summary_of(info: RunInfo, tasks: Sequence[Task], ended: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """A run's summary from what each of its tasks came to (checkpointed earlier, or judged now), in task order."""
    order = [task.id for task in tasks if task.id in ended]
    return make_summary(info, {task: ended[task]["class"] for task in order},
                        [ended[task]["steps"] for task in order], [ended[task]["seconds"] for task in order])


def checkpoint(kept: Path, results: Path, task_set: TaskSet, config: str, key: dict[str, Any], commit: str,
               earlier: dict[str, Any]) -> None:
    """Keep in `kept` what the run of `key` begun here and cut off has done (its records in `results`) with what an
    earlier checkpoint kept: its ended tasks judged now (their workspaces are here), never an answer. A run not
    begun here at this commit is left as it is."""
    state = results.with_name(f"{results.stem}.run.json")
    begun = json.loads(state.read_text(encoding="utf-8")) if state.is_file() else {}
    if begun.get("commit") != commit or begun.get("key") != key or not results.is_file():
        return
    records = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    outcomes, _ = judge(task_set, records, RunInfo(set=task_set.name, config=config),
                        peer_steps if config in PEERS else transcript_steps)
    ended = {**earlier.get("tasks", {}), **ended_tasks(outcomes)}
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps({"set": task_set.name, "config": config, "commit": commit, "started": begun["started"],
                                "run": digest(key), "tasks": ended}, indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    print(f"{task_set.name} {config}: {len(ended)} of {len(key['tasks'])} tasks kept for --resume elsewhere ({kept})")


@dataclass(frozen=True)
class Begun:
    """A run of one set under one config: when it began, and whether its results file starts empty."""

    started: str
    fresh: bool


def begin(results: Path, key: dict[str, Any], commit: str, started: str, resume: bool) -> Begun:
    """The run whose records go to `results`. A new one is begun (its results file emptied) unless `resume` finds
    one begun with the same `key` at the same commit, which goes on; one begun otherwise is an error (exit with one
    line), never mixed in."""
    state = results.with_name(f"{results.stem}.run.json")
    if resume and state.is_file():
        begun = json.loads(state.read_text(encoding="utf-8"))
        if begun["commit"] != commit:
            raise SystemExit(f"--resume: the run in {results} was begun at commit {begun['commit'] or '(none)'}, "
                             f"this checkout is at {commit or '(none)'}: check that commit out, or leave out "
                             "--resume to begin anew")
        differs = sorted(name for name in key.keys() | begun["key"].keys() if key.get(name) != begun["key"].get(name))
        if differs:
            raise SystemExit(f"--resume: the run in {results} was begun with another {', '.join(differs)}: give "
                             "the arguments it was begun with, or leave out --resume to begin anew")
        return Begun(begun["started"], fresh=False)
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({"commit": commit, "started": started, "key": key}, ensure_ascii=False),
                     encoding="utf-8")
    return Begun(started, fresh=True)


def limits_of(options: Options, peer: bool) -> dict[str, Any]:
    """What a run's summary records of the settings every task got: the step and time limits, and for autoagent the
    further --setting values."""
    limits = {"max_steps": options.max_steps or (8 if peer else None), "max_seconds": options.task_seconds}
    return {**{key: value for key, value in limits.items() if value}, **({} if peer else dict(options.settings))}


def peer_steps(record: Mapping[str, Any]) -> tuple[int, list[str], list[str]]:
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
