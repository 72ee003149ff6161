"""The loop's side of what a run tells the outside: its `Emitter` publishes one stream of typed events
(autoagent/run_events.py) to every consumer: an observer (autoagent/events.py), a stream's reader, the emitter of the
run that called this one as a sub-agent (`Relay`); `ReplyText` hands it a streaming model's text."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from ..events import Consumer, ObserverConsumer, Published, RunObserver
from ..run_events import (
    AnswerGiven,
    ApprovalAnswered,
    ApprovalAsked,
    Finishing,
    ModelCallEnded,
    ModelCallStarted,
    PlanMade,
    Remembering,
    ReplyDelta,
    RunEnded,
    RunEvent,
    RunStarted,
    StepCompleted,
    SummaryMade,
    ToolEnded,
    ToolStarted,
    WarningRaised,
)
from ..run_json import jsonable, output_to_json, step_to_json, usage_to_json

if TYPE_CHECKING:
    from ..reply import Action, ThoughtAndAction
    from ..steps import RunResult, Step


class Emitter(RunObserver):
    """The loop's side of the event stream: each call it makes of an observer's method becomes one typed event
    (autoagent/run_events.py), stamped with the run's id, the path of agents, the step and the time, and handed to
    each consumer in order: an observer through `ObserverConsumer`, a stream's queue, another run's emitter (a
    sub-agent's events go on in its caller's stream, nested)."""

    def __init__(self, consumers: Sequence[Consumer] = (), agents: tuple[str, ...] = (), run_id: str = "",
                 agent: str = "") -> None:
        self.consumers = list(consumers)
        self.agent = agent  # the name of the agent whose run this is
        self.agents = agents  # the sub-agents from the agent given the task down to this run's: () for its own
        self.run_id = run_id
        self.step = self.completed = 0  # the step under way, and the last one completed

    def publish(self, kind: type[RunEvent], source: Any = None, /, **fields: Any) -> None:
        """An event of `kind` with `fields`, stamped, to every consumer (none: no event is made); `source` is the
        live object observers are given. Built from the loop's own values, unvalidated, to keep a step cheap."""
        if not self.consumers:
            return
        published = Published(kind, {"run_id": self.run_id, "agents": list(self.agents), "step": self.step,
                                     "time": time.time(), **fields}, source)
        for consumer in self.consumers:
            consumer(published)

    def relay(self, published: Published) -> None:
        """A consumer for the run of a sub-agent this run called: its events, under this run's id and path."""
        fields = {**published.fields, "run_id": self.run_id, "agents": [*self.agents, *published.fields["agents"]]}
        relayed = Published(published.kind, fields, published.source)
        for consumer in self.consumers:
            consumer(relayed)

    def nested(self, agent: str, depth: int) -> Emitter:
        """The emitter the run of sub-agent `agent` relays its events to: this run's consumers hear them nested."""
        return Emitter(self.consumers, (*self.agents, agent), self.run_id)

    @property
    def wants_reply_text(self) -> bool:  # type: ignore[override]
        """Whether any consumer reads the reply's text as it streams."""
        return any(getattr(consumer, "wants_reply_text", False) for consumer in self.consumers)

    def callbacks(self, parent: UUID | None = None) -> list[BaseCallbackHandler]:
        """The LangChain callback that publishes a streaming reply's pieces, where a consumer wants them; `parent` is
        the LangChain run the run's own model calls are made under (a sub-agent's: its tool call's)."""
        return [ReplyText(self, parent)] if self.wants_reply_text else []

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        self.run_id = self.run_id if self.agents else run.run_id
        self.step = self.completed = run.steps[-1].number if run.steps else 0
        self.publish(RunStarted, run, agent=self.agent, task=run.task, max_steps=max_steps,
                     resumed_steps=len(run.steps))

    def on_thinking(self, number: int, max_steps: int) -> None:
        self.step = number
        self.publish(ModelCallStarted, None, last_step=max_steps)

    def on_plan(self, plan: list[str]) -> None:
        self.publish(PlanMade, plan, plan=plan)

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        self.step = max(self.step, self.completed + 1)  # plan mode: no model call began the step
        if self.consumers:  # the arguments in plain JSON types: made only for someone to read
            thought = decision.thought.text if decision is not None else ""
            self.publish(ToolStarted, (action, decision), tool=action.name, args=jsonable(action.args),
                         thought=thought)

    def on_approval_asked(self, tool: str, args: dict[str, Any]) -> None:
        if self.consumers:
            self.publish(ApprovalAsked, args, tool=tool, args=jsonable(args))

    def on_approval_answered(self, tool: str, allowed: bool, feedback: str = "") -> None:
        self.publish(ApprovalAnswered, None, tool=tool, allowed=allowed, feedback=feedback)

    def on_tool_end(self, action: Action, success: bool, result: str) -> None:
        self.publish(ToolEnded, action, tool=action.name, success=success, result=result)

    def on_reply_text(self, text: str) -> None:
        self.publish(ReplyDelta, None, text=text)

    def on_model_call_end(self, model: str, tokens: tuple[int, int], seconds: float, finish_reason: str,
                          estimated: bool) -> None:
        self.publish(ModelCallEnded, None, model=model, input_tokens=tokens[0], output_tokens=tokens[1],
                     estimated=estimated, finish_reason=finish_reason, seconds=seconds)

    def on_step(self, step: Step) -> None:
        self.step = self.completed = step.number
        if self.consumers:  # the step's --json form, without its number and a sub-agent's run
            shown = step_to_json(step)
            shown.pop("sub_run", None)
            del shown["number"]
            self.publish(StepCompleted, step, **shown)

    def on_summary(self, text: str, through: int) -> None:
        self.publish(SummaryMade, None, through_step=through, text=text)

    def on_warning(self, message: str) -> None:
        if not self.consumers:  # nobody to tell: the log still says it
            logging.getLogger("autoagent").warning(message)
        self.publish(WarningRaised, None, message=message)

    def on_finishing(self, run: RunResult) -> None:
        self.publish(Finishing, run, stop_reason=run.stop_reason.value)

    def on_answer(self, run: RunResult) -> None:
        self.publish(AnswerGiven, run, answer=run.answer, finished=run.finished, stop_reason=run.stop_reason.value,
                     model_answer=run.model_answer)

    def on_remembering(self, run: RunResult) -> None:
        self.publish(Remembering, run)

    def on_run_end(self, run: RunResult) -> None:
        self.publish(RunEnded, run, stop_reason=run.stop_reason.value, stop_detail=run.stop_detail, answer=run.answer,
                     finished=run.finished, steps=len(run.steps), seconds=round(run.seconds, 3),
                     usage=usage_to_json(run.usage),
                     output=output_to_json(run.output) if run.output is not None else None)


class Relay:
    """The consumer through which a sub-agent's run reaches its caller's emitter (and its readers)."""

    def __init__(self, caller: Emitter) -> None:
        self.caller = caller

    def __call__(self, published: Published) -> None:
        self.caller.relay(published)

    @property
    def wants_reply_text(self) -> bool:
        return self.caller.wants_reply_text


def consumer_of(observer: RunObserver) -> Consumer:
    """How `observer` hears a run: a caller's emitter relays the events; any other observer hears them as calls."""
    return Relay(observer) if isinstance(observer, Emitter) else ObserverConsumer(observer)


class ReplyText(BaseCallbackHandler):
    """A LangChain callback that hands a streaming model's pieces of text to the run's emitter: only those of the
    run's own calls (a sub-agent's calls, which inherit it, are told by the sub-agent's own, nested)."""

    def __init__(self, emitter: Emitter, parent: UUID | None = None) -> None:
        self.emitter, self.parent = emitter, parent

    def on_llm_new_token(self, token: str | list[str | dict[str, Any]], *, parent_run_id: UUID | None = None,
                         **kwargs: Any) -> None:
        if parent_run_id != self.parent:
            return
        if isinstance(token, list):  # content blocks
            token = "".join(part if isinstance(part, str) else str(part.get("text", "")) for part in token)
        if token:
            self.emitter.on_reply_text(token)
