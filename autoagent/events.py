"""What a run tells the outside while it works: a display, a transcript or a UI subscribes to these."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .reply import Action, ThoughtAndAction
    from .steps import RunResult, Step


class RunObserver:
    """Receives a run's events in order; override the ones you need (each does nothing by default).

    start → (thinking → [tool start] → step)* → finishing → answer → [remembering] → end, with warnings
    anywhere between; a run that fails or is interrupted goes from where it was to [remembering] and end.
    Plan mode: start → thinking → plan → (tool start → step)* → end.
    Observers must not raise: an observer's failure is our bug, and it would stop the run.
    """

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        """A run begins (`run.steps` already holds the steps of a resumed run)."""

    def on_thinking(self, number: int, max_steps: int) -> None:
        """The model is about to be called for step `number`."""

    def on_plan(self, plan: list[str]) -> None:
        """Plan mode only: the tool chain the model planned, before it runs."""

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        """The model's reply was read and its tool is about to run (and may ask for approval first);
        `decision` holds the thought behind it, when there is one."""

    def on_step(self, step: Step) -> None:
        """A step is complete: thought, action and observation."""

    def on_warning(self, message: str) -> None:
        """Something the user should know now (a budget at 80%, a retry)."""

    def on_finishing(self, run: RunResult) -> None:
        """The steps are over (`run.stop_reason` says why); the final answer is being made, maybe by the model."""

    def on_answer(self, run: RunResult) -> None:
        """`run.answer` holds the final answer (maybe empty); what follows is bookkeeping."""

    def on_remembering(self, run: RunResult) -> None:
        """The run is being summarised into long-term memory (a model call)."""

    def on_run_end(self, run: RunResult) -> None:
        """The run ended (finished, stopped or interrupted); `run` holds the answer and usage."""

    def nested(self, agent: str, depth: int) -> RunObserver | None:
        """The observer of a sub-agent's run, called as `agent` at `depth` (1: by the top agent) while a step of
        this run waits on it; None (the default) hears none of it (the step's `sub_run` keeps it whole)."""
        return None


class Broadcast(RunObserver):
    """Forwards every event to several observers, in order."""

    def __init__(self, observers: Sequence[RunObserver] = ()) -> None:
        self.observers = list(observers)

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        for observer in self.observers:
            observer.on_run_start(run, max_steps)

    def on_thinking(self, number: int, max_steps: int) -> None:
        for observer in self.observers:
            observer.on_thinking(number, max_steps)

    def on_plan(self, plan: list[str]) -> None:
        for observer in self.observers:
            observer.on_plan(plan)

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        for observer in self.observers:
            observer.on_tool_start(action, decision)

    def on_step(self, step: Step) -> None:
        for observer in self.observers:
            observer.on_step(step)

    def on_warning(self, message: str) -> None:
        if not self.observers:  # nobody to tell: the log still says it
            logging.getLogger("autoagent").warning(message)
        for observer in self.observers:
            observer.on_warning(message)

    def on_finishing(self, run: RunResult) -> None:
        for observer in self.observers:
            observer.on_finishing(run)

    def on_answer(self, run: RunResult) -> None:
        for observer in self.observers:
            observer.on_answer(run)

    def on_remembering(self, run: RunResult) -> None:
        for observer in self.observers:
            observer.on_remembering(run)

    def on_run_end(self, run: RunResult) -> None:
        for observer in self.observers:
            observer.on_run_end(run)

    def nested(self, agent: str, depth: int) -> Broadcast:
        """Every observer's observer of the sub-agent's run (those that hear one)."""
        heard = [observer.nested(agent, depth) for observer in self.observers]
        return Broadcast([observer for observer in heard if observer is not None])


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
