"""What a tool call did beside the text the model reads, for a tool that knows: the artifact of a tool of
response_format "content_and_artifact". The toolbox counts a call whose effects say it failed as a failed step,
and the step keeps the workspace files it changed (the python tool gives these for each program it runs).

A tool that can run without changing anything (metadata `"tries_read_only": True`: the python tool under bubblewrap,
with the workspace mounted read-only) is run that way first where its call would ask for approval: when the call
says it `needs_to_write`, the user is asked and it runs again with writes allowed; when not, nobody was asked. What
is asked about is what runs: a call that carries over what earlier calls left (the python tool's names) says so in
`also_shown`, which the question shows beside its arguments.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

_WRITES = ContextVar("workspace_writes", default=True)


class Session:
    """One run's tool calls, for a tool that keeps state between them (the python tool's names): the tool keys what
    it keeps on this object, and lets it go with it."""


_SESSION: ContextVar[Session | None] = ContextVar("tool_session", default=None)


def current_session() -> Session | None:
    """The run the running tool call belongs to; None: outside a run, or a call that must start afresh."""
    return _SESSION.get()


@contextmanager
def session(value: Session | None) -> Iterator[None]:
    """Within: tool calls belong to `value` (None: to no run, each starting afresh)."""
    token = _SESSION.set(value)
    try:
        yield
    finally:
        _SESSION.reset(token)


def writes_allowed() -> bool:
    """Whether the running tool call may change files (False within `read_only`)."""
    return _WRITES.get()


@contextmanager
def read_only() -> Iterator[None]:
    """Within: a tool that tries read-only runs that way, and says whether it needs to write."""
    token = _WRITES.set(False)
    try:
        yield
    finally:
        _WRITES.reset(token)


@dataclass(frozen=True)
class Effects:
    """Whether the call failed (a program that exited non-zero or ran out of time), and the workspace files it
    created, changed, moved or deleted (empty: it changed none; None: it cannot tell)."""

    failed: bool = False
    changed: tuple[str, ...] | None = None
    needs_to_write: bool = False  # a read-only run stopped where the call would change files
    also_shown: dict[str, str] = field(default_factory=dict)  # for the approval question, beside the arguments
