"""Run transcripts: each run written step by step as JSONL under $AUTOAGENT_HOME/runs (reader.py
reads them back)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from filelock import FileLock, Timeout

from .. import __version__
from ..errors import AutoAgentError
from ..events import RunObserver
from ..paths import autoagent_home, private_dir, private_file
from ..redact import Redactor
from ..reply import ThoughtAndAction
from ..steps import RunResult, Step, StepKind, StopReason, SubRun, Usage
from ..text import encodable

logger = logging.getLogger("autoagent")
SUFFIX = ".jsonl"
LOCK_SUFFIX = ".lock"  # beside the transcript: held by the process running or resuming the run
USAGE_FIELDS = ("calls", "input_tokens", "output_tokens", "estimated", "cost_usd")


_GIVEN: set[str] = set()  # the run ids this process handed out


def new_run_id() -> str:
    """A sortable, unique run id: UTC time and four random hex digits, e.g. `20261129-134512-3f9a`."""
    while True:  # four hex digits collide within a second (1 in 50 for 50 runs): never the same id twice here
        run_id = f"{datetime.now(timezone.utc):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
        if run_id not in _GIVEN:
            _GIVEN.add(run_id)
            return run_id


def runs_dir() -> Path:
    """Where transcripts are written: $AUTOAGENT_HOME/runs."""
    return autoagent_home() / "runs"


class RunInUseError(AutoAgentError):
    """Another autoagent process is running or resuming this run."""


@contextlib.contextmanager
def run_lock(run_id: str, directory: Path | None = None) -> Iterator[None]:
    """Hold run `run_id` while it runs here; RunInUseError at once when another process holds it."""
    lock = _lock(run_id, directory)
    try:
        lock.acquire()
    except Timeout:
        raise RunInUseError(f"run {run_id} is already running in another autoagent process (a run or a --resume); "
                            "wait until it stops, then resume it") from None
    try:
        yield
    finally:
        lock.release()


def _lock(run_id: str, directory: Path | None) -> FileLock:
    return FileLock(private_dir(directory or runs_dir()) / f"{run_id}{LOCK_SUFFIX}", timeout=0, mode=0o600)


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()  # ISO time, UTC, to the second


def step_record(step: Step) -> dict[str, Any]:
    """A step as a transcript record (the native tool call's id is kept, for a faithful rebuild)."""
    decision = None
    if step.decision is not None:
        decision = step.decision.model_dump()
        decision["action"]["call_id"] = step.decision.action.call_id
    return {"type": "step", "number": step.number, "kind": step.kind.value, "reply": step.reply, "decision": decision,
            "observation": step.observation, "success": step.success, "seconds": step.seconds,
            "input_tokens": step.input_tokens, "output_tokens": step.output_tokens, "check": step.check,
            "in_reply_of": step.in_reply_of, **({"sub_run": sub_run_record(step.sub_run)} if step.sub_run else {}),
            **({"changed": list(step.changed)} if step.changed is not None else {}),
            **({"model": step.model} if step.model else {})}


def sub_run_record(sub_run: SubRun) -> dict[str, Any]:
    """The run of the sub-agent a step called, kept in that step's record: its task, steps and outcome."""
    run = sub_run.run
    return {"agent": sub_run.agent, "task": run.task, "stop_reason": run.stop_reason.value,
            "stop_detail": run.stop_detail, "answer": run.answer, "model_answer": run.model_answer,
            "seconds": run.seconds, "usage": {name: getattr(run.usage, name) for name in USAGE_FIELDS},
            "steps": [step_record(step) for step in run.steps]}


def sub_run_from_record(record: dict[str, Any]) -> SubRun:
    """The SubRun a sub-run record was written from."""
    usage = Usage(**{name: record["usage"][name] for name in USAGE_FIELDS if name in record.get("usage", {})})
    run = RunResult(task=record.get("task", ""), answer=record.get("answer", ""),
                    stop_reason=StopReason(record["stop_reason"]), stop_detail=record.get("stop_detail", ""),
                    steps=[step_from_record(step) for step in record.get("steps", [])], usage=usage,
                    seconds=float(record.get("seconds", 0.0)), model_answer=record.get("model_answer", ""))
    return SubRun(str(record["agent"]), run)


def step_from_record(record: dict[str, Any]) -> Step:
    """The Step a step record was written from."""
    decision = record.get("decision")
    return Step(number=int(record["number"]), kind=StepKind(record["kind"]), reply=record.get("reply", ""),
                decision=ThoughtAndAction.model_validate(decision) if decision else None,
                observation=record.get("observation", ""), success=bool(record.get("success", True)),
                seconds=float(record.get("seconds", 0.0)), input_tokens=int(record.get("input_tokens", 0)),
                output_tokens=int(record.get("output_tokens", 0)), check=str(record.get("check", "")),
                in_reply_of=int(record.get("in_reply_of", 0)),
                sub_run=sub_run_from_record(record["sub_run"]) if record.get("sub_run") else None,
                changed=tuple(record["changed"]) if isinstance(record.get("changed"), list) else None,
                model=str(record.get("model", "")))


class TranscriptWriter(RunObserver):
    """Writes a run's events to `<directory>/<run-id>.jsonl`, one redacted record a line, synced after each.

    A disk problem is logged once and ends the transcript; the run goes on.
    """

    def __init__(self, settings: dict[str, Any], run_id: str | None = None, directory: Path | None = None) -> None:
        self.settings = dict(settings)
        self.requested_id = run_id
        self.run_id = run_id or ""
        self.directory = directory
        self.path: Path | None = None
        self._redactor = Redactor.from_environment()  # collected once: the environment does not change mid-run
        self._file: IO[str] | None = None
        self._failed = False
        self._last_step = 0
        self._lock: FileLock | None = None  # a new run's own lock, so it cannot be resumed while it runs

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        """Open the transcript; a resumed run (`run.steps` not empty) appends a resume record to its file."""
        self.run_id = self.requested_id or run.run_id or new_run_id()  # a writer reused for a new run: a new id
        if not run.run_id:
            run.run_id = self.run_id
        self.path, self._failed = (self.directory or runs_dir()) / f"{self.run_id}{SUFFIX}", False
        if self.requested_id is None:  # a resumed run is locked by whoever resumes it (the CLI)
            self._hold_lock()
        self._last_step = run.steps[-1].number if run.steps else 0
        settings = self._redactor.settings(self.settings)
        if run.steps and self.path.is_file():
            self._write({"type": "resume", "from_step": run.steps[-1].number + 1, "settings": settings,
                         "time": _now()})
            return
        self._write({"type": "start", "run_id": self.run_id, "task": run.task, "settings": settings,
                     "started": _now(), "version": __version__, "max_steps": max_steps})
        for step in run.steps:  # resumed from a transcript that is not here: this file still holds the whole run
            self.on_step(step)

    def on_plan(self, plan: list[str]) -> None:
        self._write({"type": "plan", "plan": plan})

    def on_step(self, step: Step) -> None:
        self._last_step = step.number
        self._write(step_record(step))

    def on_summary(self, text: str, through: int) -> None:
        self._write({"type": "summary", "through_step": through, "text": text})

    def on_warning(self, message: str) -> None:
        self._write({"type": "warning", "message": message, "time": _now()})

    def on_run_end(self, run: RunResult) -> None:
        """Record the outcome and usage, and close the file."""
        usage = {name: getattr(run.usage, name) for name in USAGE_FIELDS}
        self._write({"type": "end", "stop_reason": run.stop_reason.value, "stop_detail": run.stop_detail,
                     "answer": run.answer, "model_answer": run.model_answer, "steps": self._last_step,
                     "seconds": run.seconds, "usage": usage})
        self.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def close(self) -> None:
        """Close the file (a later event opens it again)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None

    def _write(self, record: dict[str, Any]) -> None:
        if self._failed or self.path is None:
            return
        redacted = self._redactor.record(record)
        line = json.dumps(redacted, ensure_ascii=False) + "\n"
        if encodable(line) != line:  # a lone surrogate is kept as a \u escape, which UTF-8 can write
            line = json.dumps(redacted) + "\n"
        try:
            if self._file is None:
                self._file = self._open(self.path)
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except (OSError, ValueError) as err:  # ValueError: a file closed under us
            self._failed = True
            logger.warning("the transcript %s is not written further: %s", self.path, err)
            self.close()

    def _hold_lock(self) -> None:
        """Take this run's lock (a new id: no one else holds it); without it the run goes on all the same."""
        try:
            lock = _lock(self.run_id, self.directory)
            lock.acquire()
        except (Timeout, OSError):  # an unwritable folder: writing the transcript reports it
            return
        self._lock = lock

    @staticmethod
    def _open(path: Path) -> IO[str]:
        """Open for appending, private to the user (0600); a line torn by a killed process is ended, so the next
        record starts clean."""
        private_file(private_dir(path.parent) / path.name)
        with path.open("ab+") as raw:
            torn = raw.seek(0, os.SEEK_END) > 0 and raw.seek(-1, os.SEEK_END) >= 0 and raw.read(1) != b"\n"
        file = path.open("a", encoding="utf-8")
        file.write("\n" if torn else "")
        return file
