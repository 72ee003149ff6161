"""One-off: show that the task sets as data (bench/sets/, bench/checks/) are the sets written as Python modules
(bench/tasks*.py). Prints counts only (the measured-only sets are not to be read).

1. Every factory and helper in bench/checks/ is, as code, the old module's (its AST, the @register aside).
2. Every task: the same id, text, language and files, in the same order; the new check's factory receives the very
   arguments the old one did (types included: tuples, sets, dates, decimals, ints against floats).
3. Every task: the old check and the new give the same result (None, or the same message) on each (answer,
   workspace) pair of a corpus: the empty answer, the task's text, each answer recorded for the task in
   bench/runs/*.jsonl and synthetic answers made of the check's arguments, each in the untouched workspace, in an
   empty one, and in ones where the files the check reads were written from its arguments; on two run days.

Run: python bench/check_sets.py
"""

from __future__ import annotations

import ast
import datetime as dt
import functools
import importlib
import inspect
import json
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from bench import checks  # noqa: E402
from bench.checks import registry  # noqa: E402
from bench.convert_sets import ALIASES, SETS, Recorded, recorded_sets  # noqa: E402
from bench.tasksets import load_set, prepare  # noqa: E402

DAYS = [dt.date(2026, 12, 2), dt.date(2027, 2, 28)]
PATH_PARAMETERS = {"path", "destination", "backup", "original", "folder"}  # a file name, where no text


def same_code() -> int:
    """1: each function and constant of bench/checks/ against the old definition of that name."""
    old: dict[str, list[tuple[str, ast.AST]]] = defaultdict(list)
    for path in sorted(BENCH.glob("tasks*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            for name in _names(node):
                old[name].append((path.stem, node))
    compared = 0
    for path in sorted((BENCH / "checks").glob("*.py")):
        if path.stem in ("__init__", "registry"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef):
                node.decorator_list = [d for d in node.decorator_list if ast.unparse(d) != "register"]
            for name in _names(node):
                if not any(ast.dump(node) == ast.dump(before) for _, before in old[name]):
                    raise SystemExit(f"bench/checks/{path.name}: {name} is not the old code")
                compared += 1
    for (module, name), alias in ALIASES.items():  # the same body under another name, docstrings aside
        bodies = [_without_docstring(node) for stem, node in old[name] if stem == module]
        bodies += [_without_docstring(node, rename=name) for _, node in old[alias]]
        if len({ast.dump(body) for body in bodies}) != 1:
            raise SystemExit(f"{module}.{name} is not {alias}")
    return compared


def _names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.FunctionDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [target.id for target in node.targets if isinstance(target, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _without_docstring(node: ast.AST, rename: str = "") -> ast.AST:
    copy = ast.parse(ast.unparse(node)).body[0]
    assert isinstance(copy, ast.FunctionDef)
    copy.body = copy.body[1:] if isinstance(copy.body[0], ast.Expr) else copy.body
    copy.name = rename or copy.name
    return copy


def strictly_equal(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 is not 1.0, a tuple not a list)."""
    if isinstance(a, Recorded) or isinstance(b, Recorded):
        return isinstance(a, Recorded) and isinstance(b, Recorded) and a.name == b.name and strictly_equal(
            a.bound, b.bound)
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(strictly_equal(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return a == b and {type(x) for x in a} == {type(x) for x in b}
    return bool(a == b)


def _bound(factory: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    bound = inspect.signature(factory).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _old_call(check: Any) -> Any:
    if isinstance(check, Recorded):
        name = ALIASES.get((check.module, check.factory.__name__), check.factory.__name__)
        made = Recorded.__new__(Recorded)
        made.name, made.bound = name, {k: _old_call(v) for k, v in _bound(check.factory, check.args,
                                                                            check.kwargs).items()}
        return made
    if isinstance(check, (list, tuple)):
        return type(check)(_old_call(item) for item in check)
    return check


def same_arguments() -> tuple[int, int]:
    """2: tasks and their checks' arguments, old (recorded) against new (built from the data)."""
    calls: list[Any] = []
    originals = dict(registry.FACTORIES)

    def recording(name: str, factory: Any) -> Any:
        @functools.wraps(factory)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            made = Recorded.__new__(Recorded)
            made.name, made.bound = name, _bound(factory, args, kwargs)
            calls.append(made)
            return made

        return wrapper

    registry.FACTORIES.update({name: recording(name, factory) for name, factory in originals.items()})
    tasks = factories = 0
    try:
        for name, old_tasks in recorded_sets().items():
            data = load_set(name)
            assert [task.id for task in data.tasks] == [task.name for task in old_tasks], name
            for old, new in zip(old_tasks, data.tasks, strict=True):
                assert (new.text, new.lang, new.files) == (old.text, old.lang, dict(old.files)), (name, "task")
                assert all(type(value) is str for value in new.files.values())
                calls.clear()
                built = registry.build_check(new.check_data)
                if not strictly_equal(_old_call(old.check), built):
                    raise SystemExit(f"{name}: a task's check takes other arguments than the old one")
                tasks += 1
                factories += len(calls)
    finally:
        registry.FACTORIES.update(originals)
    return tasks, factories


# ---- 3: verdicts ----

def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() if key != "name" for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _paths(data: Any) -> list[str]:
    """The files a check's data names as the ones it reads."""
    found = []
    if isinstance(data, dict):
        for key, item in data.items():
            if key in PATH_PARAMETERS and isinstance(item, str) and "\n" not in item and len(item) < 120:
                found.append(item)
            elif key == "files" and isinstance(item, dict):
                found.extend(item)
            else:
                found.extend(_paths(item))
    elif isinstance(data, list):
        for item in data:
            found.extend(_paths(item))
    return found


def _lists(data: Any) -> list[list[str]]:
    """Every list of texts (or of rows of texts) in a check's data, as lines."""
    found = []
    if isinstance(data, dict):
        for item in data.values():
            found.extend(_lists(item))
    elif isinstance(data, list):
        if data and all(isinstance(item, str) for item in data):
            found.append(list(data))
        elif data and all(isinstance(item, list) and all(isinstance(x, str) for x in item) for item in data):
            found.append([",".join(item) for item in data])
        else:
            for item in data:
                found.extend(_lists(item))
    return found


def _texts(leaf: Any) -> list[str]:
    if isinstance(leaf, bool):
        return []
    if isinstance(leaf, (int, float)):
        return [f"{leaf:g}", repr(leaf), f"{leaf:,}"]
    return [str(leaf)]


def answers(task: Any, recorded: list[str]) -> list[str]:
    """The answers a task's checks are compared on."""
    leaves = _leaves(task.check_data)
    texts = [text for leaf in leaves for text in _texts(leaf)]
    synthetic = [" ".join(texts), *texts[:12]]
    for day in DAYS:
        for offset in {leaf for leaf in leaves if isinstance(leaf, int) and not isinstance(leaf, bool)
                       and abs(leaf) < 400}:
            when = day + dt.timedelta(days=offset)
            synthetic += [when.isoformat(), f"{when:%B} {when.day}, {when.year}, a {when:%A}", f"{when:%A}"]
    return list(dict.fromkeys(["", task.text, *recorded, *synthetic]))


def workspaces(task: Any, root: Path) -> list[Path]:
    """The workspaces a task's checks are compared in: untouched, empty, and the files it reads written."""
    made = []
    untouched = root / "untouched"
    prepare(task, untouched)
    made.append(untouched)
    (root / "empty").mkdir()
    made.append(root / "empty")
    leaves = "\n".join(text for leaf in _leaves(task.check_data) for text in _texts(leaf)[:1]) + "\n"
    contents = [leaves, *["\n".join(lines) + "\n" for lines in _lists(task.check_data)][:4]]
    for number, content in enumerate(contents):
        written = root / f"written{number}"
        shutil.copytree(untouched, written)
        for path in _paths(task.check_data):
            target = written / path
            if target.is_dir():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        made.append(written)
    return made


def recorded_answers() -> dict[tuple[str, str], list[str]]:
    """Each answer bench/runs/*.jsonl holds, by (set, task)."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted((BENCH / "runs").glob("*.jsonl")):
        stem = path.stem
        fallback = "main" if stem.startswith(("task-success", "main-")) else stem.split("-")[0]
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            found[(record.get("suite") or fallback, record["task"])].append(str(record["answer"]))
    return found


def same_verdicts() -> Counter[str]:
    """3: old checks (the modules imported as they are) against new ones (the data) on the corpus."""
    sys.path.insert(0, str(BENCH))
    old_tasks_module = importlib.import_module("tasks")
    recorded = recorded_answers()
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for name, (module, attribute, _, _) in SETS.items():
            old_set = getattr(importlib.import_module(module), attribute)
            for number, (old, new) in enumerate(zip(old_set, load_set(name).tasks, strict=True)):
                passed = counts["passed"]
                corpus = answers(new, list(dict.fromkeys(recorded.get((name, new.id), []))))
                counts["recorded answers"] += len(set(recorded.get((name, new.id), [])))
                for day in DAYS:
                    old_tasks_module.RUN_DAY[:] = [day]
                    checks.RUN_DAY[:] = [day]
                    root = Path(folder) / name / str(number) / day.isoformat()
                    for workspace in workspaces(new, root):
                        for answer in corpus:
                            before, after = old.check(answer, workspace), new.check(answer, workspace)
                            counts["pairs"] += 1
                            counts["passed"] += before is None
                            if before != after:
                                counts["differences"] += 1
                counts["tasks"] += 1
                counts["tasks passed at least once"] += counts["passed"] > passed
                counts["tasks with recorded answers"] += bool(recorded.get((name, new.id)))
    return counts


def main() -> None:
    print(f"code: {same_code()} functions and constants of bench/checks/ are the old modules' own")
    tasks, factories = same_arguments()
    print(f"data: {tasks} tasks with the same id, text, language and files; {factories} factory calls with the same "
          "arguments")
    counts = same_verdicts()
    print(f"verdicts: {counts['tasks']} tasks, {counts['pairs']} (answer, workspace, day) pairs, of them "
          f"{counts['passed']} passing ({counts['tasks passed at least once']} tasks pass at least once); "
          f"{counts['recorded answers']} distinct recorded answers of {counts['tasks with recorded answers']} tasks "
          f"among the answers; {counts['differences']} differences")
    if counts["differences"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
