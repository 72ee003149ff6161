"""One batch at a time on one results file: a second `autoagent batch` on the same --out, started while the first
runs, ends at once with one line and exit 1, and runs nothing (it would run every task again, and empty the
workspaces the first one's tasks work in)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from autoagent.commands import exit_codes as codes

from .batch_fakes import adder, read_lines, write_sums
from .fake_openai import FakeOpenAI, Hold

REPO = Path(__file__).resolve().parent.parent


def test_a_second_batch_on_the_same_out_runs_nothing(tmp_path: Path) -> None:
    holds: list[Hold] = []

    def hold(a: int, b: int) -> Hold | None:
        if holds:  # the first model call of all, the first batch's: held until the second batch has tried
            return None
        holds.append(Hold())
        return holds[-1]

    out = tmp_path / "out.jsonl"
    ids = write_sums(tmp_path / "tasks.jsonl", 3)
    with FakeOpenAI(responder=adder(hold)) as server:
        command = [sys.executable, "-m", "autoagent", "batch", str(tmp_path / "tasks.jsonl"), "--out", str(out),
                   "--model", "openai:fake", "--base-url", server.base_url, "--no-memory"]
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        first = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while not (holds and holds[0].arrived.is_set()):
                assert first.poll() is None and time.monotonic() < deadline, "the first batch never ran its task"
                time.sleep(0.05)
            seen = len(server.chat_requests)
            second = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
            asked = len(server.chat_requests) - seen
            holds[0].release()
            _, err = first.communicate(timeout=120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(first.pid, signal.SIGKILL)

    assert second.returncode == codes.ERROR and asked == 0
    assert second.stderr.strip() == (f"Error: another autoagent batch is writing its results to {out} now: wait "
                                     "until it ends, or give this one another --out")
    assert first.returncode == codes.OK, err
    assert sorted(record["id"] for record in read_lines(out)) == ids  # each task once
