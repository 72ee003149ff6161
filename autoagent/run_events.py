"""A run's typed events: plain data (pydantic models), one JSON object each, in the order the run makes them. They are
what `agent.stream()`, `agent.astream()` and `autoagent --events jsonl` give, and what every `RunObserver` hears
(autoagent/events.py: the loop publishes each event once; the display, the transcript and a script all read it).

Every event carries `version` (of this form: a field is only ever added within a version), `type`, `run_id`, `agents`
(the path of sub-agents from the agent given the task down to the one whose event it is; [] for that agent's own),
`step` (the number of the step it belongs to; 0 before the first) and `time` (seconds since the epoch). The order:

    run_started → (model_call_started → reply_delta* → model_call_ended → [tool_started → [approval_asked →
    approval_answered] → tool_ended] → step_completed)* → finishing → answer → [remembering] → run_ended

with `warning` anywhere, and `model_call_ended` (after its `reply_delta`s) after every other model call too (the
final answer's, a check's); `reply_delta` only where the model streams and a reader asks for it;
plan mode gives `plan_made` after its one model call, and `tool_started`, `tool_ended` and `step_completed` per
planned call. A run that fails or is interrupted goes from where it was to `run_ended`."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

EVENTS_VERSION = 1


class RunEvent(BaseModel):
    """What every event carries."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = EVENTS_VERSION
    type: str
    run_id: str = ""
    agents: list[str] = Field(default_factory=list)
    step: int = 0
    time: float = 0.0


class RunStarted(RunEvent):
    """A run begins; a resumed run counts the steps it goes on from."""

    type: Literal["run_started"] = "run_started"
    agent: str = ""  # its name
    task: str
    max_steps: int
    resumed_steps: int = 0


class ModelCallStarted(RunEvent):
    """The model is called for step `step` (of at most `last_step`)."""

    type: Literal["model_call_started"] = "model_call_started"
    last_step: int


class ReplyDelta(RunEvent):
    """A piece of the model's reply as it writes it, where the model streams (only to readers that ask for it:
    `agent.stream()`, `--events jsonl`)."""

    type: Literal["reply_delta"] = "reply_delta"
    text: str


class ModelCallEnded(RunEvent):
    """A model call of the run came back (a step's, the final answer's, a check's): which model, the tokens it used
    (`estimated` where the model reported none), why it stopped writing, and how long it took."""

    type: Literal["model_call_ended"] = "model_call_ended"
    model: str
    input_tokens: int
    output_tokens: int
    estimated: bool = False
    finish_reason: str = ""
    seconds: float


class PlanMade(RunEvent):
    """Plan mode: the tool chain the model planned, before it runs."""

    type: Literal["plan_made"] = "plan_made"
    plan: list[str]


class ToolStarted(RunEvent):
    """A tool is about to run (and may ask for approval first), with the thought behind the call."""

    type: Literal["tool_started"] = "tool_started"
    tool: str
    args: dict[str, Any]
    thought: str = ""


class ApprovalAsked(RunEvent):
    """Someone is asked whether the call may run (no policy or earlier answer allowed it)."""

    type: Literal["approval_asked"] = "approval_asked"
    tool: str
    args: dict[str, Any]


class ApprovalAnswered(RunEvent):
    """The answer: allowed, or refused (with the feedback the model reads, where one was given)."""

    type: Literal["approval_answered"] = "approval_answered"
    tool: str
    allowed: bool
    feedback: str = ""


class ToolEnded(RunEvent):
    """The tool ran (or was refused, or failed): whether it succeeded, and what the model reads of it."""

    type: Literal["tool_ended"] = "tool_ended"
    tool: str
    success: bool
    result: str = ""


class StepCompleted(RunEvent):
    """A step is complete: the `--json` form of a step (docs/reference/json.md), without a sub-agent's run (its own
    events said it, nested)."""

    type: Literal["step_completed"] = "step_completed"
    kind: str
    thought: str | None
    action: dict[str, Any] | None
    observation: str
    success: bool
    seconds: float
    input_tokens: int
    output_tokens: int
    check: str = ""
    model: str = ""  # the fallback model that answered, where one did


class SummaryMade(RunEvent):
    """The steps up to `through_step` left the model's view: the running summary that tells them now."""

    type: Literal["summary_made"] = "summary_made"
    through_step: int
    text: str


class WarningRaised(RunEvent):
    """Something the user should know now (a budget at 80%, a retried model call)."""

    type: Literal["warning"] = "warning"
    message: str


class Finishing(RunEvent):
    """The steps are over; the final answer is being made, maybe by the model."""

    type: Literal["finishing"] = "finishing"
    stop_reason: str


class AnswerGiven(RunEvent):
    """The final answer (maybe empty): `finished` false is an answer the run is unsure of."""

    type: Literal["answer"] = "answer"
    answer: str
    finished: bool
    stop_reason: str
    model_answer: str = ""


class Remembering(RunEvent):
    """The run is being summarised into long-term memory (a model call)."""

    type: Literal["remembering"] = "remembering"


class RunEnded(RunEvent):
    """The run ended, finished or not: why, its answer, the steps it made, its wall time and its usage."""

    type: Literal["run_ended"] = "run_ended"
    stop_reason: str
    stop_detail: str = ""
    answer: str
    finished: bool
    steps: int
    seconds: float
    usage: dict[str, Any]
    output: Any = None  # with an output type: a finished run's value (autoagent/typed_output.py)


AnyEvent = Annotated[
    RunStarted | ModelCallStarted | ReplyDelta | ModelCallEnded | PlanMade | ToolStarted | ApprovalAsked
    | ApprovalAnswered | ToolEnded | StepCompleted | SummaryMade | WarningRaised | Finishing | AnswerGiven
    | Remembering | RunEnded,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent)


def event_from_json(text: str | bytes) -> RunEvent:
    """An event read back from its JSON form (a line of `--events jsonl`)."""
    return EVENT_ADAPTER.validate_json(text)


def events_schema() -> dict[str, Any]:
    """The JSON Schema of an event (any type)."""
    return EVENT_ADAPTER.json_schema()


def event_line(event: RunEvent) -> str:
    """One event as one line of JSON, non-ASCII kept as it is."""
    return json.dumps(event.model_dump(mode="json"), ensure_ascii=False)
