"""The fresh sets from fresh3 on (bench/sets/fresh3.toml to the last; most of them measured only) hold checks that
cannot pass by accident: none passes an empty answer or the task's own text as the answer in the untouched workspace.
Offline and fast; a failure names tasks by their place in the set only, never by their text or id (the sets are
measured unseen).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.tasksets import Task, load_set, prepare, set_names

SETS = [name for name in set_names() if re.fullmatch(r"fresh\d+", name) and int(name[5:]) >= 3]


@pytest.fixture(params=SETS)
def measured_set(request: pytest.FixtureRequest) -> list[Task]:
    return load_set(request.param).tasks


def test_the_fresh_sets_from_fresh3_on_are_all_there() -> None:
    assert [f"fresh{n}" for n in range(3, 22)] == SETS


def test_the_set_has_24_distinct_tasks_4_in_chinese(measured_set: list[Task]) -> None:
    assert len(measured_set) == 24
    assert len({task.id for task in measured_set}) == 24
    assert sum(task.lang == "zh" for task in measured_set) == 4
    assert {task.lang for task in measured_set} == {"en", "zh"}


def test_no_check_passes_an_empty_or_echoed_answer_in_the_untouched_workspace(measured_set: list[Task],
                                                                              tmp_path: Path) -> None:
    passed = []
    for place, task in enumerate(measured_set):
        workspace = tmp_path / str(place)
        prepare(task, workspace)
        if any(task.check(answer, workspace) is None for answer in ("", task.text)):
            passed.append(place)
    assert passed == [], f"tasks at these places pass without doing anything: {passed}"
