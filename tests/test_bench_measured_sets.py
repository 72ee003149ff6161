"""The measured-only sets bench/tasks_fresh3.py to bench/tasks_fresh21.py hold checks that cannot pass by accident:
none passes an empty answer or the task's own text as the answer in the untouched workspace. Offline and fast; a
failure names tasks by their place in the set only, never by their text or name (the sets are measured unseen).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(module: str) -> Any:
    """A module of bench/ (not a package: its modules import each other by name)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))


SETS = range(3, 22)  # fresh3 to fresh21


@pytest.fixture(params=[(f"tasks_fresh{n}", f"FRESH_{n}") for n in SETS], ids=[f"fresh{n}" for n in SETS])
def measured_set(request: pytest.FixtureRequest) -> list[Any]:
    module, name = request.param
    return list(getattr(_bench(module), name))


def test_the_set_has_24_distinct_tasks_4_in_chinese(measured_set: list[Any]) -> None:
    assert len(measured_set) == 24
    assert len({task.name for task in measured_set}) == 24
    assert sum(task.lang == "zh" for task in measured_set) == 4
    assert {task.lang for task in measured_set} == {"en", "zh"}


def test_no_check_passes_an_empty_or_echoed_answer_in_the_untouched_workspace(measured_set: list[Any],
                                                                              tmp_path: Path) -> None:
    prepare = _bench("tasks").prepare
    passed = []
    for place, task in enumerate(measured_set):
        workspace = tmp_path / str(place)
        prepare(task, workspace)
        if any(task.check(answer, workspace) is None for answer in ("", task.text)):
            passed.append(place)
    assert passed == [], f"tasks at these places pass without doing anything: {passed}"
