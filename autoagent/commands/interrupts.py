"""Ctrl-C that always stops a run: the interrupt is remembered, and raised again each second until the run has
ended, so a library that swallows one KeyboardInterrupt (in a model client's wait, a tool, a callback) cannot turn
Ctrl-C into a run that finishes normally. The handler is ours whatever handler a library left in place (only an
ignored SIGINT, as a shell leaves it for a job in the background, stays ignored), and it stays ours until the
command's exit code is settled, so Ctrl-C at any moment of a run, up to its last line of output, exits 130."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from ..events import RunObserver
from ..steps import RunResult

REPEAT_SECONDS = 1.0  # how soon an interrupt the run did not end on is raised again


class InterruptWatch(RunObserver):
    """Heard Ctrl-C (`seen`) during a run; raises it again until the run ends (its on_run_end)."""

    def __init__(self) -> None:
        self.seen = False
        self._ended = threading.Event()
        self._lock = threading.Lock()
        self._repeater: threading.Thread | None = None

    def handle(self, signum: int, frame: Any) -> None:
        """The SIGINT handler: KeyboardInterrupt, as Python's own, until the run has ended."""
        self.seen = True
        if self._ended.is_set():
            return
        if self._repeater is None:
            self._repeater = threading.Thread(target=self._repeat, name="interrupt-repeat", daemon=True)
            self._repeater.start()
        raise KeyboardInterrupt

    def on_run_end(self, run: RunResult) -> None:
        """The run has ended (heard first, before the transcript's end is written): no interrupt is raised again."""
        with self._lock:
            self._ended.set()

    def _repeat(self) -> None:
        main = threading.main_thread().ident
        while not self._ended.wait(REPEAT_SECONDS):
            with self._lock:
                if not self._ended.is_set() and main is not None:
                    signal.pthread_kill(main, signal.SIGINT)


@contextlib.contextmanager
def watched_interrupts() -> Iterator[InterruptWatch]:
    """An InterruptWatch on SIGINT for the block (on the main thread, unless SIGINT is ignored there), in place of
    whatever handler was there before, which comes back after."""
    watch = InterruptWatch()
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if previous is None or previous == signal.SIG_IGN:
        yield watch
        return
    signal.signal(signal.SIGINT, watch.handle)
    try:
        yield watch
    finally:
        watch.on_run_end(RunResult(task=""))
        signal.signal(signal.SIGINT, previous)
