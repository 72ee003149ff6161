"""The model as a step calls it, and its reply read into decisions: bound once by the protocol, held where the
backend can hold it (to an advisor's constraint, to a tool call after a finish was sent back, to the reply format
after an unreadable reply), drawn at a temperature where an advisor asks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from ..advice import Advice
from ..llm.reply_caps import ensure_whole, sampling
from ..protocols import Protocol
from ..reply import ReplyParseError, ThoughtAndAction
from ..steps import Step, StepKind
from .drafting import SAMPLE_TEMPERATURE


class StepModels:
    """One agent's model, bound each way a step may call it."""

    def __init__(self, protocol: Protocol, llm: BaseChatModel) -> None:
        self.protocol, self.llm = protocol, llm
        self.free = protocol.model(llm)
        self.strict = protocol.strict_model(llm)  # for the retry after an unreadable reply
        self.acting = protocol.strict_model(llm, finish=False)  # after a finish was sent back

    def choose(self, steps: Sequence[Step], failures: int, advice: Advice) -> Runnable[Any, BaseMessage]:
        """The model for the next step: held to the advice's constraint, else to a tool call right after a finish
        was sent back, else to the reply format after an unreadable reply, else as the protocol binds it; drawn at
        a temperature, seeded by the step before, where the advice says to redraw."""
        last = steps[-1] if steps else None
        sent_back = last is not None and last.kind is StepKind.REJECTED and last.decision is not None \
            and last.decision.is_finish()
        held = advice.constraint
        guided = self.protocol.guided_model(self.llm, held.thought_start, held.takes, held.avoid, held.only) \
            if held else None
        model = next(bound for bound in (guided, self.acting if sent_back else None,
                                         self.strict if failures else None, self.free) if bound is not None)
        return sampling(model, SAMPLE_TEMPERATURE, seed=last.number) if advice.redraw and last is not None else model

    def read(self, number: int, message: BaseMessage) -> list[ThoughtAndAction] | Step:
        """Every call the reply makes, in order (one, but for native tool calling), or the parse-error step."""
        try:
            ensure_whole(message)  # cut at its cap or stopped as a runaway: unreadable, however it parses
            return self.protocol.decide_all(message)
        except ReplyParseError as err:
            return Step(number, StepKind.PARSE_ERROR, message.text, None, self.protocol.explain(err), False)
