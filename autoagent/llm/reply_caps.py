"""How many tokens the model may write in one reply, by what the reply is for; a reply cut at its cap is unreadable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableBinding, RunnableWithFallbacks

from ..reply import ReplyParseError

DEFAULT_STEP_TOKENS = 512  # a full Thought/Action object is ~250 tokens; the rest is room for a file's content
SUMMARY_TOKENS = 320  # a memory summary is cut at 1,200 characters anyway
CUT = "length"  # the finish reason of a reply stopped at its cap (OpenAI's name; llama.cpp's too)
RUNAWAY = "runaway"  # ours: the reply was stopped for repeating itself (autoagent/llm/runaway.py)


@dataclass(frozen=True)
class ReplyCaps:
    """Token caps per use: `step` for a protocol step (--max-reply-tokens), twice that for the final answer; a
    memory summary gets SUMMARY_TOKENS, and any other call (plan mode's) DEFAULT_STEP_TOKENS."""

    step: int = DEFAULT_STEP_TOKENS

    def __post_init__(self) -> None:
        if self.step < 1:
            raise ValueError("a reply cap must be at least one token")

    @classmethod
    def from_setting(cls, tokens: int | None) -> ReplyCaps:
        """The caps for --max-reply-tokens (None: the default)."""
        return cls(tokens) if tokens else cls()

    @property
    def answer(self) -> int:
        """The final answer's cap."""
        return 2 * self.step



def cap_reply(model: Runnable[Any, BaseMessage], tokens: int) -> Runnable[Any, BaseMessage]:
    """`model` bound to write at most `tokens` tokens, when its chat model takes `max_tokens` (ChatOpenAI,
    ChatLocalLlama, ChatAnthropic, ...); other models keep their own limits."""
    return model.bind(max_tokens=tokens) if takes_max_tokens(model) else model


def takes_max_tokens(model: Runnable[Any, Any]) -> bool:
    """True when the chat model under any bindings declares a `max_tokens` field (passing it to one that
    doesn't, such as ChatOllama, would fail the call)."""
    return declares(model, "max_tokens")


def declares(model: Runnable[Any, Any], name: str) -> bool:
    """True when the chat model under any bindings declares the field `name` (so a call may pass it)."""
    while isinstance(model, (RunnableBinding, RunnableWithFallbacks)):
        model = model.bound if isinstance(model, RunnableBinding) else model.runnable
    fields = getattr(type(model), "model_fields", {})
    return name in fields


def sampling(model: Runnable[Any, BaseMessage], temperature: float, seed: int) -> Runnable[Any, BaseMessage]:
    """`model` bound to sample at `temperature` with `seed`, as far as its chat model declares either (one that
    declares neither answers as it always does)."""
    settings = {name: value for name, value in (("temperature", temperature), ("seed", seed))
                if declares(model, name)}
    return model.bind(**settings) if settings else model


def ensure_whole(message: BaseMessage) -> None:
    """Raise ReplyParseError for a reply cut at its token cap or stopped as a runaway, however it would parse:
    its end is missing, so whatever it seems to say may be wrong."""
    reason = (getattr(message, "response_metadata", None) or {}).get("finish_reason")
    if reason == CUT:
        raise ReplyParseError("reply_cut_off", message.text)
    if reason == RUNAWAY:
        raise ReplyParseError("reply_runaway", message.text)
