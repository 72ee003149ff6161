"""A pool worker ends with its batch: the batch interrupts the job it runs (SIGINT, only while a job runs: an idle
worker has nothing to lose), and a worker whose batch is gone, even killed with SIGKILL, stops its job and exits (the
kernel's parent-death signal on Linux, and a watch on the parent's pid everywhere)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

PR_SET_PDEATHSIG = 1  # prctl(2)
WATCH_SECONDS = 0.5  # how often a worker checks that its batch is still there
EXIT_GRACE_SECONDS = 5.0  # how long an orphaned worker's job may take to stop before the worker exits anyway

_state: dict[str, Any] = {"stopping": None, "running": False}


def start_pool_worker(parent: int, stopping: Any) -> None:
    """In a new pool worker (its initializer): idle, it ignores SIGINT; it ends when the batch `parent` is gone;
    `stopping` (a multiprocessing Event) set means the batch stops, so a queued job does not start."""
    _state["stopping"] = stopping
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_terminate)
    _ask_for_parent_death_signal()
    if os.getppid() != parent:  # the batch died before the worker got this far
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="batch-watch", daemon=True).start()


@contextlib.contextmanager
def job_interruptible() -> Iterator[bool]:
    """Around one job: Ctrl-C (the batch's SIGINT) interrupts it; yields True when the batch is stopping already."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _state["running"] = True
    try:
        stopping = _state["stopping"]
        yield stopping is not None and stopping.is_set()
    finally:
        _state["running"] = False
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_terminate(signum: int, frame: Any) -> None:
    """SIGTERM (the parent died, or someone stops this worker): a job under way unwinds as if interrupted, so its
    tools clean up; an idle worker exits at once."""
    if _state["running"]:
        raise KeyboardInterrupt
    os._exit(128 + signal.SIGTERM)


def _ask_for_parent_death_signal() -> None:
    """SIGTERM when the batch's process ends, however it ends (Linux only; the watch covers other systems)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError, TypeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


def _watch_parent(parent: int) -> None:
    """Wait for the batch to go away; then stop the job under way, and exit in any case soon after."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # handled on the main thread, where the job runs
    time.sleep(EXIT_GRACE_SECONDS)
    os._exit(1)
