"""`python -m bench run` end to end on a scripted OpenAI-compatible server (tests/docs_model.py: the calculator, then
FINISH, then "1234 * 5678 + 17 = 7006669." whatever the task): tasks go through `autoagent batch`, the results are
judged, the full records land under bench/out/records/ and the summary where it was asked. Offline and fast."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bench import measure
from bench.__main__ import main
from bench.measure import Plan, run_plan
from bench.runner import Options, batch_line, run_batch, run_folder, run_peer
from bench.tasksets import load_set

from .docs_model import docs_server


@pytest.fixture
def in_checkout_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder for bench/out/, and a scripted server as the model."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-bench-test")
    return tmp_path


def test_a_batch_line_is_the_task_its_files_and_its_settings() -> None:
    task = next(task for task in load_set("main").tasks if task.id == "read-sum")
    assert json.loads(batch_line(task, "plan", "off")) == {
        "id": "read-sum", "task": task.text, "files": {"numbers.txt": "12\n30\n58\n"},
        "settings": {"lang": "en", "protocol": "json", "mode": "plan", "coach": "off"}}
    assert run_folder("main", Options(model="local:0.5b")) == Path("bench/out/main-local_0.5b-default")


def test_a_run_is_judged_recorded_and_summarised(in_checkout_copy: Path) -> None:
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        plan = Plan(["main"], ["json"], options, tasks={"mul-add", "percent"}, note="scripted",
                    summaries=in_checkout_copy / "summaries")
        [summary] = run_plan(plan)
    assert summary["tasks"] == {"mul-add": "right-finished", "percent": "false"}
    assert (summary["counts"]["tasks"], summary["counts"]["false_successes"], summary["note"]) == (2, 1, "scripted")
    [written] = (in_checkout_copy / "summaries").glob("*.json")
    assert json.loads(written.read_text(encoding="utf-8"))["tasks"] == summary["tasks"]
    [records] = (in_checkout_copy / "bench/out/records").glob("*.jsonl")
    lines = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    assert [(line["task"], line["class"], line["actions"]) for line in lines] == [
        ("mul-add", "right-finished", ["calculator", "FINISH"]), ("percent", "false", ["calculator", "FINISH"])]


def run_and_cut_off(plan: Plan, folder: Path) -> tuple[dict[str, Any], Path, str, str]:
    """Run `plan` (two tasks), then leave it as if killed before its second task ended: its results file holds the
    first task's line only, and no summary was written. The summary, the results file, the kept and the cut line."""
    [first] = run_plan(plan)
    results = folder / "bench/out/main-openai_gpt-4o-mini-off/batch-json.jsonl"
    kept, cut = results.read_text(encoding="utf-8").splitlines()  # in the order they ended: one worker
    results.write_text(kept + "\n", encoding="utf-8")
    for written in (folder / "s").glob("*.json"):
        written.unlink()
    return first, results, kept, cut


def test_a_run_cut_off_goes_on_where_it_stopped(in_checkout_copy: Path) -> None:
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        plan = Plan(["main"], ["json"], options, tasks={"mul-add", "percent"}, summaries=in_checkout_copy / "s")
        first, results, kept, cut = run_and_cut_off(plan, in_checkout_copy)
        [resumed] = run_plan(replace(plan, resume=True))
    assert resumed["tasks"] == first["tasks"] and resumed["started"] == first["started"]
    assert len(list((in_checkout_copy / "s").glob("*.json"))) == 1  # the one run's summary, replaced
    lines = results.read_text(encoding="utf-8").splitlines()
    assert lines[0] == kept and json.loads(lines[1])["id"] == json.loads(cut)["id"]
    assert json.loads(lines[1])["run_id"] != json.loads(cut)["run_id"]  # the task with no result ran again, only it


def test_a_resumed_command_on_a_fresh_checkout_skips_the_runs_it_summarised(
        in_checkout_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        plan = Plan(["main"], ["json"], options, tasks={"mul-add"}, summaries=in_checkout_copy / "s")
        [first] = run_plan(plan)
    [measured] = run_plan(replace(plan, checkpoint=True))  # a run summarised is not checkpointed
    assert measured["started"] == first["started"] and not (in_checkout_copy / "s/partial").exists()
    shutil.rmtree(in_checkout_copy / "bench/out")  # another machine: only the committed summary is there
    ran = []
    monkeypatch.setattr(measure, "run_batch", lambda *args, **kwargs: ran.append(args[2]) or [])  # cut off at once
    with pytest.raises(SystemExit, match="main react: cut off"):
        run_plan(replace(plan, configs=["json", "react"], resume=True))
    assert ran == ["react"]  # json was not run again
    state = in_checkout_copy / "bench/out/main-openai_gpt-4o-mini-off/batch-react.run.json"
    assert json.loads(state.read_text(encoding="utf-8"))["started"] == first["started"]  # one command's runs
    with pytest.raises(SystemExit, match="main json: cut off"):  # another command's runs are not taken for it
        run_plan(replace(plan, options=replace(options, max_steps=3), resume=True))


def test_a_run_cut_off_goes_on_on_another_checkout_from_its_checkpoint(in_checkout_copy: Path) -> None:
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        plan = Plan(["main"], ["json"], options, tasks={"mul-add", "percent"}, summaries=in_checkout_copy / "s")
        first, results, kept, cut = run_and_cut_off(plan, in_checkout_copy)
        assert run_plan(replace(plan, checkpoint=True)) == []  # runs nothing
        [partial] = (in_checkout_copy / "s/partial").glob("*.json")
        assert list(json.loads(partial.read_text(encoding="utf-8"))["tasks"]) == [json.loads(kept)["id"]]
        shutil.rmtree(in_checkout_copy / "bench/out")  # another machine: only the committed files are there
        [resumed] = run_plan(replace(plan, resume=True))
    assert resumed["tasks"] == first["tasks"]
    assert {**resumed["counts"], "median_seconds": 0} == {**first["counts"], "median_seconds": 0}
    assert resumed["started"] == first["started"] and not partial.exists()  # the summary holds what it kept
    [ran] = results.read_text(encoding="utf-8").splitlines()
    assert json.loads(ran)["id"] == json.loads(cut)["id"]  # only the task with no result ran


def test_resume_refuses_a_run_begun_otherwise(in_checkout_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        plan = Plan(["main"], ["json"], options, tasks={"mul-add"}, summaries=in_checkout_copy / "s", resume=True)
        run_plan(plan)  # none was begun: --resume begins it
        with pytest.raises(SystemExit, match="begun with another tasks"):
            run_plan(replace(plan, tasks={"mul-add", "percent"}))
        monkeypatch.setattr(measure, "git_commit", lambda: "0123abc")
        with pytest.raises(SystemExit, match=r"begun at commit .* this checkout is at 0123abc"):
            run_plan(plan)


def test_a_run_cut_off_writes_no_summary_and_runs_nothing_more(in_checkout_copy: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    ran = []
    monkeypatch.setattr(measure, "run_batch", lambda *args, **kwargs: ran.append(args[2]) or [])  # Ctrl-C at once
    plan = Plan(["main"], ["json", "code"], Options(), tasks={"mul-add"}, summaries=in_checkout_copy / "s")
    with pytest.raises(SystemExit, match=r"main json: cut off with 0 of 1 tasks done; .* --resume"):
        run_plan(plan)
    assert ran == ["json"] and not (in_checkout_copy / "s").exists()


def test_a_peer_whose_runner_fails_stops_the_run_with_its_exit_code(in_checkout_copy: Path) -> None:
    task = next(task for task in load_set("main").tasks if task.id == "mul-add")
    with pytest.raises(SystemExit, match=r"smolagents-none: the peers' runner ended with exit code [12] \(its output"):
        run_peer("main", [task], "smolagents-none", Options(), hidden=True)  # no such agent (or no bench here): no run


def test_a_hidden_run_s_progress_goes_to_a_log_not_the_terminal(in_checkout_copy: Path,
                                                                  capfd: pytest.CaptureFixture[str]) -> None:
    task = next(task for task in load_set("main").tasks if task.id == "mul-add")
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        [record] = run_batch("main", [task], "json", options, hidden=True)
    shown = capfd.readouterr()
    assert record["id"] == "mul-add" and "mul-add" not in shown.err + shown.out
    log = in_checkout_copy / "bench/out/main-openai_gpt-4o-mini-off/batch-json.progress.log"
    assert "mul-add" in log.read_text(encoding="utf-8")  # the batch's own line for the task, kept for later


def test_a_replayed_run_writes_no_summary_and_is_compared_with_one(in_checkout_copy: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    against = in_checkout_copy / "before.json"
    against.write_text(json.dumps({"set": "main", "config": "json", "commit": "abc", "date": "2026-12-01",
                                   "tasks": {"mul-add": "false"}}), encoding="utf-8")
    with docs_server() as server:
        options = Options(model="openai:gpt-4o-mini", coach="off", base_url=server.base_url)
        run_plan(Plan(["main"], ["json"], options, tasks={"mul-add"}, replaying=True, against=[against],
                      summaries=in_checkout_copy / "summaries"))
    assert not (in_checkout_copy / "summaries").exists()
    assert "  mul-add: false -> right-finished" in capsys.readouterr().out
    assert [path.name[:7] for path in (in_checkout_copy / "bench/out/records").glob("*.jsonl")] == ["replay-"]


def test_compare_prints_the_tasks_whose_class_differs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before, after = tmp_path / "a.json", tmp_path / "b.json"
    base = {"set": "main", "config": "json", "commit": "a", "date": "2026-12-01"}
    before.write_text(json.dumps({**base, "tasks": {"sqrt": "right-stopped", "copy": "false"}}), encoding="utf-8")
    after.write_text(json.dumps({**base, "commit": "b", "tasks": {"sqrt": "right-stopped", "copy": "right-finished"}}),
                     encoding="utf-8")
    main(["compare", str(before), str(after)])
    assert capsys.readouterr().out.splitlines()[1:] == ["  copy: false -> right-finished"]


SPAWNED = """
import multiprocessing, sys
from pathlib import Path
from bench.replay import install

def probe():
    from autoagent.llm import local
    return getattr(local._open_llama, "replay_mode", None)

if __name__ == "__main__":
    install("record", Path(sys.argv[1]))
    from autoagent.batch import pool
    context = multiprocessing.get_context("spawn")
    with pool.ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=print, initargs=("own",)) as workers:
        print(workers.submit(probe).result())
"""


def test_record_and_replay_reach_the_batch_workers_spawned(tmp_path: Path) -> None:
    script = tmp_path / "spawning.py"
    script.write_text(SPAWNED, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "calls")], capture_output=True, text=True,
                          check=True, timeout=120, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.stdout.split() == ["own", "record"]  # the batch's own initializer ran, and the recording was installed
