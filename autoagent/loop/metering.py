"""Model calls as a run makes them: counted, estimated where the model reports no usage, and priced."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from ..events import RunObserver
from ..llm.call import invoke_model
from ..llm.profile import model_name
from ..llm.reply_caps import DEFAULT_STEP_TOKENS
from ..llm.tokens import count_tokens, estimate_tokens
from ..steps import Usage
from .budget import cost_of


class Meter:
    """Calls the model for a run and keeps its usage: tokens (reported, else estimated) and cost."""

    def __init__(
        self,
        llm: Any,
        usage: Usage,
        price: tuple[float, float] | None,
        callbacks: Callbacks = None,
        events: RunObserver | None = None,
    ) -> None:
        self.llm = llm
        self.model = model_name(llm)
        self.usage = usage
        self.price = price
        self.callbacks = callbacks
        self.events = events or RunObserver()  # hears each call's end, and a retry as a warning
        if price is not None and usage.cost_usd is None:
            usage.cost_usd = cost_of(usage, price)

    def use(self, llm: Any, price: tuple[float, float] | None) -> None:
        """Count and price the calls of `llm` from now on (a fallback): the usage so far stays, and the budget
        covers both; where either model's price is unknown, so is the run's cost."""
        self.llm, self.model = llm, model_name(llm)
        if price is None or self.price is None:
            self.price, self.usage.cost_usd = None, None
        else:
            self.price = price

    def count(self, messages: list[BaseMessage]) -> int:
        """The prompt's size in tokens."""
        return count_tokens(self.llm, messages)

    def call(
        self, model: Runnable[Any, BaseMessage], messages: list[BaseMessage], reply_tokens: int = DEFAULT_STEP_TOKENS
    ) -> tuple[BaseMessage, tuple[int, int]]:
        """The reply of at most `reply_tokens` tokens, and the (input, output) tokens this call used."""
        before, began = (self.usage.input_tokens, self.usage.output_tokens), time.monotonic()
        reply = invoke_model(model, messages, self.usage, self.callbacks, reply_tokens=reply_tokens,
                             on_retry=self.events.on_warning)
        seconds = time.monotonic() - began
        if getattr(reply, "usage_metadata", None):
            tokens = (self.usage.input_tokens - before[0], self.usage.output_tokens - before[1])
        else:  # the model reports nothing: estimate, and say so wherever usage is shown
            tokens = (self.count(messages), estimate_tokens(reply.text))
            self.usage.input_tokens += tokens[0]
            self.usage.output_tokens += tokens[1]
            self.usage.estimated = True
        if self.price is not None:  # added call by call: a sub-agent's cost, charged here, was priced by its model
            call_usage = Usage(input_tokens=tokens[0], output_tokens=tokens[1])
            self.usage.cost_usd = (self.usage.cost_usd or 0.0) + cost_of(call_usage, self.price)
        finish_reason = str(reply.response_metadata.get("finish_reason") or "")
        self.events.on_model_call_end(self.model, tokens, seconds, finish_reason,
                                      not getattr(reply, "usage_metadata", None))
        return reply, tokens
