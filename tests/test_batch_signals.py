"""Stopping `autoagent batch`: SIGTERM, SIGINT or SIGKILL to the batch leaves no worker (nor the resource tracker)
running, SIGTERM and SIGINT end it promptly with exit 130, and results that end while it stops are written."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autoagent.batch.pool import STOP_GRACE_SECONDS
from autoagent.commands import exit_codes as codes

from .batch_fakes import adder, read_lines, write_sums
from .fake_openai import FakeOpenAI, Hold

REPO = Path(__file__).resolve().parent.parent


def group_alive(group: int) -> bool:
    """Whether any process of the process group is left (zombies of a dead group do not count)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == group and fields[0] != "Z":
                return True
    return False


@contextlib.contextmanager
def held_batch(tmp_path: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], FakeOpenAI, list[Hold]]]:
    """A batch of 6 sums on two workers, in its own process group, with its first two tasks' model calls held."""
    holds: list[Hold] = []

    def hold(a: int, b: int) -> Hold | None:
        if a > 1:
            return None
        holds.append(Hold())
        return holds[-1]

    write_sums(tmp_path / "tasks.jsonl", 6)
    with FakeOpenAI(responder=adder(hold)) as server:
        command = [sys.executable, "-m", "autoagent", "batch", str(tmp_path / "tasks.jsonl"), "--out",
                   str(tmp_path / "out.jsonl"), "--workers", "2", "--model", "openai:fake", "--base-url",
                   server.base_url, "--no-memory", *extra]
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        with (tmp_path / "stderr.txt").open("w") as stderr:
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                                       text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while not (len(holds) == 2 and all(held.arrived.is_set() for held in holds)):
                assert process.poll() is None and time.monotonic() < deadline, "the held tasks never ran"
                time.sleep(0.05)
            yield process, server, holds
        finally:
            for held in holds:
                held.release()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_batch_leaves_no_worker_running(tmp_path: Path, stop: signal.Signals) -> None:
    with held_batch(tmp_path) as (process, server, holds):
        stopped = time.monotonic()
        process.send_signal(stop)  # to the batch alone, not its process group
        process.wait(timeout=30)
        exited = time.monotonic() - stopped
        deadline = time.monotonic() + 20
        while group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not group_alive(process.pid), "a worker or the resource tracker outlived the batch"
        seen = len(server.chat_requests)
        for held in holds:
            held.release()
        time.sleep(1)
        assert len(server.chat_requests) == seen  # nobody is left to make a model call

    assert process.returncode == (-signal.SIGKILL if stop is signal.SIGKILL else codes.INTERRUPTED)
    if stop is not signal.SIGKILL:
        # the grace period, then the kill: what it may take on a loaded machine, well below the 27 s it once took
        assert exited < STOP_GRACE_SECONDS + 5, f"the batch took {exited:.1f} s to stop"
        assert "interrupted: the tasks still running were dropped" in (tmp_path / "stderr.txt").read_text()
    written = read_lines(tmp_path / "out.jsonl") if (tmp_path / "out.jsonl").exists() else []
    assert all(record["stop_reason"] == "finished" for record in written)  # no interrupted task is written


def test_results_that_end_while_the_batch_stops_are_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.batch.worker import NOT_SETTLED, Job
    from autoagent.commands.batch import run_jobs

    def record(task_id: str, reason: str) -> dict[str, Any]:
        return {"id": task_id, "task": "t", "finished": reason == "finished", "stop_reason": reason,
                "stop_detail": "", "answer": "", "steps": 1, "usage": {}, "seconds": 0.0}

    class Stopped:
        slots = 2

        def __init__(self, workers: int) -> None:
            pass

        def results(self, jobs: list[Job], stop: object) -> Iterator[dict[str, Any]]:
            yield record("a", "finished")
            raise KeyboardInterrupt  # Ctrl-C while b and c run

        def stop(self, hurried: object) -> Iterator[dict[str, Any]]:
            yield record("b", "finished")  # ended before its worker heard the interrupt
            yield record("c", NOT_SETTLED)

    monkeypatch.setattr("autoagent.batch.pool.LocalPool", Stopped)
    jobs = [Job(task_id, "t", {}) for task_id in "abc"]
    assert run_jobs(jobs, tmp_path / "out.jsonl", 2, None, skipped=0) is True
    assert [line["id"] for line in read_lines(tmp_path / "out.jsonl")] == ["a", "b"]


def test_ctrl_c_swallowed_by_a_library_still_stops_a_task_run_in_this_process(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # The mechanism behind a batch that did not stop: its one task in this process heard Ctrl-C once, a client
    # library swallowed it, and the task, then the next ones, ran on.
    from click.testing import CliRunner

    from autoagent.cli import cli

    from .scripted import act
    from .test_interrupts import BLOCK, SwallowingModel

    replies = [act("calculator", expression="6*7"), BLOCK, *[act("calculator", expression="6*9")] * 8, BLOCK]
    monkeypatch.setattr("autoagent.llm.load_chat_model", lambda *a, **k: SwallowingModel(replies=replies))
    monkeypatch.setenv("AUTOAGENT_MEMORY", "false")
    write_sums(tmp_path / "tasks.jsonl", 3)
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["batch", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out.jsonl"),
                                      "--max-steps", "8"], catch_exceptions=False)

    assert result.exit_code == codes.INTERRUPTED and time.monotonic() - started < 5, result.stderr
    assert not (tmp_path / "out.jsonl").read_text()  # the interrupted task is not written; the others never ran


def test_stopping_does_not_wait_on_a_job_the_shutdown_cancelled() -> None:
    # Under load the pool's manager thread cancels the queued jobs after the batch has listed those it waits for;
    # wait() never reports such a future done, and the batch sat out its whole grace period.
    import threading
    from concurrent.futures import Future

    from autoagent.batch.pool import LocalPool
    from autoagent.batch.worker import Job

    class Shut:
        def __init__(self) -> None:
            self._processes: dict[int, Any] = {}

        def shutdown(self, wait: bool, cancel_futures: bool) -> None:
            pass

    pool, queued = LocalPool(2), Future()  # type: ignore[var-annotated]
    pool._pool, pool._stopping, pool._futures = Shut(), threading.Event(), {queued: Job("t1", "x", {})}  # type: ignore
    threading.Timer(0.2, queued.cancel).start()  # cancelled once stop() has listed it
    started = time.monotonic()
    assert list(pool.stop(grace=8)) == [] and time.monotonic() - started < 2
