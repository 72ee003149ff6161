"""Calling a function with a time limit: inline under an interval timer on the main thread (no thread to
start, and the call really stops), else on a daemon thread that is abandoned when it overruns."""

from __future__ import annotations

import _signal
import contextvars
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")
_POLL_SECONDS = 0.1  # how often a wait for a worker thread wakes, so Ctrl-C is felt at once


class TimeLimitExceeded(Exception):
    """The call ran past its limit; `stopped` says whether it was stopped or may still be running."""

    def __init__(self, stopped: bool) -> None:
        super().__init__("stopped" if stopped else "still running")
        self.stopped = stopped


class _Alarm(BaseException):
    """Raised inside the call by the timer; a BaseException, so the call's own `except Exception` lets it pass."""


def call_with_time_limit(call: Callable[[], _T], limit: float | None) -> _T:
    """`call()`, or TimeLimitExceeded after `limit` seconds (None: no limit); what it raises is raised."""
    if limit is None:
        return call()
    if _can_use_timer():
        return _call_under_timer(call, limit)
    return _call_on_thread(call, limit)


def _can_use_timer() -> bool:
    """On the main thread, where SIGALRM is free: nobody else's handler, and no timer already running."""
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN)
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )


def _raise_alarm(signum: int, frame: Any) -> None:
    raise _Alarm


def _call_under_timer(call: Callable[[], _T], limit: float) -> _T:
    # _signal's own function: signal.signal's conversion of the handler it returns to an enum costs 6 us a call
    previous = _signal.signal(signal.SIGALRM, _raise_alarm)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, limit)
            return call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Alarm:
        raise TimeLimitExceeded(stopped=True) from None
    finally:
        _signal.signal(signal.SIGALRM, previous)


def _call_on_thread(call: Callable[[], _T], limit: float) -> _T:
    outcome: list[tuple[bool, Any]] = []
    context = contextvars.copy_context()  # the caller's LangChain run context goes along

    def work() -> None:
        try:
            outcome.append((True, context.run(call)))
        except BaseException as err:  # everything goes back to the caller's thread
            outcome.append((False, err))

    # A daemon thread: a hung call must not keep the program from exiting (pool workers would).
    worker = threading.Thread(target=work, name="time-limited-call", daemon=True)
    deadline = time.monotonic() + limit
    worker.start()
    while worker.is_alive():  # short joins, so KeyboardInterrupt reaches this thread
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeLimitExceeded(stopped=False)
        worker.join(min(left, _POLL_SECONDS))
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value
