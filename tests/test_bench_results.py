"""bench/RESULTS.md, docs/results.md and the README's results table are what `python -m bench report` makes of the
summaries in bench/summaries/: a number written there by hand, or a summary added without `report`, fails here. And
the pooling behind the tables, on summaries made up for the test. Offline and fast."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.pooling import pooled_rows, row_label, side_by_side
from bench.report import ROOT, fill, machines, outputs, readme_md
from bench.tasksets import load_set


def test_the_result_pages_are_what_report_writes() -> None:
    stale = [str(path.relative_to(ROOT)) for path, text in outputs().items()
             if path.read_text(encoding="utf-8") != text]
    assert not stale, f"not as `python -m bench report` writes them (run it): {', '.join(stale)}"


def summary(set_name: str, commit: str, started: str, classes: list[str], **fields: Any) -> dict[str, Any]:
    """A made-up summary of a run of `set_name`, the tasks in the set's order given `classes`."""
    tasks = load_set(set_name).tasks
    counts = {"tasks": len(classes), "right": sum(cls.startswith("right") for cls in classes),
              "finished_right": classes.count("right-finished"), "false_successes": classes.count("false"),
              "stopped": sum(cls not in ("right-finished", "false") for cls in classes), "errors": 0,
              "median_steps": 2, "median_seconds": 10.0}
    return {"set": set_name, "agent": "autoagent", "config": "json", "model": "local", "coach": "", "python": False,
            "commit": commit, "date": started[:10], "started": started, "counts": counts,
            "tasks": {task.id: cls for task, cls in zip(tasks, classes, strict=False)}, "note": "", **fields}


def test_a_row_pools_the_latest_full_run_of_each_set_leaving_out_partial_runs_and_changes_taken_out() -> None:
    fresh5 = ["right-finished"] * 6 + ["false"] * 6 + ["wrong-stopped"] * 12
    fresh6 = ["right-stopped"] * 12 + ["false"] * 12
    made = [summary("main", "old", "2026-12-01T00:00:00", ["right-finished"] * 35),
            summary("main", "new", "2026-12-02T00:00:00", ["right-finished"] * 30 + ["false"] * 5),
            summary("main", "part", "2026-12-03T00:00:00", ["false"] * 4),
            summary("fresh5", "a", "2026-12-02T00:00:00", fresh5),
            summary("fresh6", "b", "2026-12-02T00:00:00", fresh6),
            summary("fresh6", "reverted", "2026-12-04T00:00:00", ["right-finished"] * 24, taken_out="c"),
            summary("fresh1", "dev", "2026-12-04T00:00:00", ["right-finished"] * 24),
            summary("fresh5", "x", "2026-12-05T00:00:00", fresh5, coach="off")]
    rows = pooled_rows(made)
    assert [row_label(row.key) for row in rows] == ["autoagent, `local`, `json`, coach off",
                                                    "autoagent, `local`, `json`, coach default"]
    suite, measured = rows[1].pools
    assert (suite.name, [s["commit"] for s in suite.summaries]) == ("the suite", ["new"])
    assert suite.counts == {"tasks": 35, "right": 30, "finished_right": 30, "false_successes": 5, "stopped": 0}
    assert (measured.name, [s["commit"] for s in measured.summaries]) == ("measured-only, 2 sets", ["a", "b"])
    assert measured.counts == {"tasks": 48, "right": 18, "finished_right": 6, "false_successes": 18, "stopped": 24}


def test_the_readme_table_has_the_rows_with_runs_of_both_the_suite_and_the_measured_only_sets(tmp_path: Path) -> None:
    for number, made in enumerate([summary("main", "s1", "2026-12-02T00:00:00", ["right-finished"] * 35),
                                   summary("fresh5", "m1", "2026-12-02T00:00:00", ["false"] * 24),
                                   summary("fresh5", "m2", "2026-12-03T00:00:00", ["false"] * 24, coach="off")]):
        (tmp_path / f"{number}.json").write_text(json.dumps(made), encoding="utf-8")
    readme = readme_md("intro\n<!-- results:begin -->\nold\n<!-- results:end -->\nafter\n", tmp_path)
    assert readme.startswith("intro\n<!-- results:begin -->\n**Side by side, one command.**")
    assert "No command has run autoagent and a peer on the same sets yet." in readme
    assert "| autoagent, `local`, `json`, coach default | the suite | 35 | 35 (100%) | 35 (100%) | 0 (0%) | " \
           "35 of 35 (100%) | s1 (2026-12-02) |" in readme
    assert "|  | measured-only, 1 set | 24 | 0 (0%) | 0 (0%) | 24 (100%) | 0 of 24 (0%) | m1 (2026-12-02) |" in readme
    assert "coach off" not in readme and readme.endswith("<!-- results:end -->\nafter\n")


def test_side_by_side_sums_the_newest_command_that_ran_a_peer_over_the_sets_all_of_its_agents_ran() -> None:
    peer = {"agent": "smolagents-tools", "config": "tools"}
    one, two = "2026-12-05T00:00:00", "2026-12-06T00:00:00"
    made = [summary("fresh5", "old", one, ["right-finished"] * 24),
            summary("fresh5", "old", one, ["false"] * 24, **peer),
            summary("fresh5", "new", two, ["right-finished"] * 2 + ["wrong-stopped"] * 22),
            summary("fresh6", "new", two, ["false"] * 24),
            summary("fresh5", "new", two, ["right-finished"] * 4 + ["false"] * 20, **peer),  # fresh6: not yet run
            summary("fresh7", "later", "2026-12-07T00:00:00", ["right-finished"] * 24),  # no peer beside it
            summary("main", "s", one, ["right-finished"] * 35), summary("main", "s", one, ["false"] * 35, **peer)]
    rows = side_by_side(made)
    assert [(row_label(row.key), row.pools[0].name) for row in rows] == [
        ("autoagent, `local`, `json`, coach default", "the suite"), ("smolagents-tools, `local`, `tools`", "the suite"),
        ("autoagent, `local`, `json`, coach default", "measured-only, 1 set: fresh5"),
        ("smolagents-tools, `local`, `tools`", "measured-only, 1 set: fresh5")]
    assert [(row.pools[0].counts["finished_right"], row.pools[0].counts["false_successes"]) for row in rows[2:]] == [
        (2, 0), (4, 20)]
    assert side_by_side(made[5:6]) == []


def test_the_side_by_side_table_says_on_which_machines_its_runs_ran() -> None:
    peer = {"agent": "smolagents-tools", "config": "tools"}
    start, amd, intel = "2026-12-06T00:00:00", {"machine": "AMD", "cores": 2}, {"machine": "Intel", "cores": 2}
    made = [summary("fresh5", "c", start, ["false"] * 24, **amd), summary("fresh6", "c", start, ["false"] * 24, **amd),
            summary("fresh5", "c", start, ["false"] * 24, **peer, **amd)]
    assert machines(side_by_side(made)) == "Every run above ran on one machine: AMD, 2 cores."
    made.append(summary("fresh6", "c", start, ["false"] * 24, **peer, **intel))
    assert machines(side_by_side(made)) == (
        "The runs above ran on 2 machines (their speed, and so what fits in the time limit, differs): "
        "AMD, 2 cores: fresh5, fresh6 (json); Intel, 2 cores: fresh6 (tools).")


def test_a_template_takes_exactly_its_values() -> None:
    assert fill("a {{ b }} c", {"b": "B"}) == "a B c\n"
    for values in ({}, {"b": "B", "d": "D"}):
        try:
            fill("a {{ b }} c", values)
        except ValueError:
            continue
        raise AssertionError("a template filled with the wrong values")
