"""Where a batch's tasks run: in this process, on a local process pool, or on a Ray cluster; each runner yields
the result records as the tasks finish, in whatever order they finish."""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any

from ..errors import ConfigurationError
from ..llm.local import THREADS_VARIABLE
from .worker import Job, bare_record, run_job

RAY_MISSING = "--ray needs Ray, which is not installed: pip install 'autoagent[ray]' (or pip install ray)"


def failed(job: Job, err: BaseException) -> dict[str, Any]:
    """The record of a task whose worker died or could not be reached (the task runs again on a re-run)."""
    record = bare_record(job, "error", f"the worker running it failed: {type(err).__name__}: {err}")
    record.update(wall_seconds=0.0, warnings=[])
    return record


def share_cores(workers: int) -> None:
    """In a pool worker: the embedded model takes this worker's share of the cores (llama.cpp's spinning threads
    slow to a crawl when they outnumber the cores), unless AUTOAGENT_THREADS already says how many."""
    os.environ.setdefault(THREADS_VARIABLE, str(max(1, (os.cpu_count() or 1) // workers)))


class LocalPool:
    """`workers` processes on this machine (spawned, not forked: llama.cpp and threads do not survive a fork);
    one worker runs in this process."""

    def __init__(self, workers: int) -> None:
        self.slots = workers

    def results(self, jobs: Sequence[Job]) -> Generator[dict[str, Any], None, None]:
        """Each job's result record as it finishes."""
        if self.slots == 1:
            for job in jobs:
                yield run_job(job)
            return
        pool = ProcessPoolExecutor(max_workers=self.slots, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=share_cores, initargs=(self.slots,))
        futures: dict[Future[dict[str, Any]], Job] = {}
        try:
            futures = {pool.submit(run_job, job): job for job in jobs}
            for future in as_completed(futures):
                error = future.exception()
                yield failed(futures[future], error) if error is not None else future.result()
        finally:  # done, Ctrl-C, or the caller stopped reading: queued tasks never start
            pool.shutdown(wait=True, cancel_futures=True)


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

    def results(self, jobs: Sequence[Job]) -> Generator[dict[str, Any], None, None]:
        """Each job's result record as its Ray task finishes."""
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=0)(run_job)
        pending = {remote.remote(job): job for job in jobs}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    job = pending.pop(ref)
                    try:
                        yield ray.get(ref)
                    except Exception as err:  # the worker died, or the node went away
                        yield failed(job, err)
        finally:
            for ref in pending:  # Ctrl-C, or the caller stopped reading
                ray.cancel(ref, force=True)
            if self.started:
                ray.shutdown()
