"""The task sets as data: every set loads, its checks are built from the library, and a check's data round-trips
through the factories' declared types. Offline and fast; no measured-only task is named in a failure."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bench import checks
from bench.checks import CheckDataError, build_check
from bench.tasksets import STATUSES, load_set, prepare, set_names


def test_every_set_loads_with_a_status_a_description_and_distinct_task_ids() -> None:
    names = set_names()
    assert names[0] == "main" and len(names) == 26
    for name in names:
        task_set = load_set(name)
        assert task_set.name == name and task_set.status in STATUSES and task_set.description
        assert len({task.id for task in task_set.tasks}) == len(task_set.tasks)
        assert {task.lang for task in task_set.tasks} <= {"en", "zh"}


def test_the_suite_is_the_suite_and_the_statuses_are_those_of_the_sets() -> None:
    statuses = {name: load_set(name).status for name in set_names()}
    assert statuses["main"] == "suite"
    assert {name for name, status in statuses.items() if status == "development"} == {
        "heldout1", "heldout2", "heldout3", "heldout4", "fresh1", "fresh3", "fresh4", "fresh10", "fresh11", "fresh17",
        "fresh18", "fresh19", "fresh20", "fresh21"}


def test_a_check_is_built_from_its_data_and_judges_answer_and_workspace(tmp_path: Path) -> None:
    says = build_check({"name": "says_number", "value": 7006669})
    assert says("It is 7,006,669.", tmp_path) is None
    assert says("It is 7,006,668.", tmp_path) == "answer does not state 7.00667e+06"
    written = build_check({"name": "both", "checks": [{"name": "file_holds", "path": "hi.txt", "value": "hello",
                                                         "exact": True}, {"name": "kept", "paths": ["keep.txt"]}]})
    (tmp_path / "keep.txt").write_text("kept\n", encoding="utf-8")
    assert written("", tmp_path) == "hi.txt was not written"
    (tmp_path / "hi.txt").write_text("'hello'\n", encoding="utf-8")
    assert written("", tmp_path) is None


def test_a_date_argument_is_read_from_its_iso_text_and_today_is_the_run_day(tmp_path: Path) -> None:
    day = build_check({"name": "says_day", "day": "2026-03-06"})
    assert day("March 6, 2026", tmp_path) is None
    checks.RUN_DAY[:] = [dt.date(2026, 12, 31)]
    try:
        assert build_check({"name": "says_date", "days_from_today": 1})("2027-01-01", tmp_path) is None
    finally:
        checks.RUN_DAY[:] = []


def test_data_that_fits_no_factory_is_an_error() -> None:
    with pytest.raises(CheckDataError, match="no check factory named 'says_nothing'"):
        build_check({"name": "says_nothing"})
    with pytest.raises(CheckDataError, match="needs its argument value"):
        build_check({"name": "says_number"})
    with pytest.raises(CheckDataError, match="takes no argument colour"):
        build_check({"name": "says_number", "value": 1, "colour": "red"})


def test_the_suite_passes_nothing_for_an_empty_answer_in_its_untouched_workspace(tmp_path: Path) -> None:
    for task in load_set("main").tasks:
        workspace = tmp_path / task.id
        prepare(task, workspace)
        assert task.check("", workspace) is not None, task.id
