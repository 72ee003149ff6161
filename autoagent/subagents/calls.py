"""The call stack of agents: the runs whose tools are running now, so that a sub-agent inherits its caller's
budget, approvals and observers, and no agent is called while it is already running above."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..events import RunObserver
    from ..loop.budget import Spending
    from ..loop.lifecycle import Agent

MAX_DEPTH = 3  # sub-agents nest at most this many levels below the agent given the task


@dataclass(frozen=True)
class Caller:
    """A run whose tools are running now: its agent, the agent's name, the run's observers and spending, and the
    run that called it (None: this is the agent given the task)."""

    agent: Agent
    name: str
    events: RunObserver
    spending: Spending
    above: Caller | None = None

    @property
    def depth(self) -> int:
        """0 for the agent given the task, 1 for an agent it called, and so on."""
        return 0 if self.above is None else self.above.depth + 1

    def chain(self) -> list[Caller]:
        """The runs from the agent given the task down to this one."""
        return [*(self.above.chain() if self.above else []), self]


_CALLER: ContextVar[Caller | None] = ContextVar("autoagent_caller", default=None)


def current_caller() -> Caller | None:
    """The run whose tool is running now, if any."""
    return _CALLER.get()


@contextlib.contextmanager
def calling(caller: Caller) -> Iterator[None]:
    """`caller` is the run whose tools run within."""
    token = _CALLER.set(caller)
    try:
        yield
    finally:
        _CALLER.reset(token)
