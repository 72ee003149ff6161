"""The referee of one run: a finish is accepted only when earned, and a task in parts is led to its next part."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..prompts import PromptTemplateBuilder
from ..protocols import Turn
from ..reply import Action, ThoughtAndAction
from ..steps import Step, StepKind
from .verify import (
    Objection,
    answer_from_observations,
    claimed_calculation,
    clause_of,
    object_to_answer,
    object_to_finish,
    object_to_rewrite,
    pending_mentions,
)

MAX_GUIDED_STEPS = 2  # a number or file name the task gives that no tool takes must not hold the run forever
PLAIN_RESULT_CHARS = 40  # a last result this short (and plain) is quoted in a guided thought


class Referee:
    """Keeps what one run was told (each objection once) and how often it was led, over the run's steps."""

    def __init__(self, prompts: PromptTemplateBuilder) -> None:
        self.prompts = prompts
        self.raised: set[str] = set()  # the objections already made this run
        self.guided = 0  # steps led to a pending part of the task
        self.checked = False  # a drafted answer's own arithmetic was checked with a tool (once a run)

    def pending(self, task: str, steps: Sequence[Step]) -> tuple[str, ...]:
        """What the task gives that no successful step has used yet (once a tool has worked)."""
        return pending_mentions(task, steps)

    def thought_start(self, turn: Turn, steps: Sequence[Step]) -> str:
        """How the next thought begins when the task still gives something to use: from the last result to what
        is left, so a small model does the next part instead of repeating the last one; empty when not leading."""
        if not turn.pending or turn.rethink or self.guided >= MAX_GUIDED_STEPS:
            return ""
        self.guided += 1
        clause = clause_of(turn.task, turn.pending[0])  # the words of the part to do, not only its number
        last = answer_from_observations(steps)
        if len(last) <= PLAIN_RESULT_CHARS and not any(char in last for char in '"\\\n'):
            return self.prompts.render("pending_thought", result=last, clause=clause).strip()
        return self.prompts.render("pending_thought_plain", clause=clause).strip()

    def review_finish(
        self, turn: Turn, steps: Sequence[Step], draft: Callable[[], str]
    ) -> tuple[Objection | None, str]:
        """An objection to finishing now, or None and the drafted final answer, which must rest on the results."""
        objection = object_to_finish(turn.task, steps, self.raised)
        answer = draft() if objection is None else ""
        objection = objection or object_to_answer(answer, f"{turn.task}\n{turn.long_term_memory}", steps, self.raised)
        if objection is not None:
            self.raised.add(objection.template)
        return objection, answer

    def calculation_to_check(self, objection: Objection | None, answer: str) -> str | None:
        """The arithmetic a drafted answer works out in its own words ("12 + 30 + 58 = 110"), when that answer was
        sent back for a number no tool showed: a tool works it out instead (once a run), and the objection counts
        as not yet made, so the next draft, from the tool's result, is judged afresh."""
        if objection is None or objection.template != "ungrounded_answer" or objection.ends or self.checked:
            return None
        expression = claimed_calculation(answer)
        if expression is not None:
            self.checked = True
            self.raised.discard(objection.template)
        return expression

    def review_action(self, action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
        """An objection to running `action` (a rewrite of a file this run just wrote), or None."""
        return object_to_rewrite(action, steps, writes)

    def rejected(self, number: int, reply: str, decision: ThoughtAndAction, objection: Objection) -> Step:
        """A step whose action was not taken, with the note the model reads about why."""
        note = self.prompts.render(objection.template, **objection.variables).strip()
        return Step(number, StepKind.REJECTED, reply, decision, note, success=False)
