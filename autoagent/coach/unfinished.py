"""What the model said it would do next: a thought that plans one more operation with a number ("add these numbers
together and then divide by 3") and a finish right after the first part leaves its own plan half done."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from ..steps import Step
from .verify import ran
from .words import one_of

# the part of a thought after "then" (or "after that", "然后", "接着": words.toml), up to the end of its sentence
_THEN = re.compile(rf"{one_of('plan.then')}\s*,?\s*([^.;!?\u3002\uff1b\uff01\uff1f]+)", re.I)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
CLAUSE_CHARS = 80


def unfinished_plan(steps: Sequence[Step]) -> tuple[int, str, str] | None:
    """The part of its own plan the model left undone, when it finishes: the thought of the last successful call
    says what comes next with a number no call has taken ("then divide by 3" after "12 + 18 + 27"). The step's
    number, that part in the thought's words, and the number; None when the plan holds no such part."""
    succeeded = [step for step in ran(steps) if step.success and step.action is not None and step.decision]
    if not succeeded:
        return None
    last = succeeded[-1]
    thought = last.decision.thought.text if last.decision else ""
    taken = " ".join(json.dumps(step.action.args) for step in succeeded if step.action is not None)
    shown = " ".join([taken, *(step.observation for step in succeeded)])
    for match in _THEN.finditer(thought):
        clause = " ".join(match.group(1).split())[:CLAUSE_CHARS]
        for number in _NUMBER.findall(clause):
            if not re.search(rf"(?<![\d.]){re.escape(number)}(?![\d.])", shown):
                return last.number, clause, number
    return None
