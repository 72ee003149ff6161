"""A finish, and the final answer it comes to: the draft is written, then every check has its say, in order (the
advisors' first, then the user's); the step outcome carries the answer, and the model's own where a check replaced
it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ..checks import CheckContext, NamedCheck, VerdictKind
from ..reply import ThoughtAndAction
from ..steps import Step, StepKind, StepOutcome, StopReason
from .answers import answer_from_observations
from .drafting import Drafter, Draws, Written

if TYPE_CHECKING:
    from ..advice import Advisor, StandIn
    from ..memory.short_term import ShortTermMemory
    from .metering import Meter

UNUSABLE = "the model's final answer was the reply format, not an answer, when asked twice"
CORE = "answer"  # the name the core's own verdict carries: the reply format is not an answer


class OwnSteps(Protocol):
    """Who takes the steps a check's verdict asks the agent to take itself (the actor of the run)."""

    def run_own(self, number: int, reply: str, tool: str, args: dict[str, Any], thought: str,
                check: str) -> StepOutcome:
        """`tool` with `args`, as the step numbered `number`, for the verdict of `check`."""
        ...


class FinishReview:
    """The finishes of one run: each drafted answer goes past the checks, each of which may accept it (or put
    another in its place, the model's own kept), send the model back with a note, run a tool first, or stop."""

    def __init__(self, drafter: Drafter, memory: ShortTermMemory, meter: Meter, advisors: Sequence[Advisor],
                 checks: Sequence[NamedCheck], tools: Sequence[str],
                 admits: Callable[[str], bool] = lambda answer: True) -> None:
        self.drafter, self.memory, self.meter, self.advisors = drafter, memory, meter, advisors
        self.checks = [*(advisor.check() for advisor in advisors), *checks]
        self.tools = tuple(tools)
        self.admits = admits  # whether a check's answer may replace the model's (of the output type, where one is)
        self.sent_back: Counter[str] = Counter()  # per check, how often it sent this run back

    def review(self, number: int, reply: str, decision: ThoughtAndAction, task: str, steps: Sequence[Step],
               actor: OwnSteps) -> StepOutcome:
        """The step a finish makes, whether the run ends, and with what answer."""
        written: list[Written] = []
        stand, by = self._stand_in(steps)  # what stands in for a draft that is no answer, and whose word it is

        def draft() -> str:  # once a finish, however many checks read it
            if not written:
                written.append(self.drafter.write(task, self.memory, steps, self.meter, decision))
            return written[0].answer if written[0].usable or stand is None else stand.answer

        draws = Draws(self.drafter, task, self.memory, self.meter)
        context = CheckContext(task, steps, draft, self.tools, sample=draws.answers, sample_reply=draws.replies,
                               draw_replies=draws.draw)
        if stand is None and (not context.answer or not written[0].usable):  # no answer, and nothing stands in
            step = Step(number, StepKind.REJECTED, reply, decision, UNUSABLE, False, check=CORE)
            return StepOutcome(step, StopReason.UNVERIFIED, answer_from_observations(steps),
                               model_answer=written[0].answer, detail=UNUSABLE)
        own, replaced_by, why = "", "", ""
        for check in self.checks:
            verdict = check.review(replace(context, sent_back=self.sent_back[check.name]))
            if verdict.kind is VerdictKind.ACCEPT and verdict.answer is not None and self.admits(verdict.answer):
                own = own or context.answer
                replaced_by, why = check.name, verdict.note
                context = context.with_answer(verdict.answer)
            elif verdict.kind is VerdictKind.SEND_BACK:
                self.sent_back[check.name] += 1
                step = Step(number, StepKind.REJECTED, reply, decision, verdict.note, False, check=check.name)
                return StepOutcome(step)
            elif verdict.kind is VerdictKind.RUN_TOOL:
                return actor.run_own(number, reply, verdict.tool, dict(verdict.args), verdict.note, check.name)
            elif verdict.kind is VerdictKind.STOP:
                model_answer = ""
                if verdict.answer is not None and self.admits(verdict.answer):  # it stands, as unsure; the model's kept
                    own, context = own or context.answer, context.with_answer(verdict.answer)
                    model_answer = own if own != verdict.answer else ""
                step = Step(number, StepKind.REJECTED, reply, decision, verdict.note, False, check=check.name)
                answer = context.answer if written or own else ""  # an unsure answer still shows
                return StepOutcome(step, verdict.reason, answer, model_answer=model_answer, detail=verdict.note)
        answer = context.answer
        if written and not written[0].usable and not own and stand is not None:  # the stand-in is the answer
            own, replaced_by, why = written[0].answer, by, UNUSABLE
            if not stand.final:  # "Wrote 5 characters": that the task is done is unsure
                step = Step(number, StepKind.REJECTED, reply, decision, UNUSABLE, False, check=replaced_by)
                return StepOutcome(step, StopReason.UNVERIFIED, answer, model_answer=own, detail=UNUSABLE)
        model_answer = own if own != answer else ""
        note = f"{why}: {answer}" if model_answer else ""
        step = Step(number, StepKind.FINISH, reply, decision, note, check=replaced_by if note else "")
        return StepOutcome(step, StopReason.FINISHED, answer, model_answer=model_answer)

    def _stand_in(self, steps: Sequence[Step]) -> tuple[StandIn | None, str]:
        """The first advisor's stand-in for a draft that is no answer, and the advisor's name."""
        for advisor in self.advisors:
            stand = advisor.stand_in(steps)
            if stand is not None:
                return stand, advisor.name
        return None, ""
