"""One task of a batch, as a worker runs it (in this process, a pool's process or a Ray worker): the agent built
from the batch's settings and the task's own, in a fresh workspace, its transcript written, its result a JSON-ready
dict."""

from __future__ import annotations

import io
import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Variables a worker on another machine needs: settings, keys and where the server is (a Ray cluster's nodes do not
# read this machine's api_keys.env).
FORWARDED_PREFIXES = ("AUTOAGENT_", "OPENAI_")
FORWARDED_SUFFIXES = ("_API_KEY",)
NOT_SETTLED = "interrupted"  # a result the batch does not write: the task runs again on a re-run


@dataclass(frozen=True)
class Job:
    """Everything a worker needs for one task; plain data, so it crosses to another process or machine."""

    id: str
    task: str
    settings: dict[str, Any]  # Settings.to_record(), the workspace already the task's own
    files: dict[str, str] = field(default_factory=dict)
    environment: dict[str, str] = field(default_factory=dict)  # set in the worker before the agent is built


def forwarded_environment() -> dict[str, str]:
    """This process's variables a remote worker needs (settings, API keys, base URLs)."""
    return {name: value for name, value in os.environ.items()
            if name.startswith(FORWARDED_PREFIXES) or name.endswith(FORWARDED_SUFFIXES)}


def run_job(job: Job) -> dict[str, Any]:
    """Run one task and return its result record; a failure is the record's `error` outcome, never a raise, so
    one broken task does not stop the other hundreds (the record names the exception)."""
    os.environ.update(job.environment)
    warnings = _WarningCollector()
    logger = logging.getLogger("autoagent")
    logger.addHandler(warnings)
    started = time.monotonic()
    try:
        record = _run(job)
    except KeyboardInterrupt:
        record = bare_record(job, NOT_SETTLED, "")
    except Exception as err:  # an infrastructure failure or our bug: the record says which, the batch goes on
        record = bare_record(job, "error", f"{type(err).__name__}: {err}" if not _ours(err) else str(err))
    finally:
        logger.removeHandler(warnings)
    record["wall_seconds"] = round(time.monotonic() - started, 3)
    record["warnings"] = warnings.messages
    return record


def _run(job: Job) -> dict[str, Any]:
    from ..acting.approval import Approver
    from ..errors import AutoAgentError
    from ..report import run_to_json
    from ..settings import Settings, build_agent
    from ..steps import RunResult, StopReason
    from ..transcripts.writer import TranscriptWriter

    settings = Settings.from_record(job.settings)
    prepare_workspace(settings.workspace, job.files)
    writer = TranscriptWriter(settings.to_record())
    agent = build_agent(settings)
    # Nobody is at a terminal to answer: a side-effecting action is refused unless the batch runs with --yes.
    agent.toolbox.approver = Approver(auto_approve=settings.yes, input_stream=io.StringIO())
    try:
        result = agent.execute(job.task, observers=[writer])
    except AutoAgentError as err:
        result = agent.last_run or RunResult(task=job.task)
        result.stop_reason, result.stop_detail = StopReason.ERROR, str(err)
    run = run_to_json(result)
    return {"id": job.id, "task": job.task, "run_id": run["run_id"], "finished": run["finished"],
            "stop_reason": run["stop_reason"], "stop_detail": run["stop_detail"], "answer": run["answer"],
            "steps": len(run["steps"]), "usage": run["usage"], "seconds": round(run["seconds"], 3),
            "workspace": str(settings.workspace)}


def prepare_workspace(workspace: Path, files: dict[str, str]) -> None:
    """An empty workspace for the task (one left by an earlier, killed attempt is emptied), with its files; it and
    the batch's folders above it are the user's alone (0700), as runs/ and serve/ are."""
    from ..paths import private_dir

    if workspace.exists():
        shutil.rmtree(workspace)
    for folder in (workspace.parent.parent, workspace.parent, workspace):  # batch/, the batch's folder, the task's
        private_dir(folder)
    for name, content in files.items():
        target = workspace / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def bare_record(job: Job, stop_reason: str, detail: str) -> dict[str, Any]:
    """The record of a task whose run never produced one."""
    usage = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "total_tokens": 0, "estimated": False,
             "cost_usd": None}
    return {"id": job.id, "task": job.task, "run_id": "", "finished": False, "stop_reason": stop_reason,
            "stop_detail": detail, "answer": "", "steps": 0, "usage": usage, "seconds": 0.0,
            "workspace": str(job.settings.get("workspace", ""))}


def _ours(err: Exception) -> bool:
    """Whether `err` is one of autoagent's typed errors, whose message is already a sentence for people."""
    from ..errors import AutoAgentError

    return isinstance(err, AutoAgentError)


class _WarningCollector(logging.Handler):
    """The run's log warnings, kept for its record (a worker has no terminal to print them on)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
