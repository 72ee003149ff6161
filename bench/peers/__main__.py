"""`python -m bench.peers run`: smolagents' ToolCallingAgent or CodeAgent over autoagent batch tasks, on the bundled
GGUF served by llama_cpp.server, each task's result a line in the shape of `autoagent batch`'s results."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from .records import AGENTS, FINISHED
from .runner import (
    SERVER_START_TIMEOUT,
    Layout,
    Limits,
    open_log,
    read_tasks,
    resolve_model,
    run_tasks,
    say,
    settled_ids,
    stopped_by_signals,
    worker_command,
    worker_environment,
)
from .venv import ROOT

EPILOG = """\
Each task runs in a fresh folder OUT.workspaces/ID laid out with the task's files; its steps are written to
OUT.steps/ID.json and the worker's output to OUT.log. Both agents get autoagent's own tools (calculator, calendar,
current_datetime, read_file, write_file, list_files, copy_file, move_file, delete_file, search_files), no web tools.
A results file that already holds a task id skips it (delete the file for a fresh run). smolagents is installed on
first use into bench/.venvs/peers; the server runs from this python, which needs llama-cpp-python[server].
Example: flock /tmp/model.lock .venv/bin/python -m bench.peers run --agent smolagents-tools \\
  --tasks bench/out/peers/tasks.jsonl --out bench/out/peers/tools.jsonl
"""


def parser() -> argparse.ArgumentParser:
    """The command line."""
    about = __doc__.split("\n\n")[0].split(": ", 1)[1]
    top = argparse.ArgumentParser(prog="python -m bench.peers", description=about)
    commands = top.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run one smolagents agent over a task file",
                              description=about, epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--agent", required=True, choices=AGENTS,
                     help="smolagents-tools: ToolCallingAgent; smolagents-code: CodeAgent")
    run.add_argument("--tasks", required=True, type=Path, metavar="TASKS.jsonl",
                     help='autoagent batch task lines: {"id", "task", "files": {path: text}, "settings"}')
    run.add_argument("--out", required=True, type=Path, metavar="RESULTS.jsonl",
                     help="results, one line a task, in autoagent batch's shape plus \"agent\" and \"model\"")
    run.add_argument("--model-path", type=Path, metavar="GGUF",
                     help="the GGUF to serve (default: the bundled model `--model local` runs, the 1.5B)")
    run.add_argument("--max-steps", type=int, default=8, metavar="N",
                     help="action steps before smolagents forces an answer (default: 8)")
    run.add_argument("--task-timeout", type=float, default=300.0, metavar="SECONDS",
                     help="a task still running after this is stopped and recorded as a timeout (default: 300)")
    run.add_argument("--threads", type=int, default=2, metavar="N",
                     help="llama.cpp threads, for prompt and generation (default: 2)")
    return top


def summary(records: list[dict[str, Any]]) -> str:
    """One line: how many finished, and the median seconds and steps."""
    if not records:
        return "no task was run"
    finished = sum(record["stop_reason"] == FINISHED for record in records)
    return (f"{finished}/{len(records)} finished; median {statistics.median(r['seconds'] for r in records):.1f} s, "
            f"{statistics.median(r['steps'] for r in records):g} steps a task")


def run(options: argparse.Namespace) -> int:
    """Serve the model, run the tasks not yet in the results file, stop the server; the exit code."""
    from tests.llama_server import LlamaServer

    from .venv import ensure_venv, versions

    tasks = read_tasks(options.tasks)
    settled = settled_ids(options.out)
    pending = [task for task in tasks if task["id"] not in settled]
    if settled:
        say(f"{len(settled)} task(s) already in {options.out}: skipped")
    if not pending:
        return 0
    python = ensure_venv()
    model_path = resolve_model(options.model_path)
    layout = Layout(options.out)
    layout.out.parent.mkdir(parents=True, exist_ok=True)
    installed = ", ".join(f"{name} {version}" for name, version in versions(python).items())
    say(f"{options.agent} ({installed}) on {model_path.name}: {len(pending)} task(s); serving the model ...")
    limits = Limits(task_seconds=options.task_timeout)
    with stopped_by_signals(), open_log(layout) as log, \
            LlamaServer.start(model_path, n_ctx=8192, threads=options.threads, timeout=SERVER_START_TIMEOUT) as server:
        from .process import WorkerProcess

        command = worker_command(python, server.base_url, server.alias, options.max_steps)
        environment = worker_environment(dict(os.environ))
        records = run_tasks(pending, lambda: WorkerProcess(command, log, environment, ROOT),
                            agent=options.agent, model=model_path.name, layout=layout, limits=limits)
    say(summary(records))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; 130 on Ctrl-C (the server and the worker stopped first)."""
    options = parser().parse_args(argv)
    try:
        return run(options)
    except KeyboardInterrupt:
        say("interrupted: the server and the worker were stopped; a re-run goes on with the tasks not yet done")
        return 130


if __name__ == "__main__":
    sys.exit(main())
