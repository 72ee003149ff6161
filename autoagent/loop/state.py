"""One run's working parts and where it stands: its record, the model's view of it, the meter and the budget, the
advisors, and the calls a reply made that are still to be taken."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..advice import Advice, Advisor, TurnState
from ..events import RunObserver
from ..memory.short_term import ShortTermMemory
from ..reply import ThoughtAndAction
from ..steps import Ending, RunResult, Step, StepKind, StopReason
from .actor import Actor
from .budget import Spending
from .metering import Meter


@dataclass
class RunState:
    """A run in progress; `began` is where its own steps start in `result.steps` (after a resumed run's)."""

    result: RunResult
    events: RunObserver
    memory: ShortTermMemory
    meter: Meter
    spending: Spending
    long_term: str  # the memories of similar past tasks the prompt shows
    limit: int  # tokens a prompt may use
    advisors: list[Advisor]
    actor: Actor
    began: int = 0
    queued: list[ThoughtAndAction] = field(default_factory=list)  # the next calls of a reply that made several

    @property
    def steps(self) -> list[Step]:
        """The run's steps so far, a resumed run's first."""
        return self.result.steps

    def turn(self) -> TurnState:
        """Where the run stands as the next turn begins: a step of this run that repeated an action asks for a
        rethink."""
        own = self.steps[self.began:]
        return TurnState(self.result.task, self.steps, rethink=bool(own) and own[-1].kind is StepKind.REPEATED)

    def advice(self, turn: TurnState) -> Advice:
        """What every advisor adds to this turn, in order."""
        advice = Advice()
        for advisor in self.advisors:
            advice = advice.then(advisor.before_model(turn))
        return advice

    def failures(self) -> int:
        """Unreadable replies in a row, at the end of this run's own steps."""
        count = 0
        for step in reversed(self.steps[self.began:]):
            if step.kind is not StepKind.PARSE_ERROR:
                break
            count += 1
        return count

    def record(self, step: Step) -> None:
        """Take a step in: the record, the model's view, the loop guard, and whoever listens."""
        self.steps.append(step)
        self.memory.add(step)
        self.actor.loops.record([step])
        self.events.on_step(step)

    def ending(self, max_parse_retries: int) -> Ending | None:
        """How the run ends now that no step ended it: too many unreadable replies, or a spent budget (its own or
        a caller's); None: it goes on."""
        if self.failures() > max_parse_retries:
            return Ending(StopReason.UNPARSEABLE)
        warnings, spent = self.spending.check()
        for warning in warnings:
            self.events.on_warning(warning)
        return Ending(StopReason.BUDGET, spent) if spent else None
