"""Run transcripts: each run written step by step as JSONL under $AUTOAGENT_HOME/runs, and read back."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from . import __version__
from .errors import ConfigurationError
from .events import RunObserver
from .paths import autoagent_home
from .redact import Redactor
from .reply import ThoughtAndAction
from .steps import RunResult, Step, StepKind, StopReason

logger = logging.getLogger("autoagent")
SUFFIX = ".jsonl"
TAIL_BLOCK = 64 * 1024
USAGE_FIELDS = ("calls", "input_tokens", "output_tokens", "estimated", "cost_usd")


def new_run_id() -> str:
    """A sortable, unique run id: UTC time and four random hex digits, e.g. `20261129-134512-3f9a`."""
    return f"{datetime.now(timezone.utc):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def runs_dir() -> Path:
    """Where transcripts are written: $AUTOAGENT_HOME/runs."""
    return autoagent_home() / "runs"


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
            "input_tokens": step.input_tokens, "output_tokens": step.output_tokens}


def step_from_record(record: dict[str, Any]) -> Step:
    """The Step a step record was written from."""
    decision = record.get("decision")
    return Step(number=int(record["number"]), kind=StepKind(record["kind"]), reply=record.get("reply", ""),
                decision=ThoughtAndAction.model_validate(decision) if decision else None,
                observation=record.get("observation", ""), success=bool(record.get("success", True)),
                seconds=float(record.get("seconds", 0.0)), input_tokens=int(record.get("input_tokens", 0)),
                output_tokens=int(record.get("output_tokens", 0)))


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

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        """Open the transcript; a resumed run (`run.steps` not empty) appends a resume record to its file."""
        self.run_id = self.requested_id or run.run_id or new_run_id()  # a writer reused for a new run: a new id
        if not run.run_id:
            run.run_id = self.run_id
        self.path, self._failed = (self.directory or runs_dir()) / f"{self.run_id}{SUFFIX}", False
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

    def on_warning(self, message: str) -> None:
        self._write({"type": "warning", "message": message, "time": _now()})

    def on_run_end(self, run: RunResult) -> None:
        """Record the outcome and usage, and close the file."""
        usage = {name: getattr(run.usage, name) for name in USAGE_FIELDS}
        self._write({"type": "end", "stop_reason": run.stop_reason.value, "stop_detail": run.stop_detail,
                     "answer": run.answer, "steps": self._last_step, "seconds": run.seconds, "usage": usage})
        self.close()

    def close(self) -> None:
        """Close the file (a later event opens it again)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None

    def _write(self, record: dict[str, Any]) -> None:
        if self._failed or self.path is None:
            return
        line = json.dumps(self._redactor.record(record), ensure_ascii=False) + "\n"
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

    @staticmethod
    def _open(path: Path) -> IO[str]:
        """Open for appending; a line torn by a killed process is ended, so the next record starts clean."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab+") as raw:  # creates the file when it is new
            torn = raw.seek(0, os.SEEK_END) > 0 and raw.seek(-1, os.SEEK_END) >= 0 and raw.read(1) != b"\n"
        file = path.open("a", encoding="utf-8")
        file.write("\n" if torn else "")
        return file


@dataclass
class Transcript:
    """A run read back from its transcript: what `autoagent runs show` prints and `--resume` continues."""

    run_id: str
    path: Path
    task: str
    settings: dict[str, Any]  # the latest: a resume record's settings replace the start's (secrets redacted)
    started: str
    max_steps: int | None = None
    steps: list[Step] = field(default_factory=list)
    stop_reason: StopReason | None = None  # None: no end record, the process was killed
    stop_detail: str = ""
    answer: str = ""
    usage: dict[str, Any] | None = None
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    plans: list[list[str]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)  # every readable record, in file order

    @property
    def resumable(self) -> bool:
        """True unless the run finished its task."""
        return self.stop_reason is not StopReason.FINISHED

    @property
    def last_step(self) -> int:
        """The number of the last completed step (0 when none); a resumed run continues after it."""
        return self.steps[-1].number if self.steps else 0

    @property
    def status(self) -> str:
        """finished, stopped: <reason>, interrupted, or killed (no end record)."""
        return status_text(self.stop_reason.value if self.stop_reason else None)


def status_text(stop_reason: str | None) -> str:
    """A run's status for people, from its end record's stop reason (None: there was none)."""
    if stop_reason is None:
        return "killed"
    return stop_reason if stop_reason in ("finished", "interrupted") else f"stopped: {stop_reason}"


def find_transcript(run_id_or_prefix: str, directory: Path | None = None) -> Path:
    """The transcript whose id is, or uniquely starts with, the given text."""
    folder = directory or runs_dir()
    wanted, paths = run_id_or_prefix.strip(), transcript_paths(folder)
    matches = [path for path in paths if path.stem == wanted] or [
        path for path in paths if wanted and path.stem.startswith(wanted)]
    if not matches:
        raise ConfigurationError(f"no run with id {wanted!r} in {folder} (see `autoagent runs list`)")
    if len(matches) > 1:
        shown = ", ".join(path.stem for path in matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise ConfigurationError(f"the id {wanted!r} is ambiguous: it starts {len(matches)} runs ({shown})")
    return matches[0]


def load_transcript(run_id_or_prefix: str, directory: Path | None = None) -> Transcript:
    """Read a run back: its task, latest settings, every completed step, and how it ended (if it did)."""
    path = find_transcript(run_id_or_prefix, directory)
    parsed = [_parse(line) for line in path.read_text(encoding="utf-8", errors="replace").split("\n") if line.strip()]
    transcript = Transcript(run_id=path.stem, path=path, task="", settings={}, started="")
    following = None  # the type of the next readable record: a torn line may end the file or a resumed segment
    for number in range(len(parsed), 0, -1):
        record = parsed[number - 1]
        if record is None and following not in (None, "resume", "start"):
            raise ConfigurationError(f"the transcript {path} is damaged: record {number} is not JSON")
        following = record["type"] if record is not None else following
    for number, record in enumerate(parsed, start=1):
        try:
            if record is not None:
                _apply(transcript, record)
        except (KeyError, TypeError, ValueError) as err:  # ValueError: a pydantic ValidationError too
            raise ConfigurationError(f"the transcript {path} is damaged: record {number}: {err!r}") from err
    if not transcript.started:
        raise ConfigurationError(f"the transcript {path} has no start record")
    return transcript


def _apply(transcript: Transcript, record: dict[str, Any]) -> None:
    """Fold one record into the transcript read so far."""
    kind = record["type"]
    transcript.records.append(record)
    if kind == "start":
        transcript.task, transcript.started = record.get("task", ""), record.get("started", "?")
        transcript.settings, transcript.max_steps = record.get("settings", {}), record.get("max_steps")
    elif kind == "resume":  # the run continued: it has not ended yet, and steps after `from_step` are redone
        transcript.settings = record.get("settings", transcript.settings)
        transcript.steps = [step for step in transcript.steps if step.number < record.get("from_step", 1 << 30)]
        transcript.stop_reason = None
    elif kind == "step":
        transcript.steps.append(step_from_record(record))
    elif kind == "warning":
        transcript.warnings.append(record.get("message", ""))
    elif kind == "plan":
        transcript.plans.append(list(record.get("plan", [])))
    elif kind == "end":
        transcript.stop_reason = StopReason(record["stop_reason"])
        transcript.stop_detail, transcript.answer = record.get("stop_detail", ""), record.get("answer", "")
        transcript.usage, transcript.seconds = record.get("usage"), float(record.get("seconds", 0.0))


def _parse(line: str) -> dict[str, Any] | None:
    """A record, or None for a line that is not one (torn by a killed process)."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("type"), str) else None


@dataclass(frozen=True)
class TranscriptSummary:
    """One line of `autoagent runs list`."""

    run_id: str
    path: Path
    started: str
    task: str
    status: str
    steps: int


def transcript_paths(directory: Path | None = None) -> list[Path]:
    """Every transcript file, newest first (run ids sort by time)."""
    folder = directory or runs_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{SUFFIX}"), key=lambda path: path.name, reverse=True)


def list_transcripts(directory: Path | None = None, limit: int | None = None) -> list[TranscriptSummary]:
    """Summaries of the newest runs; each file's first line and last records only are read."""
    summaries = []
    for path in transcript_paths(directory)[:limit]:
        try:
            summaries.append(_summarize(path))
        except (OSError, ValueError) as err:  # one unreadable file does not hide the others
            logger.warning("cannot read the transcript %s: %s", path, err)
    return summaries


def _summarize(path: Path) -> TranscriptSummary:
    with path.open("rb") as file:
        start = _parse(file.readline().decode("utf-8", errors="replace")) or {}
    status, steps = None, None  # from the last records: the end (or none), the last step, or where a segment began
    for record in _records_backwards(path):
        kind = record["type"]
        status = status or status_text(str(record.get("stop_reason")) if kind == "end" else None)
        steps = {"end": record.get("steps"), "step": record.get("number"), "start": 0,
                 "resume": int(record.get("from_step", 1)) - 1}.get(kind)
        if isinstance(steps, int):
            break
    return TranscriptSummary(run_id=path.stem, path=path, started=str(start.get("started", "?")),
                             task=str(start.get("task", "")), status=status or "killed", steps=steps or 0)


def _records_backwards(path: Path) -> Iterator[dict[str, Any]]:
    """The file's readable records, last first, reading it from the end a block at a time."""
    with path.open("rb") as file:
        position = file.seek(0, os.SEEK_END)
        pending = b""
        while position > 0:
            size = min(TAIL_BLOCK, position)
            position -= size
            file.seek(position)
            lines = (file.read(size) + pending).split(b"\n")
            pending = lines.pop(0) if position > 0 else b""  # may be the end of a line that starts further back
            for line in reversed(lines):
                record = _parse(line.decode("utf-8", errors="replace")) if line.strip() else None
                if record is not None:
                    yield record
