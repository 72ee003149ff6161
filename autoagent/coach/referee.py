"""The referee of one run: a finish is accepted only when earned, and an action that would undo the task is
questioned; each objection it makes, the leader (leads.py) may follow to lead the next step."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..loop.answers import answer_from_observations
from ..prompts import PromptTemplateBuilder
from ..reply import Action, ThoughtAndAction
from ..steps import Step, StepKind, StopReason
from .chosen import object_to_chosen
from .claims import object_to_claims
from .days import answer_for_day, day_asked, reading
from .rules import UNIT_RULES, Rule
from .tally import counted, states_count
from .unfinished import unfinished_plan
from .units import object_to_units
from .verify import (
    Objection,
    claimed_calculation,
    object_to_answer,
    object_to_finish,
    pending_mentions,
)
from .writes import (
    object_to_copied_fence,
    object_to_copied_note,
    object_to_folder_as_file,
    object_to_no_change,
    object_to_rewrite,
    object_to_unworked_write,
)

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")  # a result that is one number
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}(?:T[\d:]+)? \(\w+\)")  # a date tool's result: "2026-12-06 (Sunday)"


def answers_itself(result: str) -> bool:
    """Whether a tool's result answers a question by itself: one number, or a day as the calendar gives it."""
    result = result.strip()
    return bool(_NUMBER.fullmatch(result) or _DATED.fullmatch(result))


class Referee:
    """Keeps what one run was told (each objection once), over the run's steps."""

    def __init__(self, prompts: PromptTemplateBuilder, tools: Sequence[str] = (), writers: Sequence[str] = (),
                 calculator: str = "", calendar: str = "", workspace: Path | None = None) -> None:
        self.prompts = prompts
        self.tools = tuple(tools)  # the toolbox's tool names
        self.writers = tuple(writers)  # the tools that change something (not read-only)
        self.calculator = calculator  # the tool that works out arithmetic, or empty where the toolbox has none
        self.calendar = calendar  # the tool that reads a day in words ("two weeks from today"), or empty
        self.workspace = workspace  # the folder the tools work in, where one is declared: what an answer says of it
        self.raised: set[Rule] = set()  # the objections already made this run
        self.checked = False  # a drafted answer's own arithmetic was checked with a tool (once a run)
        self.converted = False  # the arithmetic the request's units give was worked out with a tool (once a run)
        # what a changing call observes when the user refuses it (only such a call asks), and the start of a
        # refusal with the user's words
        self.refusals = {prompts.render("approval_denied").strip(),
                         *(prompts.render("approval_no_terminal", tool=name).strip() for name in self.writers)}
        self.refused_with = prompts.render("approval_feedback", feedback="\0").split("\0")[0]

    def pending(self, task: str, steps: Sequence[Step]) -> tuple[str, ...]:
        """What the task gives that no successful step has used yet (once a tool has worked)."""
        return pending_mentions(task, steps)

    def review_finish(
        self, task: str, long_term_memory: str, steps: Sequence[Step], draft: Callable[[], str]
    ) -> tuple[Objection | None, str]:
        """An objection to finishing now, or None and the drafted final answer, which must rest on the results."""
        # a day the question counts from today, which no call read: the agent reads it first, whatever else is amiss
        objection = self._object_to_unread_day(task, steps) or object_to_finish(task, steps, self.raised)
        if objection is None and not any(self._refused(step) for step in steps):  # the user said no: not again
            objection = object_to_no_change(task, steps, self.writers, self.raised)
        objection = objection or self._object_to_unfinished_plan(steps)
        answer = self._answer_for_count(answer_for_day(draft(), task, steps), task, steps) \
            if objection is None else ""
        objection = objection or object_to_answer(answer, f"{task}\n{long_term_memory}", steps, self.raised)
        objection = objection or object_to_units(answer, task, self.raised)
        objection = objection or object_to_claims(answer, task, steps, self.workspace, self.writers, self.raised)
        objection = objection or object_to_chosen(task, steps, self.writers)
        result = answer_from_observations(steps)
        plain = answers_itself(result) and object_to_units(result, task, ()) is None
        if objection is not None and objection.rule in (Rule.UNGROUNDED_ANSWER, *UNIT_RULES) \
                and objection.ends is StopReason.UNVERIFIED and plain:
            # the finish prompt miswrote a tool's number or date twice ("759.5" for 754.5), or wrote another result
            # than the last, which fits the units: that result
            return None, result
        if objection is not None:
            self.raised.add(objection.rule)
        return objection, answer

    def _answer_for_count(self, answer: str, task: str, steps: Sequence[Step]) -> str:
        """`answer`, when it states how many files of the kind asked about a listing of the workspace shows (or
        none was listed); else that count, with their names ("There are 2 .txt files: one.txt, two.txt.")."""
        count = counted(task, steps)
        if count is None or states_count(answer, count.count):
            return answer
        return self.prompts.render("count_answer", count=str(count.count), ending=count.ending,
                                   names=", ".join(count.names) or "none").strip()

    def _object_to_unfinished_plan(self, steps: Sequence[Step]) -> Objection | None:
        """Why finishing now is not earned: the model's own thought planned one more operation with a number no
        call took ("... and then divide by 3"). Said once a run; the leader leads the next step to that part."""
        plan = unfinished_plan(steps) if Rule.UNFINISHED_PLAN not in self.raised else None
        if plan is None:
            return None
        number, clause, taken = plan
        return Objection(Rule.UNFINISHED_PLAN, {"number": str(number), "clause": clause, "taken": taken})

    def _object_to_unread_day(self, task: str, steps: Sequence[Step]) -> Objection | None:
        """Why finishing now is not earned: the request asks about a day it counts from today, and no call read
        its words as they stand ("now() - INTERVAL 2 WEEKS" for "two weeks from today"). Once a run; the agent
        then reads them with the calendar itself (see `calculation_to_check`)."""
        day = day_asked(task) if self.calendar and Rule.DAY_CHECK not in self.raised else ""
        if not day or reading(day, steps) is not None:
            return None
        return Objection(Rule.DAY_CHECK, {"day": day})

    def _refused(self, step: Step) -> bool:
        """Whether the user refused to let `step`'s action run (its approval was denied)."""
        if step.kind is not StepKind.ACTION or step.success or step.action is None:
            return False
        return step.observation in self.refusals or step.observation.startswith(self.refused_with)

    def calculation_to_check(self, objection: Objection | None, answer: str) -> tuple[str, str, str] | None:
        """The tool, the value and the thought of a step the agent takes itself to check what a finish rests on
        (once a run each): the calculator works out the arithmetic a drafted answer works out in its own words
        ("12 + 30 + 58 = 110"), when it was sent back for a number no tool showed (the objection then counts as
        not yet made, so the next draft, from the tool's result, is judged afresh); and the arithmetic the
        request's units give ("9 * 86400" for the seconds in 9 days), when the answer did not fit them (a second
        answer that does not is not taken); the calendar reads the day a question counts from today, when no
        call read it."""
        if objection is None or objection.ends:
            return None
        if objection.rule is Rule.DAY_CHECK and self.calendar:
            return self.calendar, objection.variables["day"], self.prompts.render("check_day", **objection.variables)
        if not self.calculator:
            return None
        if objection.rule in UNIT_RULES and objection.variables["expression"] and not self.converted:
            self.converted = True
            thought = self.prompts.render(objection.variables["check"], **objection.variables)
            return self.calculator, objection.variables["expression"], thought
        if objection.rule is not Rule.UNGROUNDED_ANSWER or self.checked:
            return None
        expression = claimed_calculation(answer)
        if expression is None:
            return None
        self.checked = True
        self.raised.discard(objection.rule)
        return self.calculator, expression, self.prompts.render("check_calculation", expression=expression)

    def review_action(self, task: str, action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
        """An objection to running `action` (the framing a file's content was quoted in, or a note this run was
        given, written into a file, a rewrite of a file this run just wrote, a calculation written instead of its
        result, a folder the request names written as a file), or None."""
        objection = object_to_copied_fence(action, steps, writes) \
            or object_to_copied_note(action, steps, writes, task) or object_to_rewrite(action, steps, writes)
        for template, check in (("unworked_write", lambda: object_to_unworked_write(action, steps, writes)),
                                ("folder_as_file", lambda: object_to_folder_as_file(action, task, writes))):
            if objection is None and template not in self.raised:  # once a run each: the model may mean it
                objection = check()
                if objection is not None:
                    self.raised.add(objection.rule)
        return objection

    def rejected(self, number: int, reply: str, decision: ThoughtAndAction, objection: Objection) -> Step:
        """A step whose action was not taken, with the note the model reads about why."""
        note = self.prompts.render(objection.template, **objection.variables).strip()
        return Step(number, StepKind.REJECTED, reply, decision, note, success=False)
