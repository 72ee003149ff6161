"""Judging a run: result records (autoagent batch's, or a peer's in the same shape) checked, classed and summarised;
two summaries compared task by task. Offline and fast."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.judge import RunInfo, classify, judge
from bench.summaries import describe_differences, differences, summary_name, write_summary
from bench.tasksets import TaskSet, load_set


def record(task: str, answer: str, finished: bool, workspace: Path, stop_reason: str = "", seconds: float = 1.0,
           steps: int = 2) -> dict[str, Any]:
    """A result line as `autoagent batch` (or a peer's runner) writes it."""
    return {"id": task, "answer": answer, "finished": finished, "stop_reason": stop_reason or (
        "finished" if finished else "max_steps"), "steps": steps, "seconds": seconds, "workspace": str(workspace),
        "run_id": ""}


def test_classes_cover_every_way_a_run_ends() -> None:
    assert classify(True, True, "finished") == "right-finished"
    assert classify(True, False, "finished") == "false"
    assert classify(False, True, "max_steps") == "right-stopped"
    assert classify(False, False, "loop_detected") == "wrong-stopped"
    assert classify(False, False, "error") == "error"


def test_a_summary_of_a_few_records_counts_each_class(tmp_path: Path) -> None:
    suite = load_set("main")
    records = [record("mul-add", "7006669", True, tmp_path, seconds=3.0),
               record("percent", "It is 370.", True, tmp_path, seconds=5.0),
               record("sqrt", "144", False, tmp_path, steps=6),
               record("seconds", "", False, tmp_path, "error", steps=0) | {"stop_detail": "model unreachable"},
               record("power", "no idea", False, tmp_path, "loop_detected"),
               record("not-a-task", "1", True, tmp_path)]
    info = RunInfo(set="main", config="tools", agent="smolagents-toolcalling", model="local", commit="abc1234",
                   date="2026-12-06", note="a peer")
    outcomes, summary = judge(suite, records, info)
    assert [outcome.cls for outcome in outcomes] == ["right-finished", "false", "right-stopped", "error",
                                                     "wrong-stopped"]
    assert outcomes[1].problem == "answer does not state 372"
    assert summary["counts"] == {"tasks": 5, "right": 2, "finished_right": 1, "false_successes": 1, "stopped": 3,
                                 "errors": 1, "median_steps": 2, "median_seconds": 1.0}
    assert summary["tasks"] == {"mul-add": "right-finished", "percent": "false", "sqrt": "right-stopped",
                                "seconds": "error", "power": "wrong-stopped"}
    assert (summary["agent"], summary["protocol"], summary["mode"], summary["note"]) == (
        "smolagents-toolcalling", "tools", "loop", "a peer")
    path = write_summary(summary, tmp_path)
    assert path.name == "main-smolagents-toolcalling-tools-local-coach-default-abc1234.json"
    assert write_summary(summary, tmp_path).name == f"{summary_name(summary)}-2.json"


def test_a_date_check_counts_today_from_the_day_the_run_started(tmp_path: Path) -> None:
    suite = load_set("main")
    late = record("date-today", "Today is 2026-12-01.", True, tmp_path) | {"run_id": "20261201-235416-8f29"}
    outcomes, _ = judge(suite, [late], RunInfo(set="main", config="json"))
    assert outcomes[0].cls == "right-finished"


def test_a_comparison_lists_the_tasks_whose_class_differs_and_hides_a_measured_only_task() -> None:
    before = {"set": "main", "config": "json", "commit": "aaa", "date": "2026-12-01",
              "tasks": {"mul-add": "right-finished", "percent": "false"}}
    after = {**before, "commit": "bbb", "tasks": {"mul-add": "right-finished", "percent": "right-stopped"}}
    assert differences(before, after) == [("percent", "false", "right-stopped")]
    assert "1 task in another class" in describe_differences(before, after)
    hidden = TaskSet("secret", "measured-only", "", load_set("main").tasks)
    assert differences(before, after, hidden) == [("#2", "false", "right-stopped")]
    assert describe_differences(before, before).endswith("every task in the same class")
