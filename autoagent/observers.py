"""Ready-made observers of a run: a function given every typed event (`agent.stream()`), the older `on_step=` and
`on_plan=` callbacks, and the plain step trace on stderr (`verbose=True`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from .events import RunObserver
from .run_events import RunEvent

if TYPE_CHECKING:
    from .steps import RunResult, Step


class FunctionObserver(RunObserver):
    """A function given every typed event, as it comes (`agent.stream()` reads a run through one); with
    `reply_text`, the reply's pieces too."""

    def __init__(self, function: Callable[[RunEvent], None], reply_text: bool = False) -> None:
        self.function = function
        self.wants_reply_text = reply_text

    def on_event(self, event: RunEvent) -> None:
        self.function(event)


class CallbackObserver(RunObserver):
    """Plain functions heard as observer events: what the agents' older `on_step=` and `on_plan=` keywords give."""

    def __init__(self, on_step: Callable[[Step], None] | None = None,
                 on_plan: Callable[[list[str]], None] | None = None) -> None:
        self.step_callback = on_step
        self.plan_callback = on_plan

    def on_plan(self, plan: list[str]) -> None:
        if self.plan_callback is not None:
            self.plan_callback(plan)

    def on_step(self, step: Step) -> None:
        if self.step_callback is not None:
            self.step_callback(step)


class StepTrace(RunObserver):
    """The plain step trace on stderr: what `verbose=True` shows."""

    def __init__(self, max_steps: int, prefix: str = "", agent: str = "") -> None:
        self.max_steps = max_steps
        self.prefix = prefix  # a sub-agent's steps are indented under the step that called it
        self.agent = agent  # and named

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        self.max_steps = max_steps

    def on_plan(self, plan: list[str]) -> None:
        print(f"[plan] {' -> '.join(plan)}", file=sys.stderr, flush=True)
        self.max_steps = len(plan)  # a plan's steps are counted against the plan

    def on_step(self, step: Step) -> None:
        from .redact import redacted
        from .terminal.trace import format_step

        lines = redacted(format_step(step, self.max_steps)).splitlines()
        lines[0] = f"{self.agent} {lines[0]}" if self.agent else lines[0]
        print("\n".join(self.prefix + line for line in lines), file=sys.stderr, flush=True)

    def on_warning(self, message: str) -> None:
        from .redact import redacted
        from .text import escape_controls

        print(f"{self.prefix}warning: {escape_controls(redacted(message))}", file=sys.stderr, flush=True)

    def nested(self, agent: str, depth: int) -> StepTrace:
        return StepTrace(self.max_steps, prefix="  " * depth + "| ", agent=agent)
