"""Small-model help, one opt-in package: checks that ground a finish in what the tools did, and leads that steer a
small model to the next part of its task. The core loop reads nothing of the request; the coach does. An answer
no tool can support (nothing in the request for a tool to take, and no tool worked), and a value worked out from
the results, stand only when the model gives them again (self-consistency: autoagent/consistency.py).

`--coach auto` (the default) turns it on for the embedded model and for a model whose name says it is small
(see `coach_wanted`); `on` and `off` choose for any model.
Each verdict it gives that changes a run's course is a step of the transcript naming `coach`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property

from langchain_core.language_models import BaseChatModel

from ..acting.approval import is_read_only
from ..acting.fence import quoting_in
from ..acting.toolbox import Toolbox
from ..checks import CheckContext, NamedCheck, Verdict, VerdictKind
from ..consistency import agree_on_numbers, consistency_verdict
from ..loop.answers import answer_from_observations, as_finish, echoes_result
from ..loop.loop_guard import last_failed
from ..prompts import PromptTemplateBuilder
from ..protocols import Turn
from ..reply import Action, ThoughtAndAction
from ..steps import Step, StepKind, ran
from ..tools.overview import overview
from ..tools.workspace import declared_workspace
from .edits import edits_verdict
from .leads import Lead
from .recompute import recompute_verdict, rerun_verdict
from .referee import Referee, answers_itself
from .request import read_request
from .verify import Objection, ungrounded_numbers

__all__ = ["COACH_CHOICES", "Coach", "Lead", "coach_wanted"]

COACH_CHOICES = ("auto", "on", "off")
CHECKERS = ("calculator", "calendar")  # the tools that check a drafted answer's arithmetic and days, where it has them
NAME = "coach"  # the name its verdicts carry in the transcript
SMALL_BILLIONS = 1.5  # the largest model measured to need the coach (the bundled 1.5B), in billions of parameters
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[bB](?![A-Za-z0-9])")  # "1.5b" in "qwen2.5-coder:1.5b"


def coach_wanted(setting: str, llm: BaseChatModel) -> bool:
    """Whether the coach helps `llm`: `on`, `off`, or for `auto` the embedded local model and a model whose name
    says it is as small as those measured to need it ("qwen2.5-coder:1.5b", "Llama-3.2-1B"): the bundled 0.5B
    and 1.5B models gained with it on held-out sets, while a capable model had 6 of 10 right answers refused or
    delayed by it (bench/coach_capable.py). A model behind a URL whose name gives no size is trusted as given."""
    if setting not in COACH_CHOICES:
        raise ValueError(f"unknown coach setting {setting!r} (choose from {', '.join(COACH_CHOICES)})")
    if setting != "auto":
        return setting == "on"
    from ..llm.local import ChatLocalLlama

    return isinstance(llm, ChatLocalLlama) or small_by_name(llm)


def small_by_name(llm: BaseChatModel) -> bool:
    """Whether the model's name gives its size in parameters, at most SMALL_BILLIONS ("phi-1.5b", "qwen2.5:0.5b";
    not "mixtral-8x7b", nor a name with no size)."""
    name = str(getattr(llm, "model_name", None) or getattr(llm, "model", None) or "")
    sizes = [float(size) for size in _SIZE.findall(name)]
    return bool(sizes) and max(sizes) <= SMALL_BILLIONS


class Coach:
    """The coach of one run: the referee's reviews as verdicts, and where its steps are led."""

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, can_sample: bool = False) -> None:
        tools = tuple(toolbox.tools)
        writers = tuple(name for name, tool in toolbox.tools.items() if not is_read_only(tool))
        checkers = (name if name in tools else "" for name in CHECKERS)
        self.prompts = prompts
        self.toolbox = toolbox
        self.can_sample = can_sample  # the model samples at a temperature: a value it states is asked for again
        self.referee = Referee(prompts, tools, writers, *checkers)

    def pending(self, task: str, steps: Sequence[Step]) -> tuple[str, ...]:
        """What the task gives that no successful step has used yet: the step instruction names it."""
        return self.referee.pending(task, steps)

    def lead(self, turn: Turn, steps: Sequence[Step]) -> Lead | None:
        """Where the next step is led, or None."""
        return self.referee.lead(turn, steps)

    @cached_property
    def workspace(self) -> str:
        """The workspace's files in brief (names, sizes, first lines), read once, for the prompts of a run that
        begins now (a resumed run's workspace is no longer as it began): a small model otherwise writes its first
        program for data it imagines (a column that is not there, a line that is not a number). Empty where no
        tool declares a workspace, or it holds no file."""
        folder = declared_workspace(self.toolbox.tools.values())
        if folder is None:
            return ""
        try:
            with quoting_in(self.prompts):
                return overview(folder, heading=self.prompts.render("workspace_overview").strip())
        except (OSError, ValueError):  # changed while it was read: the run goes on without it
            return ""

    def redraws(self, steps: Sequence[Step]) -> bool:
        """Whether the next reply is drawn at a temperature: the model sent a failed call again (not run: it would
        fail the same way), and a model that decodes greedily sends it a third time, which stops the run on a
        loop. Only where the model samples; a call that worked, sent again, is left to `insists` (the model holds
        its result for the answer)."""
        last = steps[-1] if steps else None
        return self.can_sample and last is not None and last.kind is StepKind.REPEATED and last_failed(steps)

    def finish_in_disguise(self, decision: ThoughtAndAction, steps: Sequence[Step]) -> ThoughtAndAction | None:
        """A call that only restates the last result (calculator("7006669") right after 7006669), as the finish
        a small model means by it; None for any other call."""
        return as_finish(decision) if echoes_result(decision.action, steps) else None

    def review_action(self, task: str, action: Action, steps: Sequence[Step], writes: bool) -> Verdict | None:
        """A verdict against running `action` (send back with a note, or work out first what a write would
        write), or None: it runs."""
        objection = self.referee.review_action(task, action, steps, writes)
        if objection is None:
            return None
        if objection.template == "unworked_write" and self.referee.calculator:
            thought = self.prompts.render("check_write", **objection.variables).strip()
            return self._run(self.referee.calculator, objection.variables["text"], thought)
        return Verdict.send_back(self._note(objection))

    def check(self, long_term_memory: str) -> NamedCheck:
        """The coach's check of a finish, for a run whose prompt showed `long_term_memory`."""
        return NamedCheck(NAME, lambda context: self._review_finish(context, long_term_memory))

    def _review_finish(self, context: CheckContext, long_term_memory: str) -> Verdict:
        """The referee's review of a finish as a verdict: sent back with its note, a tool the agent runs first
        (the arithmetic or day the answer rests on), the run stopped unverified, or accepted (maybe with another
        answer: the day or count a tool's result shows)."""
        told = "premature_finish" in self.referee.raised  # asked once already to run a tool first
        objection, answer = self.referee.review_finish(context.task, long_term_memory, context.steps,
                                                       lambda: context.answer)
        if told and self._from_knowledge(context, objection):
            return consistency_verdict(context)
        if objection is None:
            unsure = self._unsure(context, answer) if self.can_sample else None
            return unsure or Verdict.accept(answer if answer != context.answer else None, why=_REPLACED)
        check = self.referee.calculation_to_check(objection, answer)
        if check is not None:
            return self._run(*check)
        if objection.ends is not None:
            _ = context.answer  # drafted, so the stopped run still shows it, as unsure (a fact asked of no tool)
            return Verdict.stop(objection.detail or self._note(objection), objection.ends)
        return Verdict.send_back(self._note(objection))

    name = NAME

    @staticmethod
    def _from_knowledge(context: CheckContext, objection: Objection | None) -> bool:
        """Whether the answer can only come from what the model knows: the request gives nothing a tool could
        take (no number, file, folder or day), no tool has succeeded, and nothing else is amiss but that (or a
        number no result shows). Such an answer stands only when the model gives it again (self-consistency)."""
        request = read_request(context.task)
        if request.mentions or any(step.success for step in ran(context.steps)):
            return False
        if request.names_change:  # a change asked of tools that failed
            return False
        return objection is None or objection.template in ("premature_finish", "ungrounded_answer")

    def _unsure(self, context: CheckContext, answer: str) -> Verdict | None:
        """A verdict on a finish the model may not give again (self-consistency), or None: a file it wrote must be
        written again the same where it worked it out from what it read, in the same shape where it made it up
        (edits.py: or the agent writes what two fresh drafts agree on), and the answer to a request that asks for
        no change (whose outcome is the answer, not the workspace) must come to the same number when the model
        works out a calculation it rests on again, or writes a program that prints the same numbers as the run's
        (recompute.py), and agree with short answers sampled from the same results, on its numbers where it states
        any.
        `answer` is the draft, or what the referee put in its place: a stopped run shows it as unsure. Measured on
        held-out sets written before: bench/RESULTS.md."""
        edited = edits_verdict(context, self.referee.writers, self.prompts)
        if edited is not None or read_request(context.task).names_change:
            return edited
        worked_out = recompute_verdict(context, self.toolbox, answer) or rerun_verdict(context, self.toolbox, answer)
        if worked_out is not None:
            return worked_out if answer == context.answer else Verdict.stop(worked_out.note, worked_out.reason, answer)
        verdict = consistency_verdict(context.with_answer(answer), same=agree_on_numbers)
        if verdict.kind is VerdictKind.ACCEPT:
            return None
        return verdict if answer == context.answer else Verdict.stop(verdict.note, verdict.reason, answer)

    def answers_itself(self, result: str) -> bool:
        """Whether a tool's result, stood in for a draft that was no answer, answers the question by itself: one
        number, or a day as the calendar gives it."""
        return answers_itself(result)

    def answer_for_stopped_run(self, answer: str, task: str, steps: Sequence[Step]) -> str:
        """The answer of a run that stopped before finishing: the last good observation in place of one that
        states a number no tool showed (no finish check saw it)."""
        if ungrounded_numbers(answer, task, steps):
            return answer_from_observations(steps)
        return answer

    def _run(self, tool: str, value: str, thought: str) -> Verdict:
        """The agent's own call of a one-argument tool (the calculator, the calendar) with `value`."""
        argument = next(iter(self.toolbox.args_schema(tool).get("properties", {})), "expression")
        return Verdict.run_tool(tool, {argument: value}, thought.strip())

    def _note(self, objection: Objection) -> str:
        """What the model reads about an objection."""
        return self.prompts.render(objection.template, **objection.variables).strip()


_REPLACED = "the answer states the value the tools' results show"
