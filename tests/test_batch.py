"""`autoagent batch`: the tasks file, results appended as tasks end, resume, the summary, and a local pool that gives
the results one worker gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.cli import cli
from autoagent.commands import exit_codes as codes

from .batch_fakes import adder, read_lines, stable, write_sums
from .cli_backend import FakeBackend
from .fake_openai import FakeOpenAI
from .scripted import act

SUM = [act("calculator", expression="6*7"), act("FINISH"), "42"]


def write_products(path: Path, count: int) -> list[str]:
    """A tasks file of `count` copies of the task SUM answers, ids t00, t01, ...; the ids."""
    ids = [f"t{index:02d}" for index in range(count)]
    path.write_text("".join(json.dumps({"id": task_id, "task": "What is 6 * 7?"}) + "\n" for task_id in ids))
    return ids


def batch(*args: str) -> tuple[int, str]:
    """`autoagent batch ...` in this process: the exit code and stderr."""
    result = CliRunner().invoke(cli, ["batch", *args], catch_exceptions=False)
    return result.exit_code, result.stderr


def test_each_bad_line_is_named_and_nothing_runs(backend: FakeBackend, tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "a", "task": "hi"}\n[1]\n\n{"id": "a", "task": "again"}\n'
                     '{"id": "b", "task": "x", "settings": {"yes": true}}\n{"id": "c", "task": "x", "extra": 1}\n')
    code, err = batch(str(tasks), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.USAGE
    assert err.splitlines() == [
        f"error: {tasks}:2: not a JSON object",
        f"error: {tasks}:4: the id 'a' is already used on line 1",
        f"error: {tasks}:5: task b: the setting 'yes' cannot be set per task (per task: model, max_steps, "
        "max_seconds, max_tokens, max_cost, max_reply_tokens, context_window, memory_window, compaction, lang, "
        "name, role, protocol, mode, thoughts, json_schema, coach, use_memory, tool_timeout, tools); give it on the "
        "command line",
        f"error: {tasks}:6: unknown field 'extra' (a task has id, task, settings and files)",
    ]
    assert not backend.models and not (tmp_path / "out.jsonl").exists()


def test_results_are_one_line_per_task_with_a_summary(backend: FakeBackend, tmp_path: Path,
                                                      isolated_home: Path) -> None:
    backend.replies.extend(SUM)
    write_products(tmp_path / "tasks.jsonl", 3)
    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.OK, err
    records = read_lines(tmp_path / "out.jsonl")
    assert [record["id"] for record in records] == ["t00", "t01", "t02"]
    first = records[0]
    assert first["task"] == "What is 6 * 7?" and first["answer"] == "42" and first["finished"] is True
    assert first["stop_reason"] == "finished" and first["steps"] == 2 and first["usage"]["calls"] == 3
    assert Path(first["workspace"]).parent.parent == isolated_home / "batch"
    assert Path(first["workspace"]).name == "t00"
    assert (isolated_home / "runs" / f"{first['run_id']}.jsonl").is_file()  # the transcript is kept
    assert "[3/3] t02: finished · 2 steps" in err
    assert "batch: 3 of 3 tasks ran · 3 finished" in err and "tasks/min" in err


def test_a_rerun_skips_the_tasks_done_and_retries_errors(backend: FakeBackend, tmp_path: Path) -> None:
    backend.replies.extend(SUM)
    ids = write_products(tmp_path / "tasks.jsonl", 4)
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"id": "t01", "stop_reason": "max_steps", "finished": False}) + "\n"
                   + json.dumps({"id": "t02", "stop_reason": "error", "finished": False}) + "\n"
                   + '{"id": "t03", "stop_rea')  # torn by a killed batch
    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(out))

    assert code == codes.NOT_FINISHED  # t01 stays stopped
    assert len(backend.models) == 3  # t00, t02 (its error is retried) and t03
    records = [json.loads(line) for line in out.read_text().splitlines()[3:]]  # after the torn line
    assert sorted(record["id"] for record in records) == ["t00", "t02", "t03"]
    assert "batch: 3 of 3 tasks ran · 3 finished · 1 already done" in err

    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(out))
    assert code == codes.NOT_FINISHED and len(backend.models) == 3 and "0 of 0 tasks ran" in err
    assert ids == ["t00", "t01", "t02", "t03"]


def test_a_task_sets_its_own_settings_and_starting_files(backend: FakeBackend, tmp_path: Path) -> None:
    backend.replies.extend([act("read_file", path="n.txt"), act("FINISH"), "7"])
    (tmp_path / "tasks.jsonl").write_text(json.dumps(
        {"id": "z", "task": "读 n.txt", "settings": {"lang": "zh", "max_steps": 1}, "files": {"n.txt": "7"}}) + "\n")
    code, _ = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))

    [record] = read_lines(tmp_path / "out.jsonl")
    assert code == codes.NOT_FINISHED and record["stop_reason"] == "max_steps" and record["steps"] == 1
    assert "7" in backend.models[0].prompts[0] or "任务" in backend.models[0].prompts[0]
    assert (Path(record["workspace"]) / "n.txt").read_text() == "7"


def test_side_effects_are_refused_without_yes(backend: FakeBackend, tmp_path: Path) -> None:
    backend.replies.extend([act("write_file", path="a.txt", content="x"), act("FINISH"), "not written"])
    (tmp_path / "tasks.jsonl").write_text('{"id": "w", "task": "write a.txt"}\n')
    batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))

    [record] = read_lines(tmp_path / "out.jsonl")
    assert not (Path(record["workspace"]) / "a.txt").exists()
    assert "there is no terminal to ask" in backend.models[0].prompts[1]


def test_a_model_failure_is_an_error_result_and_exit_1(backend: FakeBackend, tmp_path: Path) -> None:
    (tmp_path / "tasks.jsonl").write_text('{"id": "e", "task": "hi"}\n')
    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))

    [record] = read_lines(tmp_path / "out.jsonl")
    assert code == codes.ERROR and record["stop_reason"] == "error"
    assert "AssertionError: the script has no reply #1" in record["stop_detail"]
    assert "stopped: error 1" in err


def test_ray_missing_is_one_line(backend: FakeBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # an import of ray fails, as when it is not installed
    write_sums(tmp_path / "tasks.jsonl", 1)
    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"), "--ray")

    assert code == codes.ERROR
    assert err.strip() == "Error: --ray needs Ray, which is not installed: pip install 'autoagent[ray]' (or pip " \
                          "install ray)"


def test_two_workers_give_the_results_of_one(tmp_path: Path) -> None:
    with FakeOpenAI(responder=adder()) as server:
        write_sums(tmp_path / "tasks.jsonl", 6)
        common = ["--model", "openai:fake", "--base-url", server.base_url, "--no-memory"]
        one, _ = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "one.jsonl"), *common)
        two, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "two.jsonl"), "--workers", "2",
                         *common)

    assert one == two == codes.OK, err
    first, second = read_lines(tmp_path / "one.jsonl"), read_lines(tmp_path / "two.jsonl")
    assert stable(first) == stable(second) and len(first) == 6
    assert {record["answer"] for record in first} == {str(index + index * 7 + 3) for index in range(6)}
    assert len({record["workspace"] for record in first + second}) == 12  # a folder per results file and task


def test_a_batch_killed_with_sigkill_reruns_only_the_missing_tasks(tmp_path: Path) -> None:
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    from .batch_fakes import prompt_of
    from .fake_openai import Hold

    holding = threading.Event()
    holding.set()
    holds: list[Hold] = []

    def hold(a: int, b: int) -> Hold | None:
        if a < 6 or not holding.is_set():
            return None
        holds.append(Hold())
        return holds[-1]

    out = tmp_path / "out.jsonl"
    ids = write_sums(tmp_path / "tasks.jsonl", 10)
    with FakeOpenAI(responder=adder(hold)) as server:
        command = [sys.executable, "-m", "autoagent", "batch", str(tmp_path / "tasks.jsonl"), "--out", str(out),
                   "--workers", "2", "--model", "openai:fake", "--base-url", server.base_url, "--no-memory"]
        repo = Path(__file__).resolve().parent.parent
        first = subprocess.Popen(command, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while (len(holds) < 2 or not out.exists() or len(read_lines(out)) < 6) and first.poll() is None:
                assert time.monotonic() < deadline, "the batch never reached its held tasks"
                time.sleep(0.05)
            first.kill()  # kill -9 of the batch itself, mid-batch: two tasks running, two queued
            first.wait(timeout=30)
            assert first.returncode == -signal.SIGKILL
            before = read_lines(out)
            assert sorted(record["id"] for record in before) == ids[:6]
            holding.clear()
            server.release()  # the orphaned workers' runs end; their results died with the batch
            seen = len(server.chat_requests)
            rerun = subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=180)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(first.pid, signal.SIGKILL)  # the first batch's orphaned workers, should any remain
        later = [prompt_of(request.body) for request in server.chat_requests[seen:]]

    assert rerun.returncode == codes.OK, rerun.stderr
    after = read_lines(out)
    assert sorted(record["id"] for record in after) == ids  # each task once
    assert "batch: 4 of 4 tasks ran · 4 finished · 6 already done" in rerun.stderr
    assert all(f"What is {index} +" not in prompt for prompt in later for index in range(6))


def test_ctrl_c_stops_the_batch_and_a_rerun_continues(backend: FakeBackend, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import autoagent.batch.pool
    from autoagent.batch.worker import run_job

    backend.replies.extend(SUM)
    ran: list[str] = []

    def interrupted_second(job: object) -> dict[str, object]:
        ran.append(job.id)  # type: ignore[attr-defined]
        if len(ran) == 2:
            raise KeyboardInterrupt
        return run_job(job)  # type: ignore[arg-type]

    monkeypatch.setattr(autoagent.batch.pool, "run_job", interrupted_second)
    write_products(tmp_path / "tasks.jsonl", 3)
    code, err = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))

    assert code == codes.INTERRUPTED and ran == ["t00", "t01"]  # t02 never started
    assert [record["id"] for record in read_lines(tmp_path / "out.jsonl")] == ["t00"]
    assert "interrupted: the tasks still running were dropped" in err
    monkeypatch.setattr(autoagent.batch.pool, "run_job", run_job)
    code, _ = batch(str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"))
    assert code == codes.OK and [record["id"] for record in read_lines(tmp_path / "out.jsonl")] == ["t00", "t01",
                                                                                                  "t02"]


def test_pool_workers_share_the_cores_for_the_embedded_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.batch.pool import share_cores
    from autoagent.llm.local import THREADS_VARIABLE, ChatLocalLlama

    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    share_cores(3)
    assert ChatLocalLlama(model_path="/m/fake.gguf").n_threads == 2  # 8 cores, 3 workers: 2 threads each
    monkeypatch.setenv(THREADS_VARIABLE, "5")
    share_cores(3)  # the user's own setting stands
    assert ChatLocalLlama(model_path="/m/fake.gguf").n_threads == 5
    monkeypatch.delenv(THREADS_VARIABLE)
    assert ChatLocalLlama(model_path="/m/fake.gguf").n_threads == 8
