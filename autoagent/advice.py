"""Advisors, a public interface: policies that help a run along, with one hook per stage of a turn. Before the model
is called an advisor may add notes to the prompt and hold the reply to a constraint; it may give a verdict on an
action, and on a finish (as a check does); it may stand in an answer for a draft that is none, and mend the answer
of a run that stopped. Advisors compose in order; the coach (autoagent/coach/) is one. Each verdict that changes a
run's course is a step of the transcript naming its advisor.

From Python: `AgentOptions(advisors=[MyAdvisor()])`; from an installed package: the `autoagent.advisors` entry-point
group (an Advisor, or a callable returning one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from .checks import CheckContext, NamedCheck, Verdict
from .errors import ConfigurationError
from .steps import Step

if TYPE_CHECKING:
    from .acting.toolbox import Toolbox
    from .llm.profile import ModelProfile
    from .prompts import PromptTemplateBuilder
    from .reply import ThoughtAndAction

ENTRY_POINT_GROUP = "autoagent.advisors"


@dataclass(frozen=True)
class ReplyConstraint:
    """What the next reply is held to, where the protocol and the backend can hold it (constrained decoding): a tool
    call whose thought begins with `thought_start`, whose arguments take one of `takes`, whose tool is not `avoid`
    (is `only`, when given)."""

    thought_start: str
    takes: tuple[str, ...] = ()
    avoid: str = ""
    only: str = ""


@dataclass(frozen=True)
class Advice:
    """What advisors add to one turn: notes for the prompt, a constraint on the reply, how the reply is drawn."""

    mentions: tuple[str, ...] = ()  # what the task gives that no step has used yet: the step instruction names it
    after_task: str = ""  # shown right after the task (the workspace's files as the run began, say)
    constraint: ReplyConstraint | None = None
    redraw: bool = False  # the reply is drawn at a temperature, seeded by the step before

    def then(self, other: Advice | None) -> Advice:
        """This advice and `other`'s after it: notes joined, the first constraint kept, a redraw if either asks."""
        if other is None:
            return self
        after = "\n\n".join(text for text in (self.after_task, other.after_task) if text)
        return Advice(self.mentions + tuple(item for item in other.mentions if item not in self.mentions), after,
                      self.constraint or other.constraint, self.redraw or other.redraw)


@dataclass(frozen=True)
class StandIn:
    """An answer that stands in for a drafted final answer that is none (the reply format, a call written out):
    once every check accepts it, it is the run's answer when `final`, else it is shown as unsure."""

    answer: str
    final: bool


@dataclass(frozen=True)
class RunSetup:
    """What an advisor may read of the run it starts on."""

    task: str
    prompts: PromptTemplateBuilder
    toolbox: Toolbox
    profile: ModelProfile
    long_term_memory: str = ""  # the memories the prompt shows
    resumed: bool = False  # the run goes on from steps an earlier run took
    step_tokens: int = 512  # the cap on a step's reply (a program the advisor asks for is one)


@dataclass(frozen=True)
class TurnState:
    """Where a run stands as a turn begins: its task, the steps so far, and whether the model must rethink."""

    task: str
    steps: Sequence[Step] = field(default_factory=tuple)
    rethink: bool = False  # the last step repeated an earlier action


class Advisor:
    """An advisor: override the hooks it needs (each does nothing by default). `start` gives the advisor of one run
    (itself, by default: an advisor that keeps no state of a run)."""

    name = "advisor"  # what its verdicts' steps are named in the transcript

    def start(self, setup: RunSetup) -> Advisor:
        """The advisor of the run `setup` describes."""
        return self

    def before_model(self, turn: TurnState) -> Advice | None:
        """Notes for this turn's prompt and a constraint on its reply, or None."""
        return None

    def on_action(self, turn: TurnState, decision: ThoughtAndAction) -> Verdict | None:
        """A verdict on a tool call before it runs (send back, run another tool first, stop, or `Verdict.finish`:
        the call means the task is done), or None: it runs."""
        return None

    def on_finish(self, context: CheckContext) -> Verdict | None:
        """A verdict on a finish, as a check gives one (None: accept); advisors have their say before the checks."""
        return None

    def stand_in(self, steps: Sequence[Step]) -> StandIn | None:
        """An answer to stand in for a draft that is no answer, or None: the run stops unverified."""
        return None

    def on_stopped(self, answer: str, task: str, steps: Sequence[Step]) -> str:
        """The answer of a run that stopped before finishing (written from the tools' results), maybe mended."""
        return answer

    def check(self) -> NamedCheck:
        """`on_finish` as a check named after this advisor."""
        return NamedCheck(self.name, lambda context: self.on_finish(context))


def start_advisors(advisors: Sequence[Advisor], setup: RunSetup) -> list[Advisor]:
    """The advisors of one run, in order."""
    return [advisor.start(setup) for advisor in advisors]


def entry_point_advisors() -> list[Advisor]:
    """The advisors installed packages add under the `autoagent.advisors` entry-point group."""
    found = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
            advisor = loaded if isinstance(loaded, Advisor) else loaded()
        except Exception as err:  # an installed package's bug: one line naming it
            raise ConfigurationError(f"cannot load the advisor {point.name!r} ({point.value}): {err}") from err
        if not isinstance(advisor, Advisor):
            raise ConfigurationError(f"the advisor {point.name!r} ({point.value}) is no autoagent.advice.Advisor")
        found.append(advisor)
    return found
