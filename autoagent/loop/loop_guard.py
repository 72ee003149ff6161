"""Loop detection over a window of recent actions, independent of what the prompt still shows."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..reply import Action
from ..steps import Step, StepKind

LOOKBACK = 8  # actions looked back over: enough to see A B A B and a repeat several steps apart


@dataclass(frozen=True)
class Loop:
    """The model is going round in circles: `earlier` is the step whose action it repeats."""

    earlier: Step
    stop: bool  # a rethink was already forced and did not help


class LoopGuard:
    """Remembers the last actions; a repeat forces a rethink, a repeat after a rethink stops the run."""

    def __init__(self, lookback: int = LOOKBACK) -> None:
        self._recent: deque[tuple[str, Step]] = deque(maxlen=lookback)  # (action signature, step)
        self._flagged: set[str] = set()  # signatures the model was already told it repeats

    def record(self, steps: Iterable[Step]) -> None:
        """Take steps in (the loop's own, or a resumed run's)."""
        for step in steps:
            if step.action is not None and step.kind in (StepKind.ACTION, StepKind.REPEATED):
                signature = step.action.signature()
                self._recent.append((signature, step))
                if step.kind is StepKind.REPEATED:
                    self._flagged.add(signature)

    def check(self, action: Action) -> Loop | None:
        """Whether `action` repeats one of the recent actions, and whether the run should stop for it. A call that
        failed is no repeat once another call has worked since: what it failed on may have changed (a file in the
        way deleted, a folder made)."""
        signature = action.signature()
        recent = list(self._recent)
        same = [step for index, (seen, step) in enumerate(recent) if seen == signature
                and (step.success or not any(later.kind is StepKind.ACTION and later.success
                                             for _, later in recent[index + 1:]))]
        if not same:
            return None
        ran = [step for step in same if step.kind is StepKind.ACTION]
        earlier = (ran or same)[-1]  # the step that ran it, whose observation the rethink note shows
        after_rethink = bool(self._recent) and self._recent[-1][1].kind is StepKind.REPEATED
        return Loop(earlier, stop=signature in self._flagged or after_rethink)



def insists(action: Action, earlier: Step, steps: Sequence[Step]) -> bool:
    """True when `action` is asked for a third time in a row (it ran once, then was not run again) and worked the
    first time: the model holds that result for its answer, so the repeat is taken as a finish, not a loop."""
    last = steps[-1] if steps else None
    return earlier.kind is StepKind.ACTION and earlier.success and last is not None \
        and last.kind is StepKind.REPEATED and last.action is not None \
        and last.action.signature() == action.signature() == earlier.action.signature()  # type: ignore[union-attr]


def last_failed(steps: Sequence[Step]) -> bool:
    """Whether the last step's call failed: it ran and failed, or it was a repeat, not run again, of a call whose
    latest run failed (the model is told to fix the call, not that the task may be done)."""
    last = steps[-1] if steps else None
    if last is None or last.action is None:
        return False
    if last.kind is not StepKind.REPEATED:
        return failed(last)
    signature = last.action.signature()
    earlier = next((step for step in reversed(steps[:-1]) if step.kind is StepKind.ACTION
                    and step.action is not None and step.action.signature() == signature), None)
    return earlier is not None and failed(earlier)


def failed(step: Step) -> bool:
    """Whether `step` ran a call, and the call failed."""
    return step.kind is StepKind.ACTION and not step.success
