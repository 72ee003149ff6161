"""Ctrl-C that always stops a run: the interrupt is remembered, and raised again each second until the run has
ended, so a library that swallows one KeyboardInterrupt (in a model client's wait, a tool, a callback) cannot turn
Ctrl-C into a run that finishes normally."""

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
    """An InterruptWatch on SIGINT for the block (on the main thread, where Python's own handler is in place)."""
    watch = InterruptWatch()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield watch
        return
    signal.signal(signal.SIGINT, watch.handle)
    try:
        yield watch
    finally:
        watch.on_run_end(RunResult(task=""))
        signal.signal(signal.SIGINT, signal.default_int_handler)
