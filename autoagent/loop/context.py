"""Keeping each prompt inside the model's context window: count it, and trim the short-term memory to fit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from ..errors import AutoAgentError
from ..llm.tokens import MESSAGE_OVERHEAD, count_tokens, estimate_tokens  # noqa: F401 (where they were first)
from ..protocols import Turn

DEFAULT_WINDOW = 8192  # an OpenAI-compatible server whose model we don't know (Ollama's own default is smaller)
REPLY_RESERVE = 1024  # tokens kept free for the reply when the model sets no max_tokens
OBSERVATION_CHARS = (1000, 400, 150)  # observation lengths tried, longest first, before giving up

# Context windows (tokens) of known model families, by name prefix; the longest match wins.
WINDOWS = {
    "gpt-4o": 128_000,
    "gpt-4.1": 1_000_000,
    "gpt-4-turbo": 128_000,
    "gpt-3.5-turbo": 16_385,
    "o1": 200_000,
    "o3": 200_000,
    "o4": 200_000,
    "gpt-5": 400_000,
}


class ContextWindowError(AutoAgentError):
    """The task and fixed prompt alone do not fit the model's context window."""


def prompt_limit(llm: BaseChatModel, configured: int | None = None) -> int:
    """Tokens a prompt may use: the context window (configured, the model's, or known by name) less the reply."""
    window = configured or getattr(llm, "n_ctx", None) or _known_window(llm) or DEFAULT_WINDOW
    reply = getattr(llm, "max_tokens", None) or REPLY_RESERVE
    return max(int(window) - int(reply), 256)


def _known_window(llm: BaseChatModel) -> int | None:
    name = str(getattr(llm, "model_name", "") or "")
    matches = [prefix for prefix in WINDOWS if name.startswith(prefix)]
    return WINDOWS[max(matches, key=len)] if matches else None


def fit_turn(
    turn: Turn, render: Callable[[Turn], list[BaseMessage]], count: Callable[[list[BaseMessage]], int], limit: int
) -> list[BaseMessage]:
    """The messages for `turn`, trimmed until they fit `limit`: long observations shortened first, then the
    oldest steps dropped; the prompt says what was left out. Raises when even the bare prompt is too long."""
    messages = render(turn)
    if sum(len(message.text.encode("utf-8")) + MESSAGE_OVERHEAD for message in messages) <= limit:
        return messages  # a token covers at least one byte: it fits without counting
    size = count(messages)
    if size <= limit:
        return messages
    memory = turn.memory
    for keep in range(len(memory), 0, -1):
        for chars in OBSERVATION_CHARS:
            messages = render(replace(turn, memory=memory.trimmed(keep, chars)))
            size = count(messages)
            if size <= limit:
                return messages
    raise ContextWindowError(
        f"the prompt needs about {size:,} tokens even without earlier steps, but the model takes {limit:,}: "
        "shorten the task, or raise --context-window if the model holds more"
    )
