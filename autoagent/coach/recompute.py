"""Self-consistency of a computation: an answer whose number a calculator call gave stands only when the model,
shown the task and the results of the other calls but not that calculation, writes a calculator input that comes to
the same number again (two are drawn, each at a temperature with its own seed; one must come to it, a majority of
three with the run's own). A value worked out with a wrong formula or from a wrongly read input is seldom worked out
the same way again; one the model knows how to work out mostly is. Nothing of the request is read: what is compared
is numbers.

The same holds for the numbers a python program printed (`--protocol code`, or `--allow-python`): two programs are
written anew, without the run's own programs in sight, and run read-only (one that would change a file confirms
nothing); one of them must print every number the answer took from the run's programs."""

from __future__ import annotations

import json
import re

from ..acting.effects import session
from ..acting.toolbox import Toolbox
from ..checks import CheckContext, Verdict
from ..consistency import numbers, same_number
from ..protocols.code import FENCE
from ..protocols.code import TOOL as PROGRAM_TOOL
from ..reply import Action
from ..steps import ran
from .drafts import Drafts

SAMPLES = 2  # inputs drawn beside the run's own calculation: two of the three ways must come to the number
TOOL = "calculator"
PROGRAMS = PROGRAM_TOOL  # the tool whose programs are written again the same way
_NUMBER = re.compile(r"(?<!\d)-?\d+(?:\.\d+)?")  # "2027-02-18" holds 2027, 02 and 18, no negative numbers
_NONE = "no number"  # an input the calculator could not work out


def computed(answer: str, context: CheckContext, tool: str = TOOL) -> list[str]:
    """The numbers `answer` states (beyond the request's own) that a successful call of `tool` in the run gave."""
    results = [number for step in ran(context.steps) if step.success and step.action is not None
               and step.action.name == tool for number in _NUMBER.findall(step.observation.replace(",", ""))]
    return [number for number in sorted(numbers(answer, context.task))
            if any(_same(number, result) for result in results)]


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


def recompute_verdict(drafts: Drafts, toolbox: Toolbox, answer: str, samples: int = SAMPLES) -> Verdict | None:
    """None when `answer` states no number a calculator call gave, or one of the inputs drawn anew (`samples` of
    them) comes to one of those numbers (up to the answer's rounding), or none came to a number (nothing to compare);
    else a stop (unverified), the numbers the inputs came to in its note."""
    if TOOL not in toolbox.tools:
        return None
    stated = computed(answer, drafts.context)
    if not stated:
        return None
    argument = next(iter(toolbox.args_schema(TOOL).get("properties", {})), "expression")
    came_to = []
    for drawn in drafts.inputs(TOOL, samples):
        expression = input_of(drawn, argument)
        result = toolbox.run(Action(name=TOOL, args={argument: expression})) if expression else None
        value = _NUMBER.search(result.content.replace(",", "")) if result is not None and result.success else None
        came_to.append(value.group(0) if value else _NONE)
    if all(value == _NONE for value in came_to) or any(same_number(number, value) for number in stated
                                                       for value in came_to if value != _NONE):
        return None  # no input came to a number (nothing to compare), or one came to the answer's number
    return Verdict.stop(f"worked out again from the same inputs, the {TOOL} came to {' | '.join(came_to)}, "
                        f"not {', '.join(stated)}")


def program_of(reply: str) -> str:
    """The program a reply gives: its first fenced block, else the whole reply."""
    block = FENCE.search(reply)
    return (block["code"] if block else reply).strip()


def rerun_verdict(drafts: Drafts, toolbox: Toolbox, answer: str, samples: int = SAMPLES) -> Verdict | None:
    """None when `answer` states no number a python program of the run printed, or one of the programs drawn anew
    (`samples` of them, each run read-only) prints every such number (up to the answer's rounding), or none of them
    printed a number (nothing to compare); else a stop (unverified), what they printed in its note."""
    if PROGRAMS not in toolbox.tools:
        return None
    stated = computed(answer, drafts.context, PROGRAMS)
    if not stated:
        return None
    printed = []
    for drawn in drafts.inputs(PROGRAMS, samples):
        code = program_of(drawn)
        with session(None):  # afresh: without the names the run's programs left
            result = toolbox.run_read_only(Action(name=PROGRAMS, args={"code": code})) if code else None
        printed.append(_NUMBER.findall(result.content.replace(",", "")) if result is not None and result.success
                       else [])
    if not any(printed) or any(all(any(_same(number, value) for value in values) for number in stated)
                               for values in printed):
        return None
    shown = " | ".join(" ".join(values[:6]) or _NONE for values in printed)
    return Verdict.stop(f"programs written again printed {shown}, not {', '.join(stated)}")


def _same(stated: str, printed: str) -> bool:
    """A stated number is one a program printed: the same, rounded from it, or apart by a float's noise alone
    (280 and 280.00000000000006)."""
    return same_number(stated, printed) or abs(float(stated) - float(printed)) <= 1e-9 * max(1.0, abs(float(printed)))
