"""The tasks file of a batch: one JSON object a line, `{"id", "task", optional "settings", optional "files"}`,
checked whole before anything runs, with one readable line per bad line."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .. import json_input
from ..errors import AutoAgentError
from ..settings import Settings

# The settings a task may choose for itself, with the JSON types each takes. Permissions (--yes, --allow-shell,
# --allow-python and its --python-sandbox, private URLs), where the key is sent (--base-url), what code is loaded
# (--tools-module, --mcp, --prompts-dir) and the workspace are the invocation's: a tasks file, maybe written
# elsewhere, grants none of them.
TASK_SETTINGS: dict[str, tuple[type, ...]] = {
    "model": (str,), "max_steps": (int,), "max_seconds": (int, float), "max_tokens": (int,),
    "max_cost": (int, float), "max_reply_tokens": (int,), "context_window": (int,), "memory_window": (int,),
    "compaction": (str,), "lang": (str,), "name": (str,), "role": (str,), "protocol": (str,), "mode": (str,),
    "thoughts": (str,),
    "json_schema": (bool,), "coach": (str,), "use_memory": (bool,), "tool_timeout": (int, float), "tools": (list,),
}
CHOICES = {"lang": ("en", "zh"), "protocol": ("auto", "json", "tools", "react", "code"), "mode": ("loop", "plan"),
           "thoughts": ("auto", "full", "compact"), "coach": ("auto", "on", "off"),
           "compaction": ("auto", "on", "off")}
FIELDS = {"id", "task", "settings", "files"}
# The settings null may set: those whose default is None (no limit, the model's own, the prompts' role, all tools).
NULLABLE = frozenset(item.name for item in fields(Settings) if item.default is None) & set(TASK_SETTINGS)
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")  # a folder name on every system: the task's workspace


class TaskFileError(AutoAgentError):
    """The tasks file cannot be read, or some of its lines are not tasks; `problems` has one line for each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class BatchTask:
    """One line of the tasks file."""

    id: str
    task: str
    settings: dict[str, Any] = field(default_factory=dict)  # per-task values of TASK_SETTINGS
    files: dict[str, str] = field(default_factory=dict)  # the workspace's starting files: relative path -> text


def read_tasks(path: Path, check: Callable[[BatchTask], list[str]] = lambda task: []) -> list[BatchTask]:
    """Every task of the file, in order; TaskFileError naming each bad line (blank lines are skipped), and each
    line whose task `check` finds problems with (the command line's rules)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise TaskFileError([f"{path}: cannot be read: {err}"]) from None
    tasks: list[BatchTask] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            task = parse_task(line)
        except ValueError as err:
            problems.append(f"{path}:{number}: {err}")
            continue
        if task.id in seen:
            problems.append(f"{path}:{number}: the id {task.id!r} is already used on line {seen[task.id]}")
            continue
        seen[task.id] = number
        problems += [f"{path}:{number}: {problem}" for problem in check(task)]
        tasks.append(task)
    if not tasks and not problems:
        problems.append(f"{path}: holds no task (one JSON object a line: {{\"id\": \"t1\", \"task\": \"...\"}})")
    if problems:
        raise TaskFileError(problems)
    return tasks


def parse_task(line: str) -> BatchTask:
    """One line as a task; ValueError saying what is wrong with it."""
    try:
        record = json_input.loads(line)
    except ValueError as err:
        raise ValueError(f"not JSON ({err})") from None
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    unknown = sorted(set(record) - FIELDS)
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r} (a task has id, task, settings and files)")
    raw_id = record.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise ValueError("needs an \"id\": a string or a number")
    task_id = str(raw_id)
    if not _ID.fullmatch(task_id):
        raise ValueError(f"the id {task_id!r} must be letters, digits, '.', '_' or '-' (at most 100, not starting "
                         "with '.', '_' or '-'): it names the task's workspace folder")
    text = record.get("task")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"task {task_id}: needs a \"task\": a non-empty string")
    settings = checked_settings(f"task {task_id}", record.get("settings"))
    return BatchTask(task_id, text, settings, _files(task_id, record.get("files")))


def checked_settings(who: str, settings: Any) -> dict[str, Any]:
    """The task's own settings, checked against TASK_SETTINGS (ValueError: one line, `who` and why)."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise ValueError(f"{who}: \"settings\" must be an object")
    for name, value in settings.items():
        if name not in TASK_SETTINGS:
            raise ValueError(f"{who}: the setting {name!r} cannot be set per task (per task: "
                             f"{', '.join(TASK_SETTINGS)}); give it on the command line")
        types = TASK_SETTINGS[name]
        if value is None and name not in NULLABLE:
            raise ValueError(f"{who}: the setting {name!r} cannot be null")
        if value is not None and (not isinstance(value, types) or (isinstance(value, bool) and bool not in types)):
            raise ValueError(f"{who}: the setting {name!r} must be {' or '.join(t.__name__ for t in types)}")
        if name in CHOICES and value not in CHOICES[name]:
            raise ValueError(f"{who}: the setting {name!r} must be one of {', '.join(CHOICES[name])}")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise ValueError(f"{who}: the setting 'tools' must be a list of tool names")
    return dict(settings)


def _files(task_id: str, files: Any) -> dict[str, str]:
    """The task's starting files: relative paths inside its workspace, with text contents."""
    if files is None:
        return {}
    if not isinstance(files, dict) or not all(isinstance(value, str) for value in files.values()):
        raise ValueError(f"task {task_id}: \"files\" must be an object of relative paths to texts")
    for name in files:
        parts = Path(name).parts
        if not name or Path(name).is_absolute() or ".." in parts or name.startswith("~"):
            raise ValueError(f"task {task_id}: the file {name!r} must be a relative path inside the workspace")
    return dict(files)
