"""Acting on a decision: a finish goes to its review; a call goes past the advisors and the loop guard, then its tool
runs and what it gave is the step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import Callbacks

from ..acting.effects import Effects
from ..acting.toolbox import Toolbox, ToolResult
from ..checks import VerdictKind
from ..events import RunObserver
from ..prompts import PromptTemplateBuilder
from ..reply import Action, Thought, ThoughtAndAction
from ..steps import Step, StepKind, StepOutcome, StopReason, SubRun
from .answers import as_finish
from .loop_guard import LoopGuard, failed, insists

if TYPE_CHECKING:
    from ..advice import Advisor, TurnState
    from .finish import FinishReview


class Actor:
    """Takes one run's decisions: each becomes a step, and maybe the run's end."""

    def __init__(self, toolbox: Toolbox, prompts: PromptTemplateBuilder, advisors: Sequence[Advisor],
                 review: FinishReview, events: RunObserver, callbacks: Callbacks) -> None:
        self.toolbox, self.prompts, self.advisors, self.review = toolbox, prompts, advisors, review
        self.events, self.callbacks = events, callbacks
        self.loops = LoopGuard()

    def act(self, number: int, reply: str, decision: ThoughtAndAction, turn: TurnState) -> StepOutcome:
        """The step `decision` makes: a finish reviewed, a call refused by an advisor or the loop guard, or run."""
        if decision.is_finish():
            return self.review.review(number, reply, decision, turn.task, turn.steps, self)
        meant = self.toolbox.meant(decision.action)
        if meant is not decision.action:  # a tool written as another tool's argument: the call it stands for
            decision = decision.model_copy(update={"action": meant})
        for advisor in self.advisors:
            verdict = advisor.on_action(turn, decision)
            if verdict is None or verdict.kind is VerdictKind.ACCEPT:
                continue
            if verdict.kind is VerdictKind.FINISH:  # the call says the task is done
                return self.review.review(number, reply, as_finish(decision), turn.task, turn.steps, self)
            if verdict.kind is VerdictKind.RUN_TOOL:
                return self.run_own(number, reply, verdict.tool, dict(verdict.args), verdict.note, advisor.name)
            step = Step(number, StepKind.REJECTED, reply, decision, verdict.note, False, check=advisor.name)
            return StepOutcome(step, verdict.reason if verdict.kind is VerdictKind.STOP else None,
                               detail=verdict.note if verdict.kind is VerdictKind.STOP else "")
        return self._call(number, reply, decision, turn)

    def _call(self, number: int, reply: str, decision: ThoughtAndAction, turn: TurnState) -> StepOutcome:
        """A call past the loop guard: a repeat forces a rethink, then stops the run (or, asked for a third time
        after it worked, is taken as the finish it means); any other call runs."""
        loop = self.loops.check(decision.action)
        if loop is not None and loop.stop and insists(decision.action, loop.earlier, turn.steps):
            return self.review.review(number, reply, as_finish(decision), turn.task, turn.steps, self)
        if loop is not None:
            note = self.prompts.render(
                "repeated_failure" if failed(loop.earlier) else "repeated_action", number=str(loop.earlier.number),
                observation=loop.earlier.observation,
            )
            step = Step(number, StepKind.REPEATED, reply, decision, note.strip(), success=False)
            return StepOutcome(step, StopReason.LOOP_DETECTED if loop.stop else None)
        return acted(number, reply, decision, self._run(decision))

    def run_own(self, number: int, reply: str, tool: str, args: dict[str, Any], thought: str,
                check: str) -> StepOutcome:
        """A step the agent takes itself for a verdict (`check` names whose): `tool` with `args`, so the next
        answer rests on a tool's result."""
        decision = ThoughtAndAction(thought=Thought(text=thought or f"check with {tool}"),
                                    action=Action(name=tool, args=args))
        return acted(number, reply, decision, self._run(decision), check)

    def _run(self, decision: ThoughtAndAction) -> ToolResult:
        """Run the call's tool, told as it starts and ends."""
        self.events.on_tool_start(decision.action, decision)
        ran = self.toolbox.run(decision.action, self.callbacks, self.events)
        self.events.on_tool_end(decision.action, ran.success, ran.content)
        return ran


def acted(number: int, reply: str, decision: ThoughtAndAction, ran: ToolResult, check: str = "") -> StepOutcome:
    """The step of a tool that ran; a sub-agent's run is kept in it, and counts as a success only if it finished."""
    sub_run = ran.artifact if isinstance(ran.artifact, SubRun) else None
    success = ran.success and (sub_run is None or sub_run.run.finished)
    changed = ran.artifact.changed if isinstance(ran.artifact, Effects) else None
    step = Step(number, StepKind.ACTION, reply, decision, ran.content, success, check=check, sub_run=sub_run,
                changed=changed)
    return StepOutcome(step, waited=ran.waited)
