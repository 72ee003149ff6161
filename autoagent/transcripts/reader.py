"""Reading run transcripts back: one run whole (`autoagent runs show`, `--resume`), or all of them in brief."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import json_input
from ..errors import ConfigurationError
from ..steps import Step, StopReason
from .writer import SUFFIX, runs_dir, step_from_record

logger = logging.getLogger("autoagent")
TAIL_BLOCK = 64 * 1024


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
    summary: tuple[str, int] = ("", 0)  # compaction's last summary, and the step it tells up to

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
        if transcript.summary[1] >= record.get("from_step", 1 << 30):  # it told steps that are redone
            transcript.summary = ("", 0)
        transcript.stop_reason = None
    elif kind == "step":
        transcript.steps.append(step_from_record(record))
    elif kind == "summary":  # compaction: the steps up to `through_step`, told
        transcript.summary = (str(record.get("text", "")), int(record.get("through_step", 0)))
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
        record = json_input.loads(line)
    except ValueError:  # torn, or nested too deep to read
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
