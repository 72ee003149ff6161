"""How the loop talks to the model: JSON Thought/Action (default), native tool calls, or text ReAct."""

from __future__ import annotations

from ..prompts import PromptTemplateBuilder
from ..tool_use.toolbox import Toolbox
from .base import Protocol, Turn
from .react import ReActProtocol
from .thought_action import ThoughtActionProtocol
from .tool_calling import ToolCallingProtocol

__all__ = ["PROTOCOLS", "Protocol", "Turn", "make_protocol"]

PROTOCOLS: dict[str, type[Protocol]] = {
    protocol.name: protocol for protocol in (ThoughtActionProtocol, ToolCallingProtocol, ReActProtocol)
}


def make_protocol(
    name: str, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str], compact: bool = False
) -> Protocol:
    """The protocol called `name`, ready for this agent's prompts and tools."""
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol '{name}' (choose from {', '.join(PROTOCOLS)})")
    if name == "json":
        return ThoughtActionProtocol(prompts, toolbox, identity, compact=compact)
    return PROTOCOLS[name](prompts, toolbox, identity)
