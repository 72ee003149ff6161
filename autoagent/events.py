"""What a run tells the outside, as its observers hear it: `RunObserver` (the methods an observer overrides), and how
the stream the loop's emitter publishes (autoagent/loop/emitter.py) reaches one: each `Published` event goes to the
observer's `on_event` as typed data (autoagent/run_events.py), then to the method of its type, through
`ObserverConsumer`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .run_events import RunEvent

if TYPE_CHECKING:
    from .reply import Action, ThoughtAndAction
    from .steps import RunResult, Step


class RunObserver:
    """Receives a run's events in order; override the ones you need (each does nothing by default): `on_event`
    hears every one as typed data (autoagent/run_events.py), then the method of its type hears it with the live
    objects.

    start → (thinking → model call end → [tool start → [approval asked → answered] → tool end] → step)* →
    finishing → answer → [remembering] → end, with warnings anywhere between and a model call's end after every
    other call too; a run that fails or is interrupted goes from where it was to [remembering] and end.
    Plan mode: start → thinking → plan → (tool start → tool end → step)* → end.
    Observers must not raise: an observer's failure is our bug, and it would stop the run.
    """

    wants_reply_text = False  # True: the run's model calls stream their text to this observer (reply_delta)

    def on_event(self, event: RunEvent) -> None:
        """Any event of the run, as plain data, before the method of its type; a sub-agent's too (its `agents`
        says whose), whatever `nested` gives."""

    def on_run_start(self, run: RunResult, max_steps: int) -> None:
        """A run begins (`run.steps` already holds the steps of a resumed run)."""

    def on_thinking(self, number: int, max_steps: int) -> None:
        """The model is about to be called for step `number`."""

    def on_plan(self, plan: list[str]) -> None:
        """Plan mode only: the tool chain the model planned, before it runs."""

    def on_tool_start(self, action: Action, decision: ThoughtAndAction | None = None) -> None:
        """The model's reply was read and its tool is about to run (and may ask for approval first);
        `decision` holds the thought behind it, when there is one."""

    def on_approval_asked(self, tool: str, args: dict[str, Any]) -> None:
        """Someone is asked whether the call of `tool` may run (no policy or earlier answer allowed it)."""

    def on_approval_answered(self, tool: str, allowed: bool, feedback: str) -> None:
        """The answer to that question; `feedback` is what the user told the model instead, where they did."""

    def on_tool_end(self, action: Action, success: bool, result: str) -> None:
        """The tool ran, or was refused or failed (`result`: what the model reads); its step comes next."""

    def on_reply_text(self, text: str) -> None:
        """A piece of the reply the model is writing, where it streams; heard only by an observer whose
        `wants_reply_text` is true (the pieces cost each model call a callback)."""

    def on_model_call_end(self, model: str, tokens: tuple[int, int], seconds: float, finish_reason: str,
                          estimated: bool) -> None:
        """A model call of the run came back (a step's, the final answer's, a check's): the (input, output)
        tokens it used, estimated where the model reported none."""

    def on_step(self, step: Step) -> None:
        """A step is complete: thought, action and observation."""

    def on_summary(self, text: str, through: int) -> None:
        """The steps up to `through` left the model's view; `text` tells them from now on (compaction)."""

    def on_warning(self, message: str) -> None:
        """Something the user should know now (a budget at 80%, a retry)."""

    def on_finishing(self, run: RunResult) -> None:
        """The steps are over (`run.stop_reason` says why); the final answer is being made, maybe by the model."""

    def on_answer(self, run: RunResult) -> None:
        """`run.answer` holds the final answer (maybe empty); what follows is bookkeeping."""

    def on_remembering(self, run: RunResult) -> None:
        """The run is being summarised into long-term memory (a model call)."""

    def on_run_end(self, run: RunResult) -> None:
        """The run ended (finished, stopped or interrupted); `run` holds the answer and usage."""

    def nested(self, agent: str, depth: int) -> RunObserver | None:
        """The observer of a sub-agent's run, called as `agent` at `depth` (1: by the top agent) while a step of
        this run waits on it; None (the default) hears none of it (the step's `sub_run` keeps it whole)."""
        return None


class Published:
    """One event as the emitter hands it on: its kind, its fields and the live object behind it (a Step, the
    RunResult). The typed event itself is made when first read, once, for all who read it: a run heard only by the
    observers' typed methods (the display, the transcript) makes none."""

    __slots__ = ("_event", "fields", "kind", "source", "type")

    def __init__(self, kind: type[RunEvent], fields: dict[str, Any], source: Any) -> None:
        self.kind, self.fields, self.source = kind, fields, source
        self.type: str = _TYPES.setdefault(kind, kind.model_fields["type"].default)
        self._event: RunEvent | None = None

    @property
    def event(self) -> RunEvent:
        """The typed event (unvalidated: the loop's own values)."""
        if self._event is None:
            self._event = self.kind.model_construct(**self.fields)
        return self._event


_TYPES: dict[type[RunEvent], str] = {}
Consumer = Callable[[Published], None]

_HEARD: dict[str, Callable[[RunObserver, dict[str, Any], Any], None]] = {  # each type: the observer's method
    "run_started": lambda observer, fields, run: observer.on_run_start(run, fields["max_steps"]),
    "model_call_started": lambda observer, fields, _: observer.on_thinking(fields["step"], fields["last_step"]),
    "plan_made": lambda observer, _, plan: observer.on_plan(plan),
    "tool_started": lambda observer, _, called: observer.on_tool_start(*called),
    "approval_asked": lambda observer, fields, args: observer.on_approval_asked(fields["tool"], args),
    "approval_answered": lambda observer, fields, _: observer.on_approval_answered(
        fields["tool"], fields["allowed"], fields["feedback"]),
    "tool_ended": lambda observer, fields, action: observer.on_tool_end(action, fields["success"], fields["result"]),
    "reply_delta": lambda observer, fields, _: observer.on_reply_text(fields["text"]),
    "model_call_ended": lambda observer, fields, _: observer.on_model_call_end(
        fields["model"], (fields["input_tokens"], fields["output_tokens"]), fields["seconds"],
        fields["finish_reason"], fields["estimated"]),
    "step_completed": lambda observer, _, step: observer.on_step(step),
    "summary_made": lambda observer, fields, _: observer.on_summary(fields["text"], fields["through_step"]),
    "warning": lambda observer, fields, _: observer.on_warning(fields["message"]),
    "finishing": lambda observer, _, run: observer.on_finishing(run),
    "answer": lambda observer, _, run: observer.on_answer(run),
    "remembering": lambda observer, _, run: observer.on_remembering(run),
    "run_ended": lambda observer, _, run: observer.on_run_end(run),
}


class ObserverConsumer:
    """An observer as a consumer of the stream: each event goes to its `on_event` (its sub-agents' too, with their
    path), then to the method of its type with the live object; for a sub-agent's event that is the method of the
    observer its `nested` gives for that agent (a fresh one for each run of it), or none when that is None."""

    def __init__(self, observer: RunObserver) -> None:
        self.observer = observer
        self.reads_events = type(observer).on_event is not RunObserver.on_event  # else no typed event is made
        self.wants_reply_text = observer.wants_reply_text
        self._below: dict[tuple[str, ...], RunObserver | None] = {(): observer}

    def __call__(self, published: Published) -> None:
        path = tuple(published.fields["agents"])
        if path and published.type == "run_started":  # a sub-agent's new run: its own observer
            self._below = {below: heard for below, heard in self._below.items() if below[:len(path)] != path}
        if self.reads_events:
            self.observer.on_event(published.event)
        observer = self._heard_at(path)
        if observer is not None:
            _HEARD[published.type](observer, published.fields, published.source)

    def _heard_at(self, path: tuple[str, ...]) -> RunObserver | None:
        if path not in self._below:
            above = self._heard_at(path[:-1])
            self._below[path] = above.nested(path[-1], len(path)) if above is not None else None
        return self._below[path]
