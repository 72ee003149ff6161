"""Where the next step of a run is led, so a small model does the next part of the task instead of repeating the
last one: its thought's start and what its call must take (a ReplyConstraint), which constrained decoding holds it
to."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..advice import ReplyConstraint
from ..loop.answers import answer_from_observations
from ..prompts import PromptTemplateBuilder
from ..steps import Step, StepKind
from .clauses import clause_of, clauses_after, next_clause
from .request import is_question, read_request
from .rules import Rule
from .verify import Objection, counted_day, is_folder, is_percent, mentions, named_tools, ran
from .words import one_of
from .writes import asks_for_change, changer, plain_path

MAX_GUIDED_STEPS = 2  # a number or file name the task gives that no tool takes must not hold the run forever
MAX_REDIRECTED_STEPS = 2  # steps led to the tool a failed call's error names
MAX_RETRIED_STEPS = 2  # steps led to take whole what the request gives, while no call has worked
PLAIN_RESULT_CHARS = 40  # a last result this short (and plain) is quoted in a guided thought
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")  # a result that is one number: a led call may build on it
# the words of arithmetic to do, in a part of a task (words.toml), or a percent sign
_ARITHMETIC = re.compile(rf"{one_of('arithmetic')}|%", re.I)

FINDER = "search_files"  # the tool that finds which files mention a text, where the toolbox has it


class Leader:
    """Where one run's steps are led, and how often each way; it follows the referee's objections to lead the
    step after a finish or action the referee sent back."""

    def __init__(self, prompts: PromptTemplateBuilder, tools: Sequence[str] = (), writers: Sequence[str] = (),
                 calculator: str = "", calendar: str = "") -> None:
        self.prompts = prompts
        self.tools = tuple(tools)  # the toolbox's tool names, which a tool's error may name
        self.writers = tuple(writers)  # the ones that change something (not read-only)
        self.calculator = calculator  # the one that works out arithmetic, where the toolbox has it
        self.calendar = calendar  # the one that reads a day in words, where the toolbox has it
        self.guided = 0  # steps led to a pending part of the task
        self.redirected = 0  # steps led to the tool a failed call's error names
        self.retried = 0  # steps led to take whole what the request gives, after a failed call
        self.plan: tuple[str, str] | None = None  # the part of the model's own plan left undone, and its number
        self.change_to = ""  # the tool that makes the change the request asks for, when a finish did not
        self.into: tuple[str, str] | None = None  # a folder the request names, and the tool that wrote it as a file

    def follow(self, objection: Objection, tool: str = "") -> None:
        """Lead the next step where `objection` points, for the call of `tool` it was made against: a finish
        without the change asked for, to the tool named for it; a finish leaving the model's own plan half done,
        to the rest of that plan; a write to a file named like a folder the request names, into that folder."""
        if objection.rule is Rule.NO_CHANGE and not objection.ends:
            self.change_to = objection.variables["tool"]
        elif objection.rule is Rule.UNFINISHED_PLAN:
            self.plan = (objection.variables["clause"], objection.variables["taken"])
        elif objection.rule is Rule.FOLDER_AS_FILE:
            self.into = (objection.variables["folder"], tool)

    def lead(self, task: str, rethink: bool, pending: Sequence[str], steps: Sequence[Step]) -> ReplyConstraint | None:
        """Where the next step is led, so a small model does the next part of the task instead of repeating the
        last one: when the task still gives something to use, its thought goes from the last result to the part
        that gives it, and its call takes it (or builds on the result so far); right after a repeated action, to
        the part of the task that follows the parts done, by another tool; right after a failed call whose
        error names another tool ("to rename it, use move_file"), to that tool; right after a failed call, while no
        call has worked, to take whole a file name or a day the request gives (or to search for the word of a
        question which file mentions it); right after a finish sent back
        for a change not made, to the tool named for it, or for the model's own plan left half done, to the rest
        of that plan; right after a write to a file named like a folder the request names ("archive.txt"), to
        that call again with a path in the folder. Arithmetic with no number of its own before the part led to
        ("double the number") is worked out first. A part of the task that asks for a change, or is arithmetic,
        goes to the tool plainly for it. None when not leading."""
        redirect = self._redirect(task, steps) or self._retry(task, steps)
        if redirect is not None:
            return redirect
        if self.into:  # the step after a write to a file named like a folder the request names: into that folder
            (folder, only), self.into = self.into, None
            thought = self.prompts.render("into_folder_thought", folder=folder).strip()
            return ReplyConstraint(thought, (f"{folder}/",), only=only)
        if self.change_to:  # the step after a finish that did not make the change asked for: to the tool that does
            only, self.change_to = self.change_to, ""
            return ReplyConstraint(self.prompts.render("no_change_thought").strip(), (), only=only)
        if self.plan:  # the step after a finish that left the model's own plan half done: to the rest of it
            (clause, number), self.plan = self.plan, None
            last = answer_from_observations(steps)
            takes = (number, last) if _NUMBER.fullmatch(last) else (number,)
            return ReplyConstraint(self._thought(clause, last), takes)
        if self.guided >= MAX_GUIDED_STEPS:
            return None
        if rethink:
            clause = next_clause(task, steps) if not pending else ""
            repeated = steps[-1].action.name if steps and steps[-1].action is not None else ""
            if not clause or not repeated:
                return None
            self.guided += 1
            only = self._tool_for(clause)
            return ReplyConstraint(self._thought(clause, answer_from_observations(steps)), (), avoid=repeated,
                        only=only if only != repeated else "")
        # a folder is not led to: held to a path inside it, the model ran its thought to the reply's cap
        unused = [item for item in pending if not is_folder(item)]
        if not unused:
            return None
        self.guided += 1
        last = answer_from_observations(steps)
        unworked = self._unworked(task, steps, unused[0])
        if unworked:  # "double the number", before "save it to output.txt": worked out first
            takes_last = (last,) if _NUMBER.fullmatch(last) else ()
            return ReplyConstraint(self._thought(unworked, last), takes_last, only=self.calculator)
        clause = clause_of(task, unused[0])  # the words of the part to do, not only its number
        given = unused[0][:-1] if is_percent(unused[0]) else unused[0]  # "15%": 15 in the call ("5030 * 0.15" too)
        builds_on = _NUMBER.fullmatch(given) and _NUMBER.fullmatch(last)  # a number: or the result so far
        only = self._tool_for(clause)
        share = (str(float(given) / 100),) if is_percent(unused[0]) else ()  # or as a fraction: 0.15
        taking = ((given, last) if builds_on else (given,)) + share
        return ReplyConstraint(self._thought(clause, last), taking, only=only)

    def _unworked(self, task: str, steps: Sequence[Step], item: str) -> str:
        """A part of the task before the one that gives `item` that is arithmetic with no number of its own
        ("double the number in it"), when the calculator has not run since the last result: a small model writes
        the number it read instead. Empty otherwise."""
        good = [step for step in ran(steps) if step.success and step.action is not None]
        if not self.calculator or not good or good[-1].action.name == self.calculator:  # type: ignore[union-attr]
            return ""
        return next((clause for clause in clauses_after(task, steps, item)
                     if _ARITHMETIC.search(clause) and not _NUMBER.search(clause)), "")

    def _tool_for(self, clause: str) -> str:
        """The one tool a part of the task is plainly for, or empty: the one named for the change it asks ("save
        it to result.txt": write_file, not read_file), else the calculator for arithmetic ("add the two numbers":
        not read_webpage)."""
        return changer(asks_for_change(clause), self.writers) or (
            self.calculator if self.calculator and _ARITHMETIC.search(clause) else "")

    def _redirect(self, task: str, steps: Sequence[Step]) -> ReplyConstraint | None:
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
        return ReplyConstraint(thought, (), only=others[0])

    def _retry(self, task: str, steps: Sequence[Step]) -> ReplyConstraint | None:
        """The step after a failed call, while no call has worked, led to take as it stands a file name or a day
        the request gives that no failed call took whole ("x.tmp y.tmp" for "Delete x.tmp and y.tmp", "now() -
        INTERVAL 2 WEEKS" for "two weeks from today"), by the tool the part of the request giving it is for,
        else by the tool that failed (a call of a tool there is not took nothing); for a question which file
        mentions a word, the finder, to look for it; None otherwise."""
        last = steps[-1] if steps else None
        if last is None or last.kind is not StepKind.ACTION or last.success or last.action is None:
            return None
        if self.retried >= MAX_RETRIED_STEPS or any(step.success for step in ran(steps)):
            return None
        taken = {plain_path(value).lower() for step in ran(steps)  # by a tool there is: "rename_file"
                 if step.action is not None and step.action.name in self.tools  # took nothing
                 for value in step.action.args.values() if isinstance(value, str)}
        item = next((item for item in mentions(task)
                     if not is_folder(item) and not _NUMBER.fullmatch(item) and not is_percent(item)
                     and item.lower() not in taken), None)
        searched = read_request(task).searched if FINDER in self.tools else ""
        if item is None and searched:  # "which file mentions Oslo": the finder, for Oslo
            item = searched
            only = FINDER if item.lower() not in taken else ""
        elif item and counted_day(item) and self.calendar:  # "昨天": the calendar, not the file tool that failed
            only = self.calendar
        else:
            only = (self._tool_for(clause_of(task, item)) or last.action.name) if item else ""
        if not item or not only:
            return None
        self.retried += 1
        clause = clause_of(task, item)
        thought = self.prompts.render("retry_thought", number=str(last.number), clause=self._to_do(clause)).strip()
        return ReplyConstraint(thought, (item,), only=only)

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
