"""Typed records of a run: each step, why the run stopped, what it used."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from langchain_core.messages import BaseMessage

from .reply import Action, ThoughtAndAction


class StepKind(str, Enum):
    """What happened in a step."""

    ACTION = "action"  # a tool ran (or was refused) and gave an observation
    PARSE_ERROR = "parse_error"  # the reply could not be parsed; the model was told why
    REPEATED = "repeated"  # the action repeated an earlier one; the model was asked to rethink
    FINISH = "finish"  # the model chose FINISH
    REJECTED = "rejected"  # not taken (an unearned finish, a rewrite of a file just written); the model was told why


class StopReason(str, Enum):
    """Why a run ended."""

    FINISHED = "finished"
    MAX_STEPS = "max_steps"
    LOOP_DETECTED = "loop_detected"
    UNPARSEABLE = "unparseable"
    STEP_FAILED = "step_failed"
    UNVERIFIED = "unverified"
    BUDGET = "budget"
    ERROR = "error"
    INTERRUPTED = "interrupted"

    def describe(self) -> str:
        """A short sentence for people."""
        return {
            StopReason.FINISHED: "the task was finished",
            StopReason.MAX_STEPS: "the step limit was reached before the task was finished",
            StopReason.LOOP_DETECTED: "loop detected: the model kept repeating the same action",
            StopReason.UNPARSEABLE: "the model's replies could not be parsed",
            StopReason.STEP_FAILED: "a step failed",
            StopReason.UNVERIFIED: "the answer was not verified",
            StopReason.BUDGET: "a budget was spent",
            StopReason.ERROR: "the model or a service it needs failed",
            StopReason.INTERRUPTED: "the run was interrupted",
        }[self]


@dataclass(frozen=True)
class Step:
    """One turn of the loop: the model's reply, what it decided, and what it observed."""

    number: int
    kind: StepKind
    reply: str
    decision: ThoughtAndAction | None
    observation: str
    success: bool = True
    seconds: float = 0.0
    input_tokens: int = 0  # sent to the model for this step (reported, else estimated)
    output_tokens: int = 0
    check: str = ""  # the check whose verdict made this step what it is (sent back, a tool it ran, a new answer)
    in_reply_of: int = 0  # the earlier step whose reply made this call too (native tool calling); 0: its own
    sub_run: SubRun | None = None  # the run of the sub-agent this step called (autoagent/subagents/)
    changed: tuple[str, ...] | None = None  # workspace files the call changed, where its tool says (Effects)
    model: str = ""  # the model that answered, where it was not the run's own (a fallback); "" for the run's own

    @property
    def action(self) -> Action | None:
        """The action the model chose, if its reply parsed."""
        return self.decision.action if self.decision else None


def ran(steps: Sequence[Step]) -> list[Step]:
    """The steps whose tool actually ran (successfully or not)."""
    return [step for step in steps if step.kind is StepKind.ACTION]


@dataclass(frozen=True)
class StepOutcome:
    """What one turn of the loop gave: the step, why the run must end (None: it goes on), and the final answer
    when the step ended the task (written and checked before the finish is accepted), with the model's own answer
    where a check put another in its place."""

    step: Step
    stop: StopReason | None = None
    answer: str = ""
    detail: str = ""  # what exactly ended the run, for people
    waited: float = 0.0  # seconds the user took to answer an approval prompt: not the step's time
    model_answer: str = ""

    @property
    def ending(self) -> Ending | None:
        """How the run ends after this step, or None: it goes on."""
        return Ending(self.stop, self.detail, self.answer, self.model_answer) if self.stop is not None else None


@dataclass(frozen=True)
class Ending:
    """How a run ended: why, what exactly, and the answer its last step came to (empty: one is written for it)."""

    stop: StopReason
    detail: str = ""
    answer: str = ""
    model_answer: str = ""


@dataclass
class Usage:
    """Tokens the model reported over a run (zero when it reports none)."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    estimated: bool = False  # some call reported no usage, so its tokens were estimated
    cost_usd: float | None = None  # None when the model's price is unknown

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def add(self, message: BaseMessage) -> None:
        """Count one model call and the tokens its reply reports."""
        self.calls += 1
        reported = getattr(message, "usage_metadata", None)
        if reported:
            self.input_tokens += reported["input_tokens"]
            self.output_tokens += reported["output_tokens"]


    def absorb(self, other: Usage) -> None:
        """Count `other` (a sub-agent's usage) in this one; its cost too, where both prices are known."""
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.estimated = self.estimated or other.estimated
        if self.cost_usd is not None and other.cost_usd is not None:
            self.cost_usd += other.cost_usd


@dataclass
class RunResult:
    """Everything about a finished or stopped run, inspectable from Python."""

    task: str
    run_id: str = ""  # the transcript's id, `autoagent --resume` takes it
    answer: str = ""
    stop_reason: StopReason = StopReason.INTERRUPTED
    stop_detail: str = ""  # what exactly went wrong, when the reason alone does not say
    steps: list[Step] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    model_answer: str = ""  # the model's own answer, where a check put another in its place
    output: Any = None  # with an output type: the answer's value, as that type (a finished run's)
    summary: str = ""  # compaction: the steps that left the window, told (autoagent/loop/compaction.py)
    summarized: int = 0  # the last step the summary tells

    @property
    def finished(self) -> bool:
        """True when the model finished the task (not stopped at a limit)."""
        return self.stop_reason is StopReason.FINISHED

    def describe_stop(self) -> str:
        """The stop reason for people, with its detail when there is one."""
        reason = self.stop_reason.describe()
        return f"{reason}: {self.stop_detail}" if self.stop_detail else reason


@dataclass(frozen=True)
class SubRun:
    """A sub-agent's whole run, kept in the step of its caller that called it: `agent` is its tool's name."""

    agent: str
    run: RunResult
