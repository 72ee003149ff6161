"""Constrained decoding where the backend offers it: the reply held to a JSON schema as it is generated."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable


def bind_json_schema(llm: BaseChatModel, schema: dict[str, Any]) -> Runnable[Any, BaseMessage] | None:
    """`llm` held to `schema` (llama.cpp's grammar for the embedded model); None where the backend can't."""
    from . import FREE_REPLIES
    from .local import ChatLocalLlama

    if (llm.metadata or {}).get(FREE_REPLIES):  # --no-json-schema
        return None

    if isinstance(llm, ChatLocalLlama):
        return llm.bind(response_format={"type": "json_object", "schema": schema})
    held = getattr(llm, "held_to_json_schema", None)  # a server of one's own: llm/openai_compatible.py
    return held(schema) if callable(held) else None


def bind_tools_held(
    llm: BaseChatModel, tools: list[dict[str, Any]], schema: dict[str, Any]
) -> Runnable[Any, BaseMessage] | None:
    """`llm` with `tools` bound (OpenAI tool schemas) and its reply held to `schema`, a call written as text, which
    is how the embedded model's calls are read; None for any other backend (a server's native calls are its own)."""
    from . import FREE_REPLIES
    from .local import ChatLocalLlama

    if (llm.metadata or {}).get(FREE_REPLIES) or not isinstance(llm, ChatLocalLlama):
        return None
    return llm.bind(tools=tools, response_format={"type": "json_object", "schema": schema})
