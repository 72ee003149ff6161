"""Run a smolagents peer over a JSONL file of autoagent batch tasks: serve the GGUF, lay out each task's workspace,
hand the task to the worker under a time limit, and append its result line."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .process import WorkerExited, WorkerProcess
from .records import ERROR, TIMEOUT, task_record
from .venv import ROOT

SERVER_START_TIMEOUT = 600.0  # loading the 1.1 GB GGUF on 2 busy cores


@dataclass(frozen=True)
class Limits:
    """How long a task may run, and how long its set-up (agent built, prompt cache warmed) may take."""

    task_seconds: float = 300.0
    # Outside the task's time: a task stopped by the time limit leaves the server finishing its reply first.
    ready_seconds: float = 900.0


@dataclass(frozen=True)
class Layout:
    """Where a results file's companions go: beside it, named after it."""

    out: Path

    @property
    def workspaces(self) -> Path:
        """One folder per task id."""
        return self.out.with_name(f"{self.out.stem}.workspaces")

    @property
    def transcripts(self) -> Path:
        """One JSON file of steps per task id."""
        return self.out.with_name(f"{self.out.stem}.steps")

    @property
    def log(self) -> Path:
        """What the worker printed (tracebacks included)."""
        return self.out.with_name(f"{self.out.stem}.log")


def say(text: str) -> None:
    """Progress on stderr."""
    print(text, file=sys.stderr, flush=True)


def read_tasks(path: Path) -> list[dict[str, Any]]:
    """The task lines of an autoagent batch file ({"id", "task", "files", "settings"}), ids unique."""
    tasks: list[dict[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        task = json.loads(line)
        if not isinstance(task, dict) or not isinstance(task.get("task"), str):
            raise ValueError(f"{path}:{number}: a task line is an object with a \"task\" string")
        task["id"] = str(task.get("id", number))
        tasks.append(task)
    ids = [task["id"] for task in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: task ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return tasks


def settled_ids(out: Path) -> set[str]:
    """The ids the results file already holds: a re-run goes on with the others, as autoagent batch does."""
    if not out.is_file():
        return set()
    return {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines() if line.strip()}


def folder_name(task_id: str) -> str:
    """A task id as one safe folder name."""
    return re.sub(r"[^\w.-]", "_", task_id).strip(".") or "_"


def prepare_workspace(workspace: Path, files: dict[str, str]) -> None:
    """An empty folder with the task's files (one left by an earlier attempt is emptied first)."""
    if workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True)
    root = workspace.resolve()
    for name, content in files.items():
        target = (workspace / name).resolve()
        if not target.is_relative_to(root):
            raise ValueError(f"task file {name!r} would lie outside its workspace")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def make_job(task: dict[str, Any], agent: str, model: str, layout: Layout) -> dict[str, Any]:
    """What the worker gets for one task: the text as given, and where its workspace and transcript are."""
    name = folder_name(task["id"])
    return {"id": task["id"], "task": task["task"], "agent": agent, "model": model,
            "workspace": str((layout.workspaces / name).resolve()),
            "transcript": str((layout.transcripts / f"{name}.json").resolve())}


def run_job(worker: WorkerProcess, job: dict[str, Any], limits: Limits) -> tuple[dict[str, Any], bool]:
    """One job on `worker`: its record, and whether the worker can take the next job (False: it was stopped)."""
    began = time.monotonic()
    steps = 0
    try:
        worker.send(job)
        event = worker.next_event(limits.ready_seconds)
        while event is not None and event["event"] == "step":  # none expected before "started"; tolerated
            event = worker.next_event(limits.ready_seconds)
        if event is None:
            worker.kill()
            return task_record(job, stop_reason=ERROR, wall_seconds=time.monotonic() - began,
                               stop_detail=f"the agent was not ready within {limits.ready_seconds:.0f} s"), False
        if event["event"] == "result":
            return event["record"], True
        clock = time.monotonic()
        deadline = clock + limits.task_seconds
        while (event := worker.next_event(deadline - time.monotonic())) is not None:
            if event["event"] == "result":
                return event["record"], True
            steps = int(event.get("steps", steps))
        worker.kill()  # the time limit: the run is stopped where it is; the server may finish its reply
        return task_record(job, stop_reason=TIMEOUT, steps=steps, seconds=time.monotonic() - clock,
                           stop_detail=f"stopped at the {limits.task_seconds:g} s task time limit",
                           wall_seconds=time.monotonic() - began), False
    except WorkerExited as err:
        return task_record(job, stop_reason=ERROR, steps=steps, stop_detail=f"{err}; see the log",
                           wall_seconds=time.monotonic() - began), False


def run_tasks(tasks: list[dict[str, Any]], start_worker: Callable[[], WorkerProcess], *, agent: str, model: str,
              layout: Layout, limits: Limits) -> list[dict[str, Any]]:
    """Run each task in a fresh workspace and append its record to the results file as it ends."""
    records: list[dict[str, Any]] = []
    worker: WorkerProcess | None = None
    try:
        for number, task in enumerate(tasks, 1):
            job = make_job(task, agent, model, layout)
            prepare_workspace(Path(job["workspace"]), task.get("files") or {})
            worker = worker or start_worker()
            record, alive = run_job(worker, job, limits)
            if not alive:
                worker = None
            with layout.out.open("a", encoding="utf-8") as results:
                results.write(json.dumps(record, ensure_ascii=False) + "\n")
            records.append(record)
            say(f"[{number}/{len(tasks)}] {job['id']}: {record['stop_reason']} in {record['seconds']:.1f} s, "
                f"{record['steps']} steps: {str(record['answer'])[:80]!r}")
    finally:
        if worker is not None:
            worker.close()
    return records


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP end the run as Ctrl-C does, so the server and the worker are stopped, never orphaned."""

    def interrupt(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = {signum: signal.signal(signum, interrupt) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def resolve_model(path: Path | None) -> Path:
    """The GGUF to serve: `path`, or the bundled model a bare `--model local` runs (assembled on first use)."""
    if path is not None:
        if not path.is_file():
            raise FileNotFoundError(f"no GGUF at {path}")
        return path
    from autoagent.llm.weights import default_chat_model, ensure_weights

    return ensure_weights(default_chat_model(), progress=say)


def worker_command(python: Path, base_url: str, model_id: str, max_steps: int) -> list[str]:
    """The worker's command line in the peers venv."""
    return [str(python), "-m", "bench.peers.worker", "--base-url", base_url, "--model-id", model_id,
            "--max-steps", str(max_steps)]


def worker_environment(base: dict[str, str]) -> dict[str, str]:
    """The worker's variables: this checkout first on its path (bench.peers and autoagent from here)."""
    path = [str(ROOT), *filter(None, base.get("PYTHONPATH", "").split(":"))]
    return {**base, "PYTHONPATH": ":".join(dict.fromkeys(path)), "PYTHONUNBUFFERED": "1"}


def open_log(layout: Layout) -> IO[bytes]:
    """The worker's log, appended to across re-runs."""
    layout.log.parent.mkdir(parents=True, exist_ok=True)
    return layout.log.open("ab")
