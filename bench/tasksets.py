"""The task sets, read from their data files (bench/sets/NAME.toml), each task's check built from bench/checks/.

A set file holds the set's name, its status (`suite`, `development` or `measured-only`: a measured-only set's tasks
and failures are read by nobody who changes the agent), a description, and its tasks: an id, the text, the language,
the files the workspace starts with, and the check, as data (`{ name = "says_number", value = 114 }`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checks import Check, build_check

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SETS = Path(__file__).resolve().parent / "sets"
STATUSES = ("suite", "development", "measured-only")


@dataclass(frozen=True)
class Task:
    """One task: its id, text, language, starting files and check (with the data it was built from)."""

    id: str
    text: str
    check: Check
    check_data: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)
    lang: str = "en"


@dataclass(frozen=True)
class TaskSet:
    """A task set as its file holds it."""

    name: str
    status: str
    description: str
    tasks: list[Task]

    def chosen(self, ids: set[str]) -> list[Task]:
        """The tasks whose id is in `ids` (all of them when it is empty)."""
        return [task for task in self.tasks if not ids or task.id in ids]


def set_names(folder: Path = SETS) -> list[str]:
    """The name of every set in `folder`: the suite, the held-out sets, the fresh sets, each kind by number."""
    def order(name: str) -> tuple[int, str, int]:
        stem = name.rstrip("0123456789")
        kinds = ("main", "heldout", "fresh")
        return (kinds.index(stem) if stem in kinds else len(kinds), stem, int(name[len(stem):] or 0))

    return sorted((path.stem for path in folder.glob("*.toml")), key=order)


def load_set(name: str, folder: Path = SETS) -> TaskSet:
    """The set `name`, its checks built."""
    path = folder / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"no task set {name!r} (the sets: {', '.join(set_names(folder))})")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if data["status"] not in STATUSES:
        raise ValueError(f"{path}: status {data['status']!r} is none of {', '.join(STATUSES)}")
    tasks = [Task(task["id"], task["text"], build_check(task["check"]), task["check"], dict(task.get("files", {})),
                  task.get("lang", "en")) for task in data["tasks"]]
    if len({task.id for task in tasks}) != len(tasks):
        raise ValueError(f"{path}: two tasks share an id")
    return TaskSet(data["name"], data["status"], data["description"], tasks)


def prepare(task: Task, workspace: Path) -> None:
    """Lay out the task's starting files in an empty workspace."""
    workspace.mkdir(parents=True, exist_ok=True)
    for name, content in task.files.items():
        target = workspace / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
