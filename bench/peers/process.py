"""The worker process as the runner sees it: a job in, events out, and a hard stop of its whole process group."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any


class WorkerExited(RuntimeError):
    """The worker ended (or closed its output) while a job was running."""


class WorkerProcess:
    """One worker (`python -m bench.peers.worker`, or any command speaking its protocol) in a session of its own, so
    that stopping it ends whatever it started, and a Ctrl-C at the terminal reaches only the runner, which decides."""

    def __init__(self, command: list[str], log: IO[bytes], env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env,
                                        cwd=cwd, start_new_session=True, text=True, encoding="utf-8")
        self._events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        # A thread reads the events, so the runner can wait for the next one with a time limit.
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Queue each event line; None once the worker's output closes (a line that is not JSON is skipped)."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                self._events.put(json.loads(line))
            except ValueError:
                continue
        self._events.put(None)

    def send(self, job: dict[str, Any]) -> None:
        """Hand the worker one job."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(job, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise WorkerExited(f"the worker is gone ({err})") from err

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        """The worker's next event, or None when none came within `timeout` seconds (WorkerExited if it ended)."""
        try:
            event = self._events.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if event is None:
            self._events.put(None)  # stays ended for any later caller
            self.process.wait()
            raise WorkerExited(f"the worker exited with {self.process.returncode}")
        return event

    def kill(self) -> None:
        """Stop the worker and everything it started at once (SIGKILL to its process group)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self, grace: float = 10.0) -> None:
        """End the worker: close its input so it leaves its loop, then kill it if it has not left after `grace` s."""
        if self.process.stdin is not None:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.process.stdin.close()
        deadline = time.monotonic() + grace
        while self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        self.kill()
