"""The referee of one run: a finish is accepted only when earned, and a task in parts is led to its next part."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..prompts import PromptTemplateBuilder
from ..protocols import Turn
from ..reply import Action, ThoughtAndAction
from ..steps import Step, StepKind, StopReason
from .answers import answer_from_observations
from .days import answer_for_day, day_asked, reading
from .plans import unfinished_plan
from .units import UNIT_OBJECTIONS, object_to_units
from .verify import (
    Objection,
    claimed_calculation,
    clause_of,
    is_folder,
    mentions,
    named_tools,
    next_clause,
    object_to_answer,
    object_to_finish,
    pending_mentions,
    ran,
)
from .writes import (
    asks_for_change,
    changer,
    is_question,
    object_to_folder_as_file,
    object_to_no_change,
    object_to_rewrite,
    object_to_unworked_write,
)

MAX_GUIDED_STEPS = 2  # a number or file name the task gives that no tool takes must not hold the run forever
MAX_REDIRECTED_STEPS = 2  # steps led to the tool a failed call's error names
MAX_RETRIED_STEPS = 2  # steps led to take whole what the request gives, while no call has worked
PLAIN_RESULT_CHARS = 40  # a last result this short (and plain) is quoted in a guided thought
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")  # a result that is one number: a led call may build on it
# the words of arithmetic to do, in a part of a task
_ARITHMETIC = re.compile(r"\b(?:add|sum|total|plus|subtract|minus|multiply|times|divide|average|mean|product"
                         r"|difference|percent|square root|power)\b|%|[加减乘除]|总和|平均|计算", re.I)
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}(?:T[\d:]+)? \(\w+\)")  # a date tool's result: "2026-12-06 (Sunday)"


@dataclass(frozen=True)
class Lead:
    """How a step of a task in parts is led: its thought's start, and what its call takes (one of them)."""

    thought_start: str
    takes: tuple[str, ...]
    avoid: str = ""  # a tool the step may not call: the one it just repeated
    only: str = ""  # the one tool the step must call: the one a failed call's error names


class Referee:
    """Keeps what one run was told (each objection once) and how often it was led, over the run's steps."""

    def __init__(self, prompts: PromptTemplateBuilder, tools: Sequence[str] = (), writers: Sequence[str] = (),
                 calculator: str = "", calendar: str = "") -> None:
        self.prompts = prompts
        self.tools = tuple(tools)  # the toolbox's tool names, which a tool's error may name
        self.writers = tuple(writers)  # the ones that change something (not read-only)
        self.calculator = calculator  # the one that works out arithmetic, where the toolbox has it
        self.calendar = calendar  # the one that reads a day in words ("two weeks from today"), where it has it
        self.raised: set[str] = set()  # the objections already made this run
        self.guided = 0  # steps led to a pending part of the task
        self.redirected = 0  # steps led to the tool a failed call's error names
        self.retried = 0  # steps led to take whole what the request gives, after a failed call
        self.checked = False  # a drafted answer's own arithmetic was checked with a tool (once a run)
        self.converted = False  # the arithmetic the request's units give was worked out with a tool (once a run)
        self.plan: tuple[str, str] | None = None  # the part of the model's own plan left undone, and its number
        self.change_to = ""  # the tool that makes the change the request asks for, when a finish did not
        self.into: tuple[str, str] | None = None  # a folder the request names, and the tool that wrote it as a file
        # what a changing call observes when the user refuses it (only such a call asks), and the start of a
        # refusal with the user's words
        self.refusals = {prompts.render("approval_denied").strip(),
                         *(prompts.render("approval_no_terminal", tool=name).strip() for name in self.writers)}
        self.refused_with = prompts.render("approval_feedback", feedback="\0").split("\0")[0]

    def pending(self, task: str, steps: Sequence[Step]) -> tuple[str, ...]:
        """What the task gives that no successful step has used yet (once a tool has worked)."""
        return pending_mentions(task, steps)

    def lead(self, turn: Turn, steps: Sequence[Step]) -> Lead | None:
        """Where the next step is led, so a small model does the next part of the task instead of repeating the
        last one: when the task still gives something to use, its thought goes from the last result to the part
        that gives it, and its call takes it (or builds on the result so far); right after a repeated action, to
        the part of the task that follows the parts done, by another tool; right after a failed call whose
        error names another tool ("to rename it, use move_file"), to that tool; right after a failed call, while no
        call has worked, to take whole a file name or a day the request gives; right after a finish sent back
        for a change not made, to the tool named for it, or for the model's own plan left half done, to the rest
        of that plan; right after a write to a file named like a folder the request names ("archive.txt"), to
        that call again with a path in the folder. A part of the task that asks for a change, or is arithmetic,
        goes to the tool plainly for it. None when not leading."""
        redirect = self._redirect(turn.task, steps) or self._retry(turn.task, steps)
        if redirect is not None:
            return redirect
        if self.into:  # the step after a write to a file named like a folder the request names: into that folder
            (folder, only), self.into = self.into, None
            thought = self.prompts.render("into_folder_thought", folder=folder).strip()
            return Lead(thought, (f"{folder}/",), only=only)
        if self.change_to:  # the step after a finish that did not make the change asked for: to the tool that does
            only, self.change_to = self.change_to, ""
            return Lead(self.prompts.render("no_change_thought").strip(), (), only=only)
        if self.plan:  # the step after a finish that left the model's own plan half done: to the rest of it
            (clause, number), self.plan = self.plan, None
            last = answer_from_observations(steps)
            takes = (number, last) if _NUMBER.fullmatch(last) else (number,)
            return Lead(self._thought(clause, last), takes)
        if self.guided >= MAX_GUIDED_STEPS:
            return None
        if turn.rethink:
            clause = next_clause(turn.task, steps) if not turn.pending else ""
            repeated = steps[-1].action.name if steps and steps[-1].action is not None else ""
            if not clause or not repeated:
                return None
            self.guided += 1
            only = self._tool_for(clause)
            return Lead(self._thought(clause, answer_from_observations(steps)), (), avoid=repeated,
                        only=only if only != repeated else "")
        # a folder is not led to: held to a path inside it, the model ran its thought to the reply's cap
        pending = [item for item in turn.pending if not is_folder(item)]
        if not pending:
            return None
        self.guided += 1
        clause = clause_of(turn.task, pending[0])  # the words of the part to do, not only its number
        last = answer_from_observations(steps)
        builds_on = _NUMBER.fullmatch(pending[0]) and _NUMBER.fullmatch(last)  # a number: or the result so far
        only = self._tool_for(clause)
        return Lead(self._thought(clause, last), (pending[0], last) if builds_on else (pending[0],), only=only)

    def _tool_for(self, clause: str) -> str:
        """The one tool a part of the task is plainly for, or empty: the one named for the change it asks ("save
        it to result.txt": write_file, not read_file), else the calculator for arithmetic ("add the two numbers":
        not read_webpage)."""
        return changer(asks_for_change(clause), self.writers) or (
            self.calculator if self.calculator and _ARITHMETIC.search(clause) else "")

    def _redirect(self, task: str, steps: Sequence[Step]) -> Lead | None:
        """The step after a failed call whose error names exactly one other tool, led to call that tool, as a
        person reads an error that says what to use instead; None otherwise, and for a tool that changes
        nothing when the request asks for a change a tool is named for (reading result.txt before saving to it
        failed: list_files is no way on)."""
        last = steps[-1] if steps else None
        if last is None or last.kind is not StepKind.ACTION or last.success or last.action is None:
            return None
        if self.redirected >= MAX_REDIRECTED_STEPS:
            return None
        named = named_tools(last.observation, self.tools)
        written = " ".join(str(value) for value in last.action.args.values())  # an error quotes the call's own words:
        others = [name for name in named if name != last.action.name and name not in written]  # no advice there
        if len(others) != 1:
            return None
        if others[0] not in self.writers and changer(asks_for_change(task), self.writers):
            return None
        self.redirected += 1
        thought = self.prompts.render("redirected_thought", number=str(last.number)).strip()
        return Lead(thought, (), only=others[0])

    def _retry(self, task: str, steps: Sequence[Step]) -> Lead | None:
        """The step after a failed call, while no call has worked, led to take as it stands a file name or a day
        the request gives that no failed call took whole ("a.log b.log" for "Delete a.log and b.log", "now() -
        INTERVAL 2 WEEKS" for "two weeks from today"), by the tool the part of the request giving it is for,
        else by the tool that failed; None otherwise."""
        last = steps[-1] if steps else None
        if last is None or last.kind is not StepKind.ACTION or last.success or last.action is None:
            return None
        if self.retried >= MAX_RETRIED_STEPS or any(step.success for step in ran(steps)):
            return None
        taken = {value.strip().lstrip("./").lower() for step in ran(steps) if step.action is not None
                 for value in step.action.args.values() if isinstance(value, str)}
        item = next((item for item in mentions(task)
                     if not is_folder(item) and not _NUMBER.fullmatch(item) and item.lower() not in taken), None)
        if item is None:
            return None
        self.retried += 1
        clause = clause_of(task, item)
        thought = self.prompts.render("retry_thought", number=str(last.number), clause=self._to_do(clause)).strip()
        return Lead(thought, (item,), only=self._tool_for(clause) or last.action.name)

    def _thought(self, clause: str, last: str) -> str:
        """A led thought's start: the `last` result when it is short and plain, then the part of the task to do."""
        clause = self._to_do(clause)
        if len(last) <= PLAIN_RESULT_CHARS and not any(char in last for char in '"\\\n'):
            return self.prompts.render("pending_thought", result=last, clause=clause).strip()
        return self.prompts.render("pending_thought_plain", clause=clause).strip()

    def _to_do(self, clause: str) -> str:
        """A part of the task as a thing to do: a question is one to find out ("find out what day it was
        yesterday"), as a thought that goes on "next I must ..." says it."""
        return self.prompts.render("find_out", clause=clause).strip() if is_question(clause) else clause

    def review_finish(
        self, turn: Turn, steps: Sequence[Step], draft: Callable[[], str]
    ) -> tuple[Objection | None, str]:
        """An objection to finishing now, or None and the drafted final answer, which must rest on the results."""
        # a day the question counts from today, which no call read: the agent reads it first, whatever else is amiss
        objection = self._object_to_unread_day(turn.task, steps) or object_to_finish(turn.task, steps, self.raised)
        if objection is None and not any(self._refused(step) for step in steps):  # the user said no: not again
            objection = object_to_no_change(turn.task, steps, self.writers, self.raised)
        objection = objection or self._object_to_unfinished_plan(steps)
        answer = answer_for_day(draft(), turn.task, steps) if objection is None else ""
        objection = objection or object_to_answer(answer, f"{turn.task}\n{turn.long_term_memory}", steps, self.raised)
        objection = objection or object_to_units(answer, turn.task, self.raised)
        result = answer_from_observations(steps)
        plain = bool(_NUMBER.fullmatch(result) or _DATED.fullmatch(result))
        plain = plain and object_to_units(result, turn.task, ()) is None
        if objection is not None and objection.template in ("ungrounded_answer", *UNIT_OBJECTIONS) \
                and objection.ends is StopReason.UNVERIFIED and plain:
            # the finish prompt miswrote a tool's number or date twice ("759.5" for 754.5), or wrote another result
            # than the last, which fits the units: that result
            return None, result
        if objection is not None:
            self.raised.add(objection.template)
        if objection is not None and objection.template == "no_change" and not objection.ends:
            self.change_to = objection.variables["tool"]
        return objection, answer

    def _object_to_unfinished_plan(self, steps: Sequence[Step]) -> Objection | None:
        """Why finishing now is not earned: the model's own thought planned one more operation with a number no
        call took ("... and then divide by 3"). Said once a run; the next step is led to that part."""
        plan = unfinished_plan(steps) if "unfinished_plan" not in self.raised else None
        if plan is None:
            return None
        number, clause, taken = plan
        self.plan = (clause, taken)
        return Objection("unfinished_plan", {"number": str(number), "clause": clause})

    def _object_to_unread_day(self, task: str, steps: Sequence[Step]) -> Objection | None:
        """Why finishing now is not earned: the request asks about a day it counts from today, and no call read
        its words as they stand ("now() - INTERVAL 2 WEEKS" for "two weeks from today"). Once a run; the agent
        then reads them with the calendar itself (see `calculation_to_check`)."""
        day = day_asked(task) if self.calendar and "day_check" not in self.raised else ""
        if not day or reading(day, steps) is not None:
            return None
        return Objection("day_check", {"day": day})

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
        if objection.template == "day_check" and self.calendar:
            return self.calendar, objection.variables["day"], self.prompts.render("check_day", **objection.variables)
        if not self.calculator:
            return None
        if objection.template in UNIT_OBJECTIONS and objection.variables["expression"] and not self.converted:
            self.converted = True
            thought = self.prompts.render(objection.variables["check"], **objection.variables)
            return self.calculator, objection.variables["expression"], thought
        if objection.template != "ungrounded_answer" or self.checked:
            return None
        expression = claimed_calculation(answer)
        if expression is None:
            return None
        self.checked = True
        self.raised.discard(objection.template)
        return self.calculator, expression, self.prompts.render("check_calculation", expression=expression)

    def review_action(self, task: str, action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
        """An objection to running `action` (a rewrite of a file this run just wrote, a calculation written
        instead of its result, a folder the request names written as a file), or None."""
        objection = object_to_rewrite(action, steps, writes)
        for template, check in (("unworked_write", lambda: object_to_unworked_write(action, steps, writes)),
                                ("folder_as_file", lambda: object_to_folder_as_file(action, task, writes))):
            if objection is None and template not in self.raised:  # once a run each: the model may mean it
                objection = check()
                if objection is not None:
                    self.raised.add(objection.template)
        if objection is not None and objection.template == "folder_as_file":  # the next step goes into the folder
            self.into = (objection.variables["folder"], action.name)
        return objection

    def rejected(self, number: int, reply: str, decision: ThoughtAndAction, objection: Objection) -> Step:
        """A step whose action was not taken, with the note the model reads about why."""
        note = self.prompts.render(objection.template, **objection.variables).strip()
        return Step(number, StepKind.REJECTED, reply, decision, note, success=False)
