"""The server's tasks on disk, so a restarted server lists and continues them: under
$AUTOAGENT_HOME/serve/tasks/<task-id>/, `task.json` (the task and its run), `steps.jsonl` (the Agent Protocol steps,
appended; a later line for the same step id replaces it) and `workspace/` (the task's files); `tasks/index` lists the
ids in the order they were made, so a page of the list reads only its own tasks. Folders are 0700, files 0600."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import json_input
from ..errors import AutoAgentError
from ..paths import autoagent_home, private_dir, private_file
from ..redact import redacted


class TaskNotFound(AutoAgentError):
    """No task, step or artifact has that id."""


@dataclass
class TaskRecord:
    """A task as the server keeps it."""

    task_id: str
    input: str
    additional_input: dict[str, Any] | None = None
    created: str = ""
    run_id: str = ""  # the transcript's id, once the first step began
    state: str = "created"  # created, running, finished, stopped
    uploaded: list[str] = field(default_factory=list)  # files the client uploaded (not created by the agent)


def tasks_dir() -> Path:
    """Where the server keeps its tasks."""
    return autoagent_home() / "serve" / "tasks"


class TaskStore:
    """Reads and writes the tasks folder; each write is atomic or an appended, synced line."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or tasks_dir()

    def create(self, text: str, additional_input: dict[str, Any] | None) -> TaskRecord:
        """A new task, with its empty workspace (as it is stored: every secret in force redacted)."""
        record = TaskRecord(str(uuid.uuid4()), redacted(text), redacted(additional_input),
                            datetime.now(timezone.utc).isoformat(timespec="microseconds"))
        if not (self.directory / INDEX).is_file():
            self.ids()  # an index older servers did not keep is made first
        for folder in (self.directory.parent, self.directory, self.directory / record.task_id):
            private_dir(folder)  # each one 0700, not only the last
        private_dir(self.workspace(record.task_id))
        self.save(record)
        _append_line(self.directory / INDEX, record.task_id)
        return record

    def save(self, record: TaskRecord) -> None:
        """Write the task's record (atomically: a killed server leaves the old or the new one), every secret in force
        redacted."""
        path = private_dir(self.directory / record.task_id) / "task.json"
        temporary = path.with_suffix(".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(json.dumps(redacted(asdict(record)), ensure_ascii=False))
        os.replace(temporary, path)

    def get(self, task_id: str) -> TaskRecord:
        """The task with this id; TaskNotFound when there is none."""
        path = self.directory / task_id / "task.json"
        if not _safe_id(task_id) or not path.is_file():
            raise TaskNotFound(f"no task with id {task_id!r}")
        return TaskRecord(**json_input.loads(path.read_text(encoding="utf-8")))

    def all(self) -> list[TaskRecord]:
        """Every task, oldest first."""
        return [self.get(task_id) for task_id in self.ids()]

    def ids(self) -> list[str]:
        """Every task's id, oldest first, from the index (made from the tasks themselves when missing)."""
        index = self.directory / INDEX
        if not index.is_file():
            if not self.directory.is_dir():
                return []
            records = [self.get(path.name) for path in self.directory.iterdir()
                       if _safe_id(path.name) and (path / "task.json").is_file()]
            private_file(index)
            for record in sorted(records, key=lambda record: record.created):
                _append_line(index, record.task_id)
        listed = dict.fromkeys(line.strip() for line in index.read_text(encoding="utf-8").splitlines())
        return [task_id for task_id in listed
                if _safe_id(task_id) and (self.directory / task_id / "task.json").exists()]

    def workspace(self, task_id: str) -> Path:
        """The task's own workspace folder."""
        return self.directory / task_id / "workspace"

    def add_step(self, task_id: str, step: dict[str, Any]) -> None:
        """Append a step (or a new version of one) to the task's steps, every secret in force redacted."""
        _append_line(self.directory / task_id / "steps.jsonl", json.dumps(redacted(step), ensure_ascii=False))

    def steps(self, task_id: str) -> list[dict[str, Any]]:
        """The task's steps in order, each in its latest version; a line torn by a killed server is skipped."""
        path = self.directory / task_id / "steps.jsonl"
        steps: dict[str, dict[str, Any]] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    step = json_input.loads(line)
                except ValueError:
                    continue
                steps[step["step_id"]] = step  # a dict keeps the first position of a key
        return list(steps.values())


INDEX = "index"


def _append_line(path: Path, line: str) -> None:
    """Append one line to a file readable by the user alone, synced."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8") as file:
        file.write(line + "\n")
        file.flush()
        os.fsync(file.fileno())


def _safe_id(task_id: str) -> bool:
    """Whether `task_id` can name a folder of ours (a UUID): never a path."""
    try:
        return str(uuid.UUID(task_id)) == task_id
    except ValueError:
        return False
