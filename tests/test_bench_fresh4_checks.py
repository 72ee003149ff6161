"""The measured-only set bench/tasks_fresh4.py holds checks that cannot pass by accident: none passes an empty answer
or the task's own text as the answer in the untouched workspace. Offline and fast; a failure names tasks by their
place in the set only, never by their text or name (the set is measured unseen).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fresh4() -> list[Any]:
    sys.path.insert(0, str(ROOT / "bench"))  # bench/ is not a package: its modules import each other by name
    try:
        from tasks_fresh4 import FRESH_4
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return FRESH_4


def test_the_set_has_24_distinct_tasks_4_in_chinese(fresh4: list[Any]) -> None:
    assert len(fresh4) == 24
    assert len({task.name for task in fresh4}) == 24
    assert sum(task.lang == "zh" for task in fresh4) == 4
    assert {task.lang for task in fresh4} == {"en", "zh"}


def test_no_check_passes_an_empty_or_echoed_answer_in_the_untouched_workspace(fresh4: list[Any],
                                                                              tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from tasks import prepare
    finally:
        sys.path.remove(str(ROOT / "bench"))
    passed = []
    for place, task in enumerate(fresh4):
        workspace = tmp_path / str(place)
        prepare(task, workspace)
        if any(task.check(answer, workspace) is None for answer in ("", task.text)):
            passed.append(place)
    assert passed == [], f"tasks at these places pass without doing anything: {passed}"
