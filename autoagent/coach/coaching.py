"""The coach of one run, an advisor: it names what the task gives that no step used yet, shows the workspace's files
after the task, leads a small model's next step, questions an action that would undo the task, and grounds a finish
in what the tools did."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from ..acting.approval import is_read_only
from ..acting.fence import quoting_in
from ..advice import Advice, Advisor, RunSetup, StandIn, TurnState
from ..checks import CheckContext, Verdict, VerdictKind
from ..consistency import agree_on_numbers, consistency_verdict
from ..loop.answers import answer_from_observations, echoes_result
from ..loop.loop_guard import last_failed
from ..reply import ThoughtAndAction
from ..steps import Step, StepKind, ran
from ..tools.overview import overview
from ..tools.workspace import declared_workspace
from .drafts import Drafts
from .edits import edits_verdict
from .leads import Leader
from .recompute import recompute_verdict, rerun_verdict
from .referee import Referee, answers_itself
from .request import read_request
from .rules import Rule
from .verify import Objection, ungrounded_numbers

NAME = "coach"  # the name its verdicts carry in the transcript
CHECKERS = ("calculator", "calendar")  # the tools that check a drafted answer's arithmetic and days, where it has them
_REPLACED = "the answer states the value the tools' results show"


class Coaching(Advisor):
    """The coach of one run: the referee's reviews as verdicts, and where the leader leads its steps."""

    name = NAME

    def __init__(self, setup: RunSetup) -> None:
        toolbox = setup.toolbox
        tools = tuple(toolbox.tools)
        writers = tuple(name for name, tool in toolbox.tools.items() if not is_read_only(tool))
        calculator, calendar = (name if name in tools else "" for name in CHECKERS)
        self.setup = setup
        self.prompts, self.toolbox = setup.prompts, toolbox
        self.can_sample = setup.profile.can_sample  # a value the model states is asked for again
        self.folder = declared_workspace(toolbox.tools.values())  # where the tools work, where one is declared
        self.referee = Referee(setup.prompts, tools, writers, calculator, calendar, self.folder)
        self.leader = Leader(setup.prompts, tools, writers, calculator, calendar)
        self.drafts = Drafts(setup.prompts, toolbox, setup.step_tokens)

    def before_model(self, turn: TurnState) -> Advice:
        """What the task gives that no successful step has used yet (the step instruction names it), the
        workspace's files after the task (in a run that begins now), where the step is led, and whether the reply
        is drawn anew: the model sent a failed call again (not run: it would fail the same way), and a model that
        decodes greedily sends it a third time, which stops the run on a loop; only where the model samples."""
        pending = self.referee.pending(turn.task, turn.steps)
        lead = self.leader.lead(turn.task, turn.rethink, pending, turn.steps)
        last = turn.steps[-1] if turn.steps else None
        redraw = self.can_sample and last is not None and last.kind is StepKind.REPEATED and last_failed(turn.steps)
        return Advice(pending, "" if self.setup.resumed else self.workspace, lead, redraw)

    @cached_property
    def workspace(self) -> str:
        """The workspace's files in brief (names, sizes, first lines), read once, for the prompts of a run that
        begins now (a resumed run's workspace is no longer as it began): a small model otherwise writes its first
        program for data it imagines (a column that is not there, a line that is not a number). Empty where no
        tool declares a workspace, or it holds no file."""
        if self.folder is None:
            return ""
        try:
            with quoting_in(self.prompts):
                return overview(self.folder, heading=self.prompts.render("workspace_overview").strip())
        except (OSError, ValueError):  # changed while it was read: the run goes on without it
            return ""

    def on_action(self, turn: TurnState, decision: ThoughtAndAction) -> Verdict | None:
        """A call that only restates the last result (calculator("7006669") right after 7006669) is the finish a
        small model means by it; else a verdict against running the call (send back with a note, or work out first
        what a write would write), or None: it runs."""
        if echoes_result(decision.action, turn.steps):
            return Verdict.finish()
        tool = self.toolbox.find(decision.action.name)
        writes = tool is not None and not is_read_only(tool)
        objection = self.referee.review_action(turn.task, decision.action, turn.steps, writes)
        if objection is None:
            return None
        self.leader.follow(objection, decision.action.name)
        if objection.rule is Rule.UNWORKED_WRITE and self.referee.calculator:
            thought = self.prompts.render("check_write", **objection.variables).strip()
            return self._run(self.referee.calculator, objection.variables["text"], thought)
        return Verdict.send_back(self._note(objection))

    def on_finish(self, context: CheckContext) -> Verdict:
        """The referee's review of a finish as a verdict: sent back with its note, a tool the agent runs first
        (the arithmetic or day the answer rests on), the run stopped unverified, or accepted (maybe with another
        answer: the day or count a tool's result shows)."""
        self.drafts.begin(context)
        told = Rule.PREMATURE_FINISH in self.referee.raised  # asked once already to run a tool first
        objection, answer = self.referee.review_finish(context.task, self.setup.long_term_memory, context.steps,
                                                       lambda: context.answer)
        if objection is not None:
            self.leader.follow(objection)
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

    def stand_in(self, steps: Sequence[Step]) -> StandIn:
        """The last good result stands in for a draft that is no answer; it is the answer when it answers the
        question by itself (one number, a day as the calendar gives it), else it is shown as unsure."""
        result = answer_from_observations(steps)
        return StandIn(result, final=answers_itself(result))

    def on_stopped(self, answer: str, task: str, steps: Sequence[Step]) -> str:
        """The answer of a run that stopped before finishing: the last good observation in place of one that
        states a number no tool showed (no finish check saw it)."""
        return answer_from_observations(steps) if ungrounded_numbers(answer, task, steps) else answer

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
        return objection is None or objection.rule in (Rule.PREMATURE_FINISH, Rule.UNGROUNDED_ANSWER)

    def _unsure(self, context: CheckContext, answer: str) -> Verdict | None:
        """A verdict on a finish the model may not give again (self-consistency), or None: a file it wrote must be
        written again the same where it worked it out from what it read, in the same shape where it made it up
        (edits.py: or the agent writes what two fresh drafts agree on), and the answer to a request that asks for
        no change (whose outcome is the answer, not the workspace) must come to the same number when the model
        works out a calculation it rests on again, or writes a program that prints the same numbers as the run's
        (recompute.py), and agree with one of two short answers sampled from the same results (a majority of the
        three), on its numbers where it states any.
        `answer` is the draft, or what the referee put in its place: a stopped run shows it as unsure. Measured on
        held-out sets written before: bench/RESULTS.md."""
        edited = edits_verdict(self.drafts, self.referee.writers, self.prompts)
        if edited is not None or read_request(context.task).names_change:
            return edited
        drafts, toolbox = self.drafts, self.toolbox
        worked_out = recompute_verdict(drafts, toolbox, answer) or rerun_verdict(drafts, toolbox, answer)
        if worked_out is not None:
            return worked_out if answer == context.answer else Verdict.stop(worked_out.note, worked_out.reason, answer)
        verdict = consistency_verdict(context.with_answer(answer), same=agree_on_numbers, majority=True)
        if verdict.kind is VerdictKind.ACCEPT:
            return None
        return verdict if answer == context.answer else Verdict.stop(verdict.note, verdict.reason, answer)

    def _run(self, tool: str, value: str, thought: str) -> Verdict:
        """The agent's own call of a one-argument tool (the calculator, the calendar) with `value`."""
        argument = next(iter(self.toolbox.args_schema(tool).get("properties", {})), "expression")
        return Verdict.run_tool(tool, {argument: value}, thought.strip())

    def _note(self, objection: Objection) -> str:
        """What the model reads about an objection."""
        return self.prompts.render(objection.template, **objection.variables).strip()
