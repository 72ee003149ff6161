"""Counting a prompt's tokens: the model's own count where it has one, else a quick estimate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

MESSAGE_OVERHEAD = 4  # role and separators, per message


def estimate_tokens(text: str) -> int:
    """A quick, slightly generous token count: ~3.5 ASCII characters per token, one per other character."""
    extra_bytes = len(text.encode("utf-8")) - len(text)  # 1-3 per non-ASCII character; 2 for most CJK
    other = extra_bytes // 2
    return int((len(text) - other) / 3.5) + other + 1


def count_tokens(llm: Any, messages: Sequence[BaseMessage]) -> int:
    """The prompt's size in tokens: the model's own count where it has an exact one, else an estimate."""
    exact = getattr(llm, "count_prompt_tokens", None)
    if callable(exact):
        return int(exact(messages))
    return sum(estimate_tokens(message.text) + MESSAGE_OVERHEAD for message in messages)
