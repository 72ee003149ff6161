"""One-off: write bench/sets/*.toml from the task sets written as Python modules (bench/tasks*.py).

Each old module is imported with every top-level `-> Check` factory wrapped so that a call records its factory's
name and arguments; a task's check is then written as that record: `{ name = ..., <parameter> = <value>, ... }`,
nested checks (both, either) as nested records, dates as ISO text, decimals as text, tuples and sets as lists. Every
file written is read back with tomllib and must equal what was meant. bench/check_sets.py then shows the data
checks give the old checks' verdicts.

Run: python bench/convert_sets.py
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib
import importlib.abc
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

import tomllib

BENCH = Path(__file__).resolve().parent
ALIASES = {("tasks_fresh21", "says_pattern"): "says_regex"}  # the same body, docstring aside

MEASURED_ONLY = ("MEASURED ONLY. Whoever changes the agent must not read it (neither its tasks nor its failures), "
                 "and nobody tunes to it; report it as numbers only, and once it has been worked on, write a new set.")
HOW = ("No task needs the network; every expected value is computed from the task's files or given values, every "
       "expected date from the given dates, never from today; a check of a file edit reads the file, not the answer; "
       "a check of made-up content looks at its properties, not its wording.")
ROUNDING = " A task that asks for rounding says how, and its check allows for that rounding and no more."


def _fresh(day: str, blind: bool) -> str:
    who = "blind, by a helper, " if blind else ""
    return f"24 tasks (4 in Chinese), written {who}on {day} before any change they measure: {MEASURED_ONLY} {HOW}"


def _developed(day: str, since: str, why: str) -> str:
    return (f"24 tasks (4 in Chinese), written on {day} before any change they measure and measured only at first; "
            f"a development set since {since}, {why}. {HOW}")


SETS: dict[str, tuple[str, str, str, str]] = {  # name: (module, list, status, description)
    "main": ("tasks", "TASKS", "suite",
             "The suite: 35 ordinary tasks a user gives the agent (arithmetic in one and two tool calls, a computed "
             "result written to a file, a file read and its content used, finding, counting, copying, renaming, "
             "moving and deleting files, dates, four in Chinese), each with an objective check of the answer and of "
             "the workspace afterwards. Worked on. A check never passes on an answer that only repeats the task's own "
             "numbers: every expected value is one the task does not contain; dates count from the day the task ran."),
    "heldout1": ("tasks_heldout", "HELDOUT_1", "development",
                 "20 tasks beside the suite, written in the third session of 2026-12-01 to check that what helps the "
                 "suite helps tasks it was not tuned on; its failures were then worked on: a development set."),
    "heldout2": ("tasks_heldout", "HELDOUT_2", "development",
                 "20 tasks written after heldout1 and only measured in that session; the fourth session of 2026-12-01 "
                 "worked on its failures: a development set."),
    "heldout3": ("tasks_heldout", "HELDOUT_3", "development",
                 "24 tasks written at the start of the fourth session of 2026-12-01, run once, and their failures "
                 "then worked on: a development set."),
    "heldout4": ("tasks_heldout", "HELDOUT_4", "development",
                 "20 tasks written right after heldout3's first run, before any change they could have shaped, and "
                 "only measured until eeefbd9; two of their failures were worked on after that: a development set."),
    "fresh1": ("tasks_fresh", "FRESH_1", "development",
               "24 tasks of shapes the suite and the held-out sets lack (text the agent makes up and writes, knowledge "
               "questions, values read from JSON and CSV files, edits of a file, date arithmetic between given dates, "
               "workspace chores, arithmetic in words, unit conversions, a few in Chinese), written on 2026-12-02 "
               "before the coach; a development set: whoever changes the agent may read it and work on its failures. "
               + HOW),
    "fresh2": ("tasks_fresh", "FRESH_2", "measured-only",
               "24 tasks of the same shapes as fresh1 (text made up and written, knowledge questions, values read from "
               "files, edits, dates, chores, arithmetic in words, a few in Chinese), written with it on 2026-12-02: "
               + MEASURED_ONLY + " " + HOW),
    "fresh3": ("tasks_fresh3", "FRESH_3", "development",
               _developed("2026-12-01", "2026-12-02", "when its failures were read and worked on")),
    "fresh4": ("tasks_fresh4", "FRESH_4", "development",
               _developed("2026-12-02", "2026-12-02", "when its failures were read and worked on")),
    **{f"fresh{n}": (f"tasks_fresh{n}", f"FRESH_{n}", "measured-only", _fresh("2026-12-02", False))
       for n in (5, 6, 7, 8, 9, 12, 13)},
    "fresh10": ("tasks_fresh10", "FRESH_10", "development",
                _developed("2026-12-02", "2026-12-02", "when a change was built from fresh11's false successes")),
    "fresh11": ("tasks_fresh11", "FRESH_11", "development",
                _developed("2026-12-02", "2026-12-02", "when a change was built from its false successes")),
    "fresh14": ("tasks_fresh14", "FRESH_14", "measured-only", _fresh("2026-12-03", False)),
    **{f"fresh{n}": (f"tasks_fresh{n}", f"FRESH_{n}", "measured-only", _fresh("2026-12-03", True))
       for n in (15, 16, 17, 18)},
    "fresh19": ("tasks_fresh19", "FRESH_19", "measured-only", _fresh("2026-12-03", True) + ROUNDING),
    "fresh20": ("tasks_fresh20", "FRESH_20", "development",
                "24 tasks (4 in Chinese), written blind, by a helper, on 2026-12-04 before any change they measure, "
                "and measured only (numbers, no task or failure read) through five runs under `--protocol code`; on "
                "2026-12-05 its tasks and the traces of those runs were read to find what to change next, so from "
                "then on it is a development set: a change it shaped is judged on sets nobody has read. " + HOW
                + ROUNDING),
    "fresh21": ("tasks_fresh21", "FRESH_21", "measured-only", _fresh("2026-12-05", True) + ROUNDING),
}


# ---- the old modules, their factories recording ----

class Recorded:
    """A check made by a factory, with the factory's name and arguments."""

    def __init__(self, factory: Callable[..., Any], module: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                 real: Callable[[str, Path], str | None]) -> None:
        self.factory, self.module, self.args, self.kwargs, self.real = factory, module, args, kwargs, real

    def __call__(self, answer: str, workspace: Path) -> str | None:
        return self.real(answer, workspace)


def _recording(module: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def record(factory: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Recorded:
            return Recorded(factory, module, args, kwargs, factory(*args, **kwargs))

        return wrapper

    return record


class _Loader(importlib.abc.Loader):
    """Executes an old task module with `@__record__` on each top-level function annotated `-> Check`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        tree = ast.parse(self.path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and isinstance(node.returns, ast.Name) and node.returns.id == "Check":
                node.decorator_list.insert(0, ast.copy_location(ast.Name(id="__record__", ctx=ast.Load()), node))
        module.__dict__["__record__"] = _recording(module.__name__)
        exec(compile(ast.fix_missing_locations(tree), str(self.path), "exec"), module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        file = BENCH / f"{name}.py"
        if (name == "tasks" or name.startswith("tasks_")) and file.is_file():
            return importlib.util.spec_from_file_location(name, file, loader=_Loader(file))
        return None


def recorded_sets() -> dict[str, list[Any]]:
    """Every old set's tasks by set name, their checks Recorded."""
    sys.meta_path.insert(0, _Finder())
    try:
        return {name: list(getattr(importlib.import_module(module), attribute))
                for name, (module, attribute, _, _) in SETS.items()}
    finally:
        sys.meta_path.pop(0)
        for name in [name for name in sys.modules if name == "tasks" or name.startswith("tasks_")]:
            del sys.modules[name]  # a later plain import gets the modules as they are


# ---- a check as data ----

def check_data(check: Any) -> dict[str, Any]:
    """A recorded check as data: its factory's name, then each argument given, by parameter name."""
    if not isinstance(check, Recorded):
        raise TypeError(f"not made by a registered factory: {check!r}")
    bound = inspect.signature(check.factory).bind(*check.args, **check.kwargs)
    name = ALIASES.get((check.module, check.factory.__name__), check.factory.__name__)
    return {"name": name, **{key: _plain(value) for key, value in bound.arguments.items()}}


def _plain(value: Any) -> Any:
    """An argument as a plain TOML value."""
    if isinstance(value, Recorded):
        return check_data(value)
    if isinstance(value, dt.datetime):
        raise TypeError("a datetime argument: not expected")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(item) for item in value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        assert all(isinstance(key, str) for key in value)
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"no plain form for {value!r}")


# ---- a small TOML writer ----

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _escape(text: str, multiline: bool) -> str:
    out = []
    for char in text:
        if multiline and char in "\n\t":
            out.append(char)
        elif char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def _key(key: str) -> str:
    return key if _BARE.match(key) else '"' + _escape(key, False) + '"'


def _string(text: str, block: bool) -> str:
    if block and "\n" in text.rstrip("\n"):  # the newline after the opening quotes is not part of the string
        return '"""\n' + _escape(text, True) + '"""'
    return '"' + _escape(text, False) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text)
    if isinstance(value, str):
        return _string(value, False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(key)} = {_value(item)}" for key, item in value.items()) + " }" if value \
            else "{}"
    raise TypeError(repr(value))


def _check_lines(check: dict[str, Any]) -> list[str]:
    """A task's check: inline when short, else a table of its own, a list of nested checks one a line."""
    inline = f"check = {_value(check)}"
    if len(inline) <= 118:
        return [inline]
    lines = ["", "[tasks.check]"]
    for key, value in check.items():
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            lines += [f"{_key(key)} = [", *[f"    {_value(item)}," for item in value], "]"]
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    return lines


def write_set(name: str, status: str, description: str, tasks: list[dict[str, Any]]) -> str:
    """A task set as TOML."""
    lines = [f"# The task set {name} ({status}). Checks: bench/checks/.", f"name = {_value(name)}",
             f"status = {_value(status)}", f"description = {_string(description, False)}"]
    for task in tasks:
        lines += ["", "[[tasks]]", f"id = {_value(task['id'])}", f"lang = {_value(task['lang'])}",
                  f"text = {_string(task['text'], True)}", *_check_lines(task["check"])]
        if task["files"]:
            lines += ["", "[tasks.files]", *[f"{_key(path)} = {_string(content, True)}"
                                              for path, content in task["files"].items()]]
    return "\n".join(lines) + "\n"


def main() -> None:
    out = BENCH / "sets"
    out.mkdir(exist_ok=True)
    for name, tasks in recorded_sets().items():
        _, _, status, description = SETS[name]
        data = {"name": name, "status": status, "description": description,
                "tasks": [{"id": task.name, "lang": task.lang, "text": task.text, "check": check_data(task.check),
                           "files": dict(task.files)} for task in tasks]}
        text = write_set(name, status, description, data["tasks"])
        read = tomllib.loads(text)
        for task in read["tasks"]:
            task.setdefault("files", {})
        if json.dumps(read, sort_keys=True) != json.dumps(data, sort_keys=True) or read != data:
            raise SystemExit(f"{name}: the TOML written does not read back as the data")
        (out / f"{name}.toml").write_text(text, encoding="utf-8")
        print(f"{name}: {len(tasks)} tasks", file=sys.stderr)


if __name__ == "__main__":
    main()
