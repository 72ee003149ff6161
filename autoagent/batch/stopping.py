"""How a batch hears Ctrl-C and SIGTERM: as a request to stop, noted by the signal handler and acted on where the
batch looks (between its short waits on the workers), never as a KeyboardInterrupt raised at whatever line the main
thread is on: inside the process pool's own locking that could leave a lock held, and the batch unable to stop or
even exit. Only a task run in this process (one worker) is interrupted where it is, as Ctrl-C interrupts a run, and
again each second until it ends, so that a client library that swallows one interrupt cannot keep it, and the batch,
going. Asked again while it stops, the batch kills its workers at once."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

REPEAT_SECONDS = 1.0  # how soon an interrupt the task in this process did not end on is raised again
POLL_SECONDS = 0.2  # how long the batch waits on its workers before it looks for a stop request again


class StopRequest:
    """Whether the batch was asked to stop (`requested`), and asked again (`hurried`)."""

    def __init__(self) -> None:
        self.requested = threading.Event()
        self.hurried = threading.Event()
        self._job = False  # a task runs in this process, on the main thread
        self._lock = threading.Lock()

    def handle(self, signum: int, frame: Any) -> None:
        """The SIGINT and SIGTERM handler: note the request; interrupt a task that runs in this process."""
        with self._lock:
            job = self._job
        if job:
            if not self.requested.is_set():
                self.requested.set()
                threading.Thread(target=self._repeat, name="batch-interrupt", daemon=True).start()
            raise KeyboardInterrupt
        if self.requested.is_set():
            self.hurried.set()
        self.requested.set()

    @contextlib.contextmanager
    def heard(self) -> Iterator[StopRequest]:
        """SIGINT and SIGTERM handled by `handle` for the block (on the main thread; elsewhere nothing is heard)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {number: signal.signal(number, self.handle) for number in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    @contextlib.contextmanager
    def job(self) -> Iterator[None]:
        """Around a task run in this process: a stop request interrupts it (at once if one came before)."""
        with self._lock:
            self._job = True
        try:
            if self.requested.is_set():
                raise KeyboardInterrupt
            yield
        finally:
            with self._lock:
                self._job = False

    def _repeat(self) -> None:
        """Interrupt the task in this process again each second, until it has ended."""
        main = threading.main_thread().ident
        while True:
            time.sleep(REPEAT_SECONDS)
            with self._lock:
                if not self._job or main is None:
                    return
                signal.pthread_kill(main, signal.SIGINT)
