"""Task success of the agent on bench/tasks.py (or a held-out set: --suite): the tasks run by `autoagent batch --yes
--no-memory` (each in a fresh workspace, as the CLI runs it), then each answer and workspace checked.

Run: .venv/bin/python bench/success.py
         [--suite SET]  (main, heldout1..4 or a fresh set: --help lists them, from SETS)
         [--configs json,tools,react,plan] [--model local] [--coach auto|on|off] [--base-url URL]
         [--tasks name,name] [--workers N] [--out bench/out/success.jsonl] [--results bench/RESULTS.md]
A config is a protocol (loop mode) or `plan` (plan mode). Task success: the check passes. False success: the run
says finished but the check fails. Writes one JSON line per run (with its suite, model and coach) and, with
--results, the table into RESULTS.md. Without --coach no coach setting is sent (older code has none).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import logging
import os
import platform
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tasks import RUN_DAY, Task

from autoagent.steps import StepKind

# Each task set: the module of bench/ that holds it, and the list's name there. A fresh set N is FRESH_N of
# tasks_freshN.py (fresh1 and fresh2 share tasks_fresh.py), found without being listed here.
SETS = {"main": ("tasks", "TASKS"), **{f"heldout{n}": ("tasks_heldout", f"HELDOUT_{n}") for n in range(1, 5)},
        "fresh1": ("tasks_fresh", "FRESH_1"), "fresh2": ("tasks_fresh", "FRESH_2"),
        **{f"fresh{path.stem[len('tasks_fresh'):]}": (path.stem, f"FRESH_{path.stem[len('tasks_fresh'):]}")
           for path in sorted(Path(__file__).resolve().parent.glob("tasks_fresh[0-9]*.py"),
                              key=lambda path: int(path.stem[len("tasks_fresh"):]))}}


def tasks_of(suite: str) -> list[Task]:
    """The tasks of the set named `suite`."""
    module, name = SETS[suite]
    return getattr(importlib.import_module(module), name)


BEGIN, END = "<!-- task-success:begin -->", "<!-- task-success:end -->"


@dataclass
class Outcome:
    """One task under one config."""

    config: str
    task: str
    success: bool
    finished: bool
    problem: str
    stop_reason: str
    steps: int
    seconds: float
    actions: list[str]
    answer: str
    trace: list[str] = field(default_factory=list)
    suite: str = ""
    model: str = ""
    coach: str = ""  # "" when no coach setting was sent
    python: bool = False  # the python tool was offered

    @property
    def false_success(self) -> bool:
        """Said finished, but the outcome is wrong."""
        return self.finished and not self.success


@dataclass(frozen=True)
class Run:
    """What every task of one run shares: the suite, the model and the coach ("" sends no coach setting)."""

    suite: str
    model: str
    coach: str = ""
    base_url: str | None = None
    workers: int = 1
    python: bool = False  # the batch offers the python tool (--allow-python)


def run_config(tasks: list[Task], config: str, run: Run) -> list[Outcome]:
    """Run every task under one config through `autoagent batch` (the product's own path: a fresh workspace per
    task, `--yes --no-memory`, the transcripts kept), then check each answer and workspace."""
    from autoagent.cli import cli

    mode, protocol = ("plan", "json") if config == "plan" else ("loop", config)
    # one folder per suite, model and coach: two runs at once in one checkout must not share a results file
    folder = Path("bench/out") / "-".join(part.replace(":", "_").replace("/", "_")
                                          for part in (run.suite, run.model, run.coach or "default"))
    folder.mkdir(parents=True, exist_ok=True)
    tasks_file, results = folder / f"batch-{config}-tasks.jsonl", folder / f"batch-{config}.jsonl"
    settings = {"protocol": protocol, "mode": mode, **({"coach": run.coach} if run.coach else {})}
    lines = [json.dumps({"id": task.name, "task": task.text, "files": task.files,
                         "settings": {"lang": task.lang, **settings}}, ensure_ascii=False)
             for task in tasks]
    tasks_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    results.unlink(missing_ok=True)  # a fresh run: the batch would skip the tasks a results file holds
    command = ["batch", str(tasks_file), "--out", str(results), "--model", run.model, "--yes", "--no-memory",
               "--workers", str(run.workers), *(["--base-url", run.base_url] if run.base_url else []),
               *(["--allow-python"] if run.python else [])]
    cli.main(command, prog_name="autoagent", standalone_mode=False)  # in this process: --threads, --hybrid hold
    records = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["id"]] = record
    return [check(task, config, records[task.name], run) for task in tasks if task.name in records]


def check(task: Task, config: str, record: dict[str, object], run: Run) -> Outcome:
    """One task's batch result, checked against its answer and workspace."""
    from autoagent.transcripts.reader import load_transcript

    answer, reason = str(record["answer"]), str(record["stop_reason"])
    if reason == "error":
        answer = str(record["stop_detail"])
    steps = load_transcript(str(record["run_id"])).steps if record["run_id"] else []
    run_id = str(record["run_id"] or "")  # "20261201-235416-8f29": the day it started on counts as "today"
    RUN_DAY[:] = [dt.datetime.strptime(run_id[:8], "%Y%m%d").date()] if run_id[:8].isdigit() else []
    problem = task.check(answer, Path(str(record["workspace"]))) or ""
    actions = [step.action.name if step.action else step.kind.value for step in steps]
    trace = [f"{step.kind.value} ({step.decision.thought.text[:100] if step.decision else ''!r}) "
             f"{step.action.name if step.action else ''} "
             f"{json.dumps(step.action.args, ensure_ascii=False)[:120] if step.action else step.reply[:120]!r} -> "
             f"{step.observation[:100]!r}" for step in steps]
    return Outcome(config, task.name, not problem, bool(record["finished"]), problem, reason,
                   sum(1 for step in steps if step.kind is not StepKind.PARSE_ERROR) or len(steps),
                   round(float(str(record["seconds"])), 2), actions, answer[:300], trace, run.suite, run.model,
                   run.coach, run.python)


def summarise(outcomes: list[Outcome]) -> dict[str, float]:
    """Rates and medians over one config's outcomes."""
    count = len(outcomes)
    return {
        "tasks": count,
        "success": sum(o.success for o in outcomes) / count,
        "false_success": sum(o.false_success for o in outcomes) / count,
        "median_steps": statistics.median(o.steps for o in outcomes),
        "median_seconds": statistics.median(o.seconds for o in outcomes),
    }


def row_name(outcome: Outcome) -> str:
    """A table row's name: the config, and the model and coach when the run recorded them."""
    name = "plan mode" if outcome.config == "plan" else f"loop, `--protocol {outcome.config}`"
    model = f", `{outcome.model}`" if outcome.model else ""
    return name + model + (f", coach {outcome.coach}" if outcome.coach else "") + (", python" if outcome.python else "")


def table(by_config: dict[str, list[Outcome]], label: str) -> str:
    """The Markdown table of one benchmark run."""
    lines = [f"| {label} | tasks | task success | false success | median steps | median s/task |",
             "|---|---:|---:|---:|---:|---:|"]
    for outcomes in by_config.values():
        s = summarise(outcomes)
        name = row_name(outcomes[0])
        lines.append(f"| {name} | {s['tasks']} | {s['success']:.0%} | {s['false_success']:.0%} | "
                     f"{s['median_steps']:g} | {s['median_seconds']:.1f} |")
    return "\n".join(lines)


def failures(by_config: dict[str, list[Outcome]]) -> str:
    """What went wrong, one line per failed task."""
    lines = []
    for config, outcomes in by_config.items():
        for o in outcomes:
            if not o.success:
                flag = " **(said finished)**" if o.false_success else ""
                lines.append(f"- `{config}` {o.task}: {o.stop_reason}{flag}; {o.problem}; actions "
                             f"{' → '.join(o.actions) or '-'}")
    return "\n".join(lines) or "- none"


def write_results(path: Path, section: str) -> None:
    """Replace the task-success section of RESULTS.md (or append it)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{section}\n{END}"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def load_runs(path: Path) -> dict[str, list[Outcome]]:
    """Outcomes saved by earlier runs (JSON lines), by config (and model and coach, where recorded); a task run
    twice keeps its last outcome."""
    by_config: dict[str, dict[str, Outcome]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        outcome = Outcome(**json.loads(line))
        key = "/".join(part for part in (outcome.config, outcome.model, outcome.coach,
                                         "python" if outcome.python else "") if part)
        by_config.setdefault(key, {})[outcome.task] = outcome
    return {config: list(outcomes.values()) for config, outcomes in by_config.items()}


def render_tables(sources: list[str], results: Path | None) -> None:
    """Tables and failures of saved runs, printed and (with `results`) written into RESULTS.md."""
    parts = []
    for source in sources:
        path, _, label = source.partition(":")
        by_config = load_runs(Path(path))
        parts.append(f"{table(by_config, label or path)}\n\nFailed tasks ({label}):\n\n{failures(by_config)}")
    text = "\n\n".join(parts)
    print(text)
    if results:
        write_results(results, text)


def limit_threads(threads: int) -> None:
    """Run the embedded model on `threads` threads (two agents measured side by side on 2 cores: one each, since
    llama.cpp's spinning threads slow to a crawl when they outnumber the cores)."""
    from autoagent.llm import local

    open_llama = local._open_llama
    local._open_llama = lambda path, n_ctx, _: open_llama(path, n_ctx, threads)  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="json,tools,react,plan",
                        help="comma-separated protocols (json, tools, react, code) and/or plan")
    parser.add_argument("--model", default="local", help="the model every task runs on (local, local:1.5b, ...)")
    parser.add_argument("--coach", choices=("auto", "on", "off"), default=None,
                        help="the coach setting of every task (default: none sent, as older code has none)")
    parser.add_argument("--allow-python", action="store_true", help="offer the sandboxed python tool to every task")
    parser.add_argument("--base-url", default=None, help="an OpenAI-compatible server for --model openai:NAME")
    parser.add_argument("--suite", choices=list(SETS), default="main", metavar="SET",
                        help=f"the tasks: main (bench/tasks.py), heldout1..4 (bench/tasks_heldout.py) or a fresh set, "
                             f"fresh1..{len([name for name in SETS if name.startswith('fresh')])} "
                             "(bench/tasks_freshN.py; fresh1 and fresh2: bench/tasks_fresh.py); each module's "
                             "docstring says whether it is a development set or only measured")
    parser.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/success.jsonl"))
    parser.add_argument("--results", type=Path, default=None, help="write the table into this RESULTS.md")
    parser.add_argument("--workers", type=int, default=1,
                        help="tasks at once (autoagent batch --workers; --threads and --hybrid hold with 1 only)")
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads for the embedded model (0: all)")
    parser.add_argument("--hybrid", action="store_true",
                        help="experiment: free first replies, constrained only after an unreadable one")
    parser.add_argument("--tables", nargs="*", default=None, metavar="RUNS.jsonl:LABEL",
                        help="write no runs: render earlier runs' JSON lines as tables, one per file")
    parser.add_argument("--label", default="", help="a heading for this run in RESULTS.md")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if args.tables is not None:
        render_tables(args.tables, args.results)
        return
    if args.threads:
        limit_threads(args.threads)
    if args.hybrid:
        from autoagent.protocols.thought_action import ThoughtActionProtocol

        ThoughtActionProtocol.model = lambda self, llm: llm  # type: ignore[method-assign]
    chosen = {name for name in args.tasks.split(",") if name}
    tasks = [task for task in tasks_of(args.suite) if not chosen or task.name in chosen]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    by_config: dict[str, list[Outcome]] = {}
    started = time.time()
    load = os.getloadavg()[0]
    run = Run(args.suite, args.model, args.coach or "", args.base_url, args.workers, args.allow_python)
    with args.out.open("a", encoding="utf-8") as out:
        for config in args.configs.split(","):
            for outcome in run_config(tasks, config, run):
                task = next(task for task in tasks if task.name == outcome.task)
                by_config.setdefault(config, []).append(outcome)
                out.write(json.dumps(asdict(outcome), ensure_ascii=False) + "\n")
                out.flush()
                mark = "ok " if outcome.success else ("FALSE" if outcome.false_success else "fail")
                print(f"{config:6} {mark:5} {task.name:20} {outcome.stop_reason:14} {outcome.seconds:6.1f}s "
                      f"{' > '.join(outcome.actions)} | {outcome.problem}", file=sys.stderr, flush=True)
    report = table(by_config, args.label or "config")
    print(report)
    print(failures(by_config))
    if args.results:
        command = "python bench/success.py " + " ".join(sys.argv[1:])
        coach = f", coach {args.coach}" if args.coach else ""
        section = (f"## Task success ({args.model}{' at ' + args.base_url if args.base_url else ''}{coach})\n\n"
                   f"`{command}` on {time.strftime('%Y-%m-%d %H:%M', time.gmtime(started))} UTC, "
                   f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"{args.threads or os.cpu_count()} llama.cpp threads, load {load:.1f} at "
                   f"the start: {len(tasks)} tasks of `{args.suite}` "
                   f"(`bench/{SETS[args.suite][0]}.py`), "
                   "run by `autoagent batch --yes --no-memory`, "
                   "each in a fresh workspace. False success: the run said finished but the check failed.\n\n"
                   f"{report}\n\nFailed tasks:\n\n{failures(by_config)}")
        write_results(args.results, section)


if __name__ == "__main__":
    main()
