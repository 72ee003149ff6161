"""The runs this server holds live, one per task: at most a few at once (the least recently used idle one is closed
past the limit, its transcript kept, and the task's next step resumes it), and each held under a lock on disk, so
two servers on one $AUTOAGENT_HOME never run the same task."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from filelock import FileLock, Timeout

from ..errors import AutoAgentError
from .driver import Pause, RunDriver

RUN_LOCK = "run.lock"  # in the task's folder: held by the server whose thread runs the task


class TaskBusy(AutoAgentError):
    """Another server process runs this task now."""


class TooManyLiveTasks(AutoAgentError):
    """Every live run is in the middle of a step: none can be closed to make room."""


@dataclass
class Session:
    """A task's run while this server holds it."""

    task_id: str
    lock: threading.Lock = field(default_factory=threading.Lock)  # one step of a task at a time
    driver: RunDriver | None = None
    run_lock: FileLock | None = None
    used: float = field(default_factory=time.monotonic)

    @property
    def pause(self) -> Pause | None:
        """Where the run waits for the client, when it is under way."""
        driver = self.driver
        if driver is None or driver.waiting_for is None or driver.waiting_for.kind == "end":
            return None
        return driver.waiting_for

    def hold(self, folder: Path) -> None:
        """Take the task's run lock (kept until `end`); TaskBusy when another server holds it."""
        if self.run_lock is not None and self.run_lock.is_locked:
            return
        lock = FileLock(folder / RUN_LOCK, timeout=0, mode=0o600, thread_local=False)
        try:
            lock.acquire()
        except Timeout:
            raise TaskBusy(f"task {self.task_id} is being run by another autoagent serve process on this "
                           "$AUTOAGENT_HOME; step it there, or here once that server has stopped") from None
        self.run_lock = lock

    def end(self) -> None:
        """Close the run (a paused one ends as interrupted, resumable from its transcript) and let go of its lock."""
        driver, self.driver = self.driver, None
        if driver is not None:
            driver.stop()  # a paused run: ended and waited for
            if driver.thread is not None and driver.waiting_for is not None and driver.waiting_for.kind == "end":
                driver.thread.join(timeout=30)  # a run that just ended lets go of its transcript
        if self.run_lock is not None:
            self.run_lock.release()
            self.run_lock = None


class Sessions:
    """Every task's session; at most `limit` of them hold a live run."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def get(self, task_id: str) -> Session:
        """The task's session (made on first use)."""
        with self._lock:
            session = self._sessions.setdefault(task_id, Session(task_id))
            session.used = time.monotonic()
            return session

    def live(self) -> int:
        """How many runs are held now."""
        with self._lock:
            return sum(session.driver is not None for session in self._sessions.values())

    def make_room(self, keep: Session) -> None:
        """Close idle runs, least recently used first, until `keep` may start one; TooManyLiveTasks if none is idle."""
        while True:
            with self._lock:
                live = [session for session in self._sessions.values()
                        if session.driver is not None and session is not keep]
                if len(live) < self.limit:
                    return
                idle = [session for session in sorted(live, key=lambda held: held.used)
                        if session.lock.acquire(blocking=False)]
                for spared in idle[1:]:
                    spared.lock.release()
            if not idle:
                raise TooManyLiveTasks(f"{len(live)} tasks are in the middle of a step (this server holds at most "
                                       f"{self.limit} live; --max-live-tasks); try again shortly")
            oldest = idle[0]
            try:
                oldest.end()
            finally:
                oldest.lock.release()

    def close(self) -> None:
        """End every live run (the server stops)."""
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            session.end()
