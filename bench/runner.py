"""Running a task set through `autoagent batch --yes --no-memory`: the product's own path, a fresh workspace per task,
the transcripts kept. The batch's files lie in bench/out/SET-MODEL-COACH/ (ignored by git), as they always have, so
the workspaces of a run and of its replay are the same paths."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .judge import protocol_mode
from .tasksets import Task

OUT = Path("bench/out")


@dataclass(frozen=True)
class Options:
    """What every task of a run shares."""

    model: str = "local"
    coach: str = ""  # "" sends no coach setting (the agent's default)
    base_url: str | None = None
    workers: int = 1
    python: bool = False  # the batch offers the python tool (--allow-python)
    settings: Mapping[str, Any] = field(default_factory=dict)  # more settings of every task (tools, thoughts, ...)
    max_steps: int | None = None  # None: each agent's own default (autoagent 10); the comparison used 8
    task_seconds: float | None = None  # a task's time limit (autoagent: its max_seconds budget); None: none


# bench/peers: smolagents' ToolCallingAgent and CodeAgent, and the config (the reply protocol) each one is
PEERS = {"smolagents-tools": "tools", "smolagents-code": "code"}
INTERRUPTED = 130  # the peers' runner's exit code when stopped by Ctrl-C or SIGTERM (bench/peers/__main__.py)


def run_peer(set_name: str, tasks: list[Task], agent: str, options: Options, fresh: bool = True,
             hidden: bool = False) -> list[dict[str, Any]]:
    """Every task run by a peer agent on the same bundled model (bench/peers, in a process of its own); its result
    records in the shape of autoagent batch's, in the order of the tasks. Not `fresh`: the tasks the results file
    already holds are not run again (a run resumed). `hidden`: what the peer's runner prints of each task (its id,
    its answer) goes to a log file beside the results, not to the terminal (a measured-only set is not read)."""
    import subprocess
    import sys

    results = results_file(set_name, agent, options)
    results.parent.mkdir(parents=True, exist_ok=True)
    tasks_file = results.with_name(f"{results.stem}-tasks.jsonl")
    tasks_file.write_text("".join(batch_line(task, "json", "") + "\n" for task in tasks), encoding="utf-8")
    if fresh:  # the peer's runner skips the tasks a results file holds
        results.unlink(missing_ok=True)
    command = [sys.executable, "-m", "bench.peers", "run", "--agent", agent, "--tasks", str(tasks_file),
               "--out", str(results), "--max-steps", str(options.max_steps or 8),
               *(["--task-timeout", str(options.task_seconds)] if options.task_seconds else [])]
    with output_of(results, hidden) as sink:
        ended = subprocess.run(command, check=False, stdout=sink, stderr=sink).returncode
    if ended not in (0, INTERRUPTED):  # cut off (Ctrl-C, SIGTERM), the tasks it ended are kept; anything else failed
        shown = f" (its output: {sink.name})" if sink is not None else ""
        raise SystemExit(f"{agent}: the peers' runner ended with exit code {ended}{shown}")
    lines = results.read_text(encoding="utf-8").splitlines() if results.is_file() else []
    records = {json.loads(line)["id"]: json.loads(line) for line in lines}
    return [records[task.id] for task in tasks if task.id in records]


def run_folder(set_name: str, options: Options) -> Path:
    """The folder of a set's batch files: one per set, model and coach, so two runs at once never share one."""
    parts = (set_name, options.model, options.coach or "default")
    return OUT / "-".join(part.replace(":", "_").replace("/", "_") for part in parts)


def results_file(set_name: str, config: str, options: Options) -> Path:
    """Where the result records of a set run under `config` (a protocol, or a peer) are appended as tasks end."""
    return run_folder(set_name, options) / (f"peer-{config}.jsonl" if config in PEERS else f"batch-{config}.jsonl")


@contextlib.contextmanager
def output_of(results: Path, hidden: bool) -> Iterator[TextIO | None]:
    """Where a run's own output goes: the terminal (None), or, `hidden`, a log file beside `results` (appended to,
    so a resumed run's output follows the first part's)."""
    if not hidden:
        yield None
        return
    with results.with_name(f"{results.stem}.progress.log").open("a", encoding="utf-8") as sink:
        yield sink


def batch_line(task: Task, config: str, coach: str, extra: Mapping[str, Any] | None = None) -> str:
    """A task as a line of the batch's tasks file."""
    protocol, mode = protocol_mode(config)
    settings = {"protocol": protocol, "mode": mode, **({"coach": coach} if coach else {}), **(extra or {})}
    return json.dumps({"id": task.id, "task": task.text, "files": task.files,
                       "settings": {"lang": task.lang, **settings}}, ensure_ascii=False)


def run_batch(set_name: str, tasks: list[Task], config: str, options: Options, fresh: bool = True,
              hidden: bool = False) -> list[dict[str, Any]]:
    """Every task run under one config by `autoagent batch` in this process (so --threads holds); its result
    records, in the order of the tasks. Not `fresh`: the tasks the results file already holds are not run again (a
    run resumed). `hidden`: the batch's progress (each task's id and how it stopped) goes to a log file beside the
    results, not to the terminal (a measured-only set is not read)."""
    import sys

    from autoagent.cli import cli

    results = results_file(set_name, config, options)
    results.parent.mkdir(parents=True, exist_ok=True)
    tasks_file = results.with_name(f"{results.stem}-tasks.jsonl")
    limits = {**({"max_steps": options.max_steps} if options.max_steps else {}),
              **({"max_seconds": options.task_seconds} if options.task_seconds else {})}
    lines = [batch_line(task, config, options.coach, {**limits, **options.settings}) + "\n" for task in tasks]
    tasks_file.write_text("".join(lines), encoding="utf-8")
    if fresh:  # the batch skips the tasks a results file holds
        results.unlink(missing_ok=True)
    command = ["batch", str(tasks_file), "--out", str(results), "--model", options.model, "--yes", "--no-memory",
               "--workers", str(options.workers), *(["--base-url", options.base_url] if options.base_url else []),
               *(["--allow-python"] if options.python else [])]
    with output_of(results, hidden) as sink, contextlib.redirect_stderr(sink or sys.stderr), \
            contextlib.redirect_stdout(sink or sys.stdout):
        cli.main(command, prog_name="autoagent", standalone_mode=False)
    records = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["id"]] = record
    return [records[task.id] for task in tasks if task.id in records]


def transcript_steps(record: Mapping[str, Any]) -> tuple[int, list[str], list[str]]:
    """A run's steps (parse errors aside, unless there were only those), actions and trace, from its transcript."""
    from autoagent.steps import StepKind
    from autoagent.transcripts.reader import load_transcript

    steps = load_transcript(str(record["run_id"])).steps if record.get("run_id") else []
    actions = [step.action.name if step.action else step.kind.value for step in steps]
    trace = [f"{step.kind.value} ({step.decision.thought.text[:100] if step.decision else ''!r}) "
             f"{step.action.name if step.action else ''} "
             f"{json.dumps(step.action.args, ensure_ascii=False)[:120] if step.action else step.reply[:120]!r} -> "
             f"{step.observation[:100]!r}" for step in steps]
    count = sum(1 for step in steps if step.kind is not StepKind.PARSE_ERROR) or len(steps)
    return count, actions, trace


def limit_threads(threads: int) -> None:
    """Run the embedded model on `threads` threads (two agents measured side by side on 2 cores: one each, since
    llama.cpp's spinning threads slow to a crawl when they outnumber the cores)."""
    from autoagent.llm import local

    open_llama = local._open_llama
    local._open_llama = lambda path, n_ctx, _: open_llama(path, n_ctx, threads)  # type: ignore[assignment]
