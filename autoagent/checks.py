"""Checks of a drafted final answer, a public interface (as smolagents' `final_answer_checks` and openai-agents'
output guardrails): a check sees the task, the steps and the draft, and returns a typed verdict."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .errors import ConfigurationError
from .steps import Step, StopReason

ENTRY_POINT_GROUP = "autoagent.checks"  # installed packages add checks under this group, as tools under theirs


class VerdictKind(str, Enum):
    """What a check says of a drafted answer."""

    ACCEPT = "accept"  # the answer stands (or, with `answer`, this one stands in for it; the model's is kept)
    SEND_BACK = "send_back"  # not yet: the model reads `note` and the run goes on
    RUN_TOOL = "run_tool"  # not yet: the agent runs `tool` with `args` first, then the model goes on
    STOP = "stop"  # the run ends with `reason` (unverified by default), the draft shown as unsure
    FINISH = "finish"  # of an action only (an advisor's verdict): the call means the task is done, a finish


@dataclass(frozen=True)
class Verdict:
    """A check's word on a drafted answer; build one with `accept`, `send_back`, `run_tool` or `stop`."""

    kind: VerdictKind
    note: str = ""  # what the model reads (send back), the thought of the agent's own step (run tool), or why
    tool: str = ""
    args: Mapping[str, Any] = field(default_factory=dict)
    answer: str | None = None  # an answer that replaces the draft (accepted, or shown as unsure by a stop)
    reason: StopReason = StopReason.UNVERIFIED

    @classmethod
    def accept(cls, answer: str | None = None, why: str = "") -> Verdict:
        """The draft stands, or `answer` in its place (`why` says why, for the transcript)."""
        return cls(VerdictKind.ACCEPT, note=why, answer=answer)

    @classmethod
    def send_back(cls, note: str) -> Verdict:
        """Not finished yet: the model reads `note` as the step's observation."""
        return cls(VerdictKind.SEND_BACK, note=note)

    @classmethod
    def run_tool(cls, tool: str, args: Mapping[str, Any], thought: str = "") -> Verdict:
        """Not finished yet: the agent calls `tool` with `args` itself (`thought` is that step's thought)."""
        return cls(VerdictKind.RUN_TOOL, note=thought, tool=tool, args=dict(args))

    @classmethod
    def stop(cls, why: str, reason: StopReason = StopReason.UNVERIFIED, answer: str | None = None) -> Verdict:
        """The run ends now, for `reason`, with the draft (or `answer` in its place) shown as unsure."""
        return cls(VerdictKind.STOP, note=why, answer=answer, reason=reason)

    @classmethod
    def finish(cls, why: str = "") -> Verdict:
        """Of an action (an advisor's verdict): the call says the task is done, and is taken as a finish."""
        return cls(VerdictKind.FINISH, note=why)

    @property
    def changes_course(self) -> bool:
        """True for every verdict but a plain accept: the transcript records it as a step."""
        return self.kind is not VerdictKind.ACCEPT or self.answer is not None


Draw = Callable[[str, int, int, int], Sequence[str]]  # (prompt, count, max_tokens, first_seed) -> replies


@dataclass(frozen=True)
class CheckContext:
    """What a check sees: the task, the run's steps so far, the drafted answer (written when first read) and the
    toolbox's tool names; `CheckContext.of` builds one around a given answer."""

    task: str
    steps: Sequence[Step]
    draft: Callable[[], str] = field(repr=False, compare=False)
    tools: Sequence[str] = ()
    sent_back: int = 0  # how often this check already sent this run back: a check may give up after one
    sample: Callable[[int], Sequence[str]] = field(default=lambda count: (), repr=False, compare=False)
    sample_reply: Callable[[str, int], Sequence[str]] = field(default=lambda question, count: (), repr=False,
                                                              compare=False)
    draw_replies: Draw = field(default=lambda prompt, count, max_tokens, first_seed: (), repr=False, compare=False)

    @classmethod
    def of(cls, task: str, steps: Sequence[Step], answer: str, tools: Sequence[str] = ()) -> CheckContext:
        """A context whose drafted answer is `answer` (for a check's own tests, say)."""
        return cls(task, steps, lambda: answer, tools)

    @cached_property
    def answer(self) -> str:
        """The drafted final answer (the finish prompt is asked for it on first read)."""
        return self.draft()

    def samples(self, count: int) -> list[str]:
        """`count` short answers the model gives to the task from the same results, each drawn at a temperature
        with its own seed (for self-consistency: see autoagent.consistency); the same ones however often asked,
        and empty where the run cannot draw them (a context built by `of`)."""
        return list(self.sample(count))[:count]

    def ask(self, question: str, count: int) -> list[str]:
        """`count` short replies the model gives to `question`, asked after the task and the tools' results (does
        the task ask for a change?), each drawn at a temperature with its own seed; empty where the run cannot draw
        them."""
        return list(self.sample_reply(question, count))[:count]

    def draw(self, prompt: str, count: int, max_tokens: int, first_seed: int = 1) -> list[str]:
        """`count` replies of the model to `prompt` of your own, of at most `max_tokens` tokens each, drawn at a
        temperature with the seeds from `first_seed` on (the same ones for the same prompt and seed within a
        finish); empty where the run cannot draw them."""
        return list(self.draw_replies(prompt, count, max_tokens, first_seed))[:count]

    def with_answer(self, answer: str) -> CheckContext:
        """The same context with `answer` as the draft (a check put it in place of the model's)."""
        return replace(self, draft=lambda: answer)


@runtime_checkable
class Check(Protocol):
    """A check: called with a CheckContext, it returns a Verdict (None or True: accept; False: send back)."""

    def __call__(self, context: CheckContext) -> Verdict | bool | None: ...


@dataclass(frozen=True)
class NamedCheck:
    """A check and the name the transcript gives its verdicts (a function's name, unless given)."""

    name: str
    check: Callable[[CheckContext], Verdict | bool | None]

    def __call__(self, context: CheckContext) -> Verdict:
        """The verdict, as `review` gives it: a NamedCheck is a check too."""
        return self.review(context)

    def review(self, context: CheckContext) -> Verdict:
        """The check's verdict on `context`, with a bare True/None/False read as accept/accept/send back."""
        said = self.check(context)
        if isinstance(said, Verdict):
            return said
        if said is None or said is True:
            return Verdict.accept()
        if said is False:
            return Verdict.send_back(f"the check {self.name} did not accept this answer")
        raise TypeError(f"check {self.name} returned {type(said).__name__}, not a Verdict, bool or None")


def named(check: Callable[[CheckContext], Verdict | bool | None] | NamedCheck) -> NamedCheck:
    """`check` with its name: a NamedCheck as it is, else the callable's `name` or `__name__`."""
    if isinstance(check, NamedCheck):
        return check
    name = getattr(check, "name", None) or getattr(check, "__name__", None) or type(check).__name__
    return NamedCheck(str(name), check)


def load_checks_module(path: Path) -> list[NamedCheck]:
    """The checks a Python file defines: its `CHECKS` list (callables or NamedChecks)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"autoagent_checks_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ConfigurationError(f"cannot load checks from {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # the user's code: one line naming the file, not a traceback
        raise ConfigurationError(f"cannot load checks from {path}: {type(err).__name__}: {err}") from err
    checks = getattr(module, "CHECKS", None)
    if not isinstance(checks, (list, tuple)) or not all(callable(check) for check in checks):
        raise ConfigurationError(f"{path} defines no CHECKS list of callables")
    return [named(check) for check in checks]


def entry_point_checks() -> list[NamedCheck]:
    """The checks installed packages add under the `autoagent.checks` entry-point group (a callable each)."""
    checks = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
        except Exception as err:  # an installed package's bug: one line naming it
            raise ConfigurationError(f"cannot load the check {point.name!r} ({point.value}): {err}") from err
        checks.append(named(NamedCheck(point.name, loaded) if callable(loaded) else loaded))
    return checks
