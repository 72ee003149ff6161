"""Retrying a call that failed for a passing reason: a rate limit, a server error, a timeout, a dropped connection."""

from __future__ import annotations

import logging
import os
import random
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import TypeVar

logger = logging.getLogger("autoagent")

T = TypeVar("T")

BASE_DELAY_ENV = "AUTOAGENT_RETRY_BASE_DELAY"
DEFAULT_BASE_DELAY = 1.0
# Lazily checked: an exception of a module nobody imported cannot be raised, so sys.modules is enough.
_TRANSIENT_CLASSES = {
    "openai": ("APIConnectionError",),  # its timeouts and refused connections are told apart first
    "httpx": ("TransportError",),
    "httpx2": ("TransportError",),
    "langchain_core.exceptions": ("ModelRateLimitError", "ModelAPIError", "ModelConnectionError", "ModelTimeoutError"),
}


def _base_delay_from_environment() -> float:
    """$AUTOAGENT_RETRY_BASE_DELAY in seconds (tests make it small), else 1 s."""
    text = os.environ.get(BASE_DELAY_ENV, "").strip()
    try:
        return max(0.0, float(text)) if text else DEFAULT_BASE_DELAY
    except ValueError:
        logger.warning("%s=%r is not a number of seconds; using %s", BASE_DELAY_ENV, text, DEFAULT_BASE_DELAY)
        return DEFAULT_BASE_DELAY


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry: `attempts` calls in all, waits doubling from `base_delay` up to
    `max_delay` (None: $AUTOAGENT_RETRY_BASE_DELAY, else 1 s), each stretched by up to `jitter` of itself."""

    attempts: int = 4
    base_delay: float | None = None
    max_delay: float = 20.0
    jitter: float = 0.1
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a retry policy needs at least one attempt")

    def delay(self, failed_attempt: int, err: BaseException | None = None) -> float:
        """Seconds to wait after attempt `failed_attempt` (1-based) failed: the server's Retry-After, else backoff."""
        asked = retry_after(err) if err is not None else None
        if asked is not None:
            return min(asked, self.max_delay)
        base = self.base_delay if self.base_delay is not None else _base_delay_from_environment()
        backoff = min(base * 2 ** (failed_attempt - 1), self.max_delay)
        return min(backoff * (1 + random.uniform(0, self.jitter)), self.max_delay)


DEFAULT_RETRY = RetryPolicy()
NO_RETRY = RetryPolicy(attempts=1)


class RetriesExhaustedError(Exception):
    """Every attempt failed for a passing reason; `error` is the last failure."""

    def __init__(self, error: Exception, attempts: int, seconds: float) -> None:
        super().__init__(f"{failure_reason(error)} ({attempts} attempts over {seconds:.1f} s)")
        self.error, self.attempts, self.seconds = error, attempts, seconds


def status_code(err: BaseException) -> int | None:
    """The HTTP status an API error carries, if any."""
    status = getattr(err, "status_code", None)
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def is_retryable(err: BaseException) -> bool:
    """True for failures that may pass: HTTP 408, 429 and 5xx, dropped and reset connections; never for a refused
    key (401/403), a bad request (400/422) or an unknown model (404), nor for a server that is not there (a
    refused connection, an unknown host: retrying only delays saying so) or a request that timed out (the server
    may still be working on it, and a second copy would queue behind the first)."""
    status = status_code(err)
    if status is not None:
        return status in (408, 429) or status >= 500
    if is_unreachable(err) or is_timeout(err):
        return False
    if isinstance(err, ConnectionError):
        return True
    for module_name, class_names in _TRANSIENT_CLASSES.items():
        module = sys.modules.get(module_name)
        for name in class_names:
            cls = getattr(module, name, None) if module is not None else None
            if isinstance(cls, type) and isinstance(err, cls):
                return True
    return False


def _causes(err: BaseException) -> list[BaseException]:
    """The error and the errors it was raised from, outermost first."""
    chain: list[BaseException] = []
    current: BaseException | None = err
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def is_unreachable(err: BaseException) -> bool:
    """True when nothing could be reached: the connection was refused or the host name is unknown."""
    return any(isinstance(cause, (ConnectionRefusedError, socket.gaierror)) for cause in _causes(err))


def is_timeout(err: BaseException) -> bool:
    """True for a request (or a connection attempt) that timed out, in any SDK's wording."""
    return any(isinstance(cause, TimeoutError) or "Timeout" in type(cause).__name__ for cause in _causes(err))


def retry_after(err: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After-Ms or Retry-After, in seconds or an HTTP date), if any."""
    headers = getattr(getattr(err, "response", None), "headers", None)
    if headers is None:
        return None
    try:
        milliseconds = headers.get("retry-after-ms")
        if milliseconds is not None:
            return max(0.0, float(milliseconds) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def failure_reason(err: BaseException) -> str:
    """A few words for what went wrong: '429 Too Many Requests', 'timed out', 'ConnectionResetError: ...'."""
    status = status_code(err)
    if status is not None:
        return http_status(status)
    if is_timeout(err):
        return "timed out"
    if is_unreachable(err):
        return unreachable_reason(err)
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text[:80]}" if text else type(err).__name__


def unreachable_reason(err: BaseException) -> str:
    """'connection refused' or 'unknown host' for an unreachable server."""
    refused = any(isinstance(cause, ConnectionRefusedError) for cause in _causes(err))
    return "connection refused" if refused else "unknown host"


def http_status(status: int) -> str:
    """'500 Internal Server Error' for 500; the bare number for a status without a standard name."""
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)


def call_with_retries(
    fn: Callable[[], T], policy: RetryPolicy = DEFAULT_RETRY, on_retry: Callable[[str], None] | None = None
) -> T:
    """Call `fn` until it succeeds, retrying failures that may pass; `on_retry` hears one line before each wait.
    A failure that will not pass is raised at once; when the attempts run out, RetriesExhaustedError."""
    report = on_retry if on_retry is not None else logger.warning
    started = time.monotonic()
    for attempt in range(1, policy.attempts + 1):
        try:
            return fn()
        except Exception as err:
            if not is_retryable(err):
                raise
            if attempt == policy.attempts:
                raise RetriesExhaustedError(err, attempt, time.monotonic() - started) from err
            wait = policy.delay(attempt, err)
            report(
                f"model call failed ({failure_reason(err)}); retrying in {wait:.1f} s "
                f"(attempt {attempt + 1} of {policy.attempts})"
            )
            policy.sleep(wait)
    raise AssertionError("unreachable: a policy has at least one attempt")
