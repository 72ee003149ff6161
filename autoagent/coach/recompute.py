"""Self-consistency of a computation: an answer whose number a calculator call gave stands only when the model,
shown the task and the results of the other calls but not that calculation, writes a calculator input that comes to
the same number again (two are drawn, each at a temperature with its own seed; one must come to it, a majority of
three with the run's own). A value worked out with a wrong formula or from a wrongly read input is seldom worked out
the same way again; one the model knows how to work out mostly is. Nothing of the request is read: what is compared
is numbers."""

from __future__ import annotations

import json
import re

from ..checks import CheckContext, Verdict
from ..consistency import numbers, same_number
from ..reply import Action
from ..steps import ran
from ..tool_use.toolbox import Toolbox

SAMPLES = 2  # inputs drawn beside the run's own calculation: two of the three ways must come to the number
TOOL = "calculator"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NONE = "no number"  # an input the calculator could not work out


def computed(answer: str, context: CheckContext) -> list[str]:
    """The numbers `answer` states (beyond the request's own) that a successful calculator call of the run gave."""
    results = [number for step in ran(context.steps) if step.success and step.action is not None
               and step.action.name == TOOL for number in _NUMBER.findall(step.observation.replace(",", ""))]
    return [number for number in sorted(numbers(answer, context.task))
            if any(same_number(number, result) for result in results)]


def input_of(reply: str, argument: str) -> str:
    """The calculator input a reply gives: its first line that is not a code fence, without backticks, the value of
    `argument` where the reply is a JSON object, what stands left of an "=" ("12 * 3 = 36" gives "12 * 3"), and the
    signs for times and divided by as the calculator writes them."""
    lines = [line.strip().strip("`") for line in reply.strip().splitlines() if not line.strip().startswith("```")]
    text = next((line for line in lines if line), "")
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        text = str(value.get(argument, next(iter(value.values()), "")))
    return text.split("=")[0].replace("\u00d7", "*").replace("\u00f7", "/").strip()


def recompute_verdict(context: CheckContext, toolbox: Toolbox, answer: str, samples: int = SAMPLES) -> Verdict | None:
    """None when `answer` states no number a calculator call gave, or one of the inputs drawn anew (`samples` of
    them) comes to one of those numbers (up to the answer's rounding), or none came to a number (nothing to compare);
    else a stop (unverified), the numbers the inputs came to in its note."""
    if TOOL not in toolbox.tools:
        return None
    stated = computed(answer, context)
    if not stated:
        return None
    argument = next(iter(toolbox.args_schema(TOOL).get("properties", {})), "expression")
    came_to = []
    for drawn in context.inputs(TOOL, samples):
        expression = input_of(drawn, argument)
        result = toolbox.run(Action(name=TOOL, args={argument: expression})) if expression else None
        value = _NUMBER.search(result.content.replace(",", "")) if result is not None and result.success else None
        came_to.append(value.group(0) if value else _NONE)
    if all(value == _NONE for value in came_to) or any(same_number(number, value) for number in stated
                                                       for value in came_to if value != _NONE):
        return None  # no input came to a number (nothing to compare), or one came to the answer's number
    return Verdict.stop(f"worked out again from the same inputs, the {TOOL} came to {' | '.join(came_to)}, "
                        f"not {', '.join(stated)}")
