"""Where a batch's tasks run: in this process, on a local process pool, or on a Ray cluster; each runner yields
the result records as the tasks finish, in whatever order they finish, until the batch is asked to stop (Ctrl-C,
SIGTERM: stopping.py), and `stop()` ends the tasks under way, yielding the records of those that still end within a
grace period."""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..errors import ConfigurationError
from ..llm.local import THREADS_VARIABLE
from .orphans import job_interruptible, start_pool_worker
from .stopping import POLL_SECONDS, StopRequest
from .worker import NOT_SETTLED, Job, bare_record, run_job

RAY_MISSING = "--ray needs Ray, which is not installed: pip install 'autoagent[ray]' (or pip install ray)"
STOP_GRACE_SECONDS = 10.0  # how long a stopped batch waits for its interrupted tasks before killing their workers
QUEUED_PER_WORKER = 2  # jobs handed to the pool at a time, per worker: one running, one ready


def failed(job: Job, err: BaseException) -> dict[str, Any]:
    """The record of a task whose worker died or could not be reached (the task runs again on a re-run)."""
    record = bare_record(job, "error", f"the worker running it failed: {type(err).__name__}: {err}")
    record.update(wall_seconds=0.0, warnings=[])
    return record


def share_cores(workers: int) -> None:
    """In a pool worker: the embedded model takes this worker's share of the cores (llama.cpp's spinning threads
    slow to a crawl when they outnumber the cores), unless AUTOAGENT_THREADS already says how many."""
    os.environ.setdefault(THREADS_VARIABLE, str(max(1, (os.cpu_count() or 1) // workers)))


def _start_worker(workers: int, parent: int, stopping: Any) -> None:
    share_cores(workers)
    start_pool_worker(parent, stopping)


def _pool_job(job: Job) -> dict[str, Any]:
    """`run_job` in a pool worker: interruptible by the batch while it runs; a job the stopped batch had already
    queued does not start."""
    try:
        with job_interruptible() as stopped:
            return bare_record(job, NOT_SETTLED, "") if stopped else run_job(job)
    except KeyboardInterrupt:  # a repeated interrupt, while the job was already unwinding from the first
        return bare_record(job, NOT_SETTLED, "")


class LocalPool:
    """`workers` processes on this machine (spawned, not forked: llama.cpp and threads do not survive a fork);
    one worker runs in this process. The workers end with the batch, however it ends (see orphans.py)."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        self._pool: ProcessPoolExecutor | None = None
        self._futures: dict[Future[dict[str, Any]], Job] = {}
        self._stopping: Any = None

    def results(self, jobs: Iterable[Job], stop: StopRequest) -> Generator[dict[str, Any], None, None]:
        """Each job's result record as it finishes, until `stop` is requested; a job is taken from `jobs` (made) only
        as a worker will soon be free for it, so a batch of 100,000 tasks starts at once and holds a few jobs."""
        if self.slots == 1:
            for job in jobs:
                if stop.requested.is_set():
                    return
                try:
                    with stop.job():  # Ctrl-C interrupts it here, as it would a run
                        record = run_job(job)
                except KeyboardInterrupt:  # one that came as it was ending
                    record = bare_record(job, NOT_SETTLED, "")
                yield record
            return
        context = multiprocessing.get_context("spawn")
        self._stopping = context.Event()
        self._pool = ProcessPoolExecutor(max_workers=self.slots, mp_context=context, initializer=_start_worker,
                                         initargs=(self.slots, os.getpid(), self._stopping))
        queued = iter(jobs)
        for job in itertools.islice(queued, QUEUED_PER_WORKER * self.slots):
            self._futures[self._pool.submit(_pool_job, job)] = job
        while self._futures and not stop.requested.is_set():
            done, _ = wait(self._futures, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                yield self._record(future)
                del self._futures[future]
                for job in itertools.islice(queued, 1):  # the next one takes the place of the one that ended
                    self._futures[self._pool.submit(_pool_job, job)] = job
        if not stop.requested.is_set():
            self._pool.shutdown(wait=True)

    def stop(self, hurried: threading.Event | None = None,
             grace: float = STOP_GRACE_SECONDS) -> Iterator[dict[str, Any]]:
        """No task starts any more and those running are interrupted; the records of those that end within `grace`
        seconds (or until `hurried` is set), then any worker still running is killed."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((pool._processes or {}).values())  # the executor offers no other handle
        self._stopping.set()
        pool.shutdown(wait=False, cancel_futures=True)
        pending = {future for future in self._futures if not future.done()}
        deadline = time.monotonic() + grace
        try:
            while pending and time.monotonic() < deadline and not (hurried is not None and hurried.is_set()):
                for process in processes:  # again each second: a client library may swallow one KeyboardInterrupt
                    if process.pid is not None and process.is_alive():
                        os.kill(process.pid, signal.SIGINT)
                done, _ = wait(pending, timeout=min(POLL_SECONDS * 5, max(0.0, deadline - time.monotonic())),
                               return_when=FIRST_COMPLETED)
                yield from (self._record(future) for future in done if not future.cancelled())
                # done() and not wait(): a queued job the shutdown cancelled is never reported done by wait()
                pending = {future for future in pending if not future.done()}
        finally:  # past the grace period, or a second Ctrl-C: no worker outlives the batch
            for process in processes:
                if process.is_alive():
                    process.kill()
            for process in processes:
                process.join(timeout=5)

    def _record(self, future: Future[dict[str, Any]]) -> dict[str, Any]:
        error = future.exception()
        return failed(self._futures[future], error) if error is not None else future.result()


class RayPool:
    """One Ray task per agent task on the cluster at `address` (empty: a local Ray instance, or the cluster
    RAY_ADDRESS names); `workers`, when given, is the CPU count of a local instance."""

    def __init__(self, address: str, workers: int | None) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigurationError(RAY_MISSING) from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            local: dict[str, Any] = {"num_cpus": workers, "include_dashboard": False} if not address else {}
            ray.init(address=address or None, log_to_driver=False, logging_level=logging.ERROR, **local)
        self.slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._pending: dict[Any, Job] = {}

    def results(self, jobs: Iterable[Job], stop: StopRequest) -> Generator[dict[str, Any], None, None]:
        """Each job's result record as its Ray task finishes, until `stop` is requested; a few jobs per CPU are out
        at a time."""
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=0)(run_job)
        queued = iter(jobs)
        self._pending = pending = {remote.remote(job): job
                                   for job in itertools.islice(queued, QUEUED_PER_WORKER * self.slots)}
        while pending:
            if stop.requested.is_set():
                return
            done, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
            for ref in done:
                yield self._record(ref)
                pending.update({remote.remote(job): job for job in itertools.islice(queued, 1)})
        self._shutdown()

    def stop(self, hurried: threading.Event | None = None,
             grace: float = STOP_GRACE_SECONDS) -> Iterator[dict[str, Any]]:
        """Interrupt every task under way (a KeyboardInterrupt in its worker) and cancel the queued ones; the records
        of those that end within `grace` seconds (or until `hurried` is set), then the rest are killed."""
        ray, pending = self.ray, self._pending
        deadline = time.monotonic() + grace
        try:
            for ref in pending:
                ray.cancel(ref, force=False)
            while pending and time.monotonic() < deadline and not (hurried is not None and hurried.is_set()):
                done, _ = ray.wait(list(pending), num_returns=1, timeout=min(1.0, deadline - time.monotonic()))
                for ref in done:
                    yield self._record(ref)
        finally:
            for ref in list(pending):
                ray.cancel(ref, force=True)
            self._shutdown()

    def _record(self, ref: Any) -> dict[str, Any]:
        job = self._pending.pop(ref)
        try:
            record: dict[str, Any] = self.ray.get(ref)
            return record
        except self.ray.exceptions.TaskCancelledError:
            return bare_record(job, NOT_SETTLED, "")
        except Exception as err:  # the worker died, or the node went away
            return failed(job, err)

    def _shutdown(self) -> None:
        self._pending = {}
        if self.started:
            self.started = False
            self.ray.shutdown()
