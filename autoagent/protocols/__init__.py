"""How the loop talks to the model: JSON Thought/Action (default), native tool calls, text ReAct, or Python code;
`auto` picks code for the embedded model with the sandboxed python tool, JSON otherwise."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.tools import BaseTool

from ..acting.toolbox import Toolbox
from ..llm.profile import ModelProfile
from ..prompts import PromptTemplateBuilder
from .base import Protocol, Turn, with_note
from .code import TOOL as CODE_TOOL
from .code import CodeProtocol
from .react import ReActProtocol
from .thought_action import ThoughtActionProtocol
from .tool_calling import ToolCallingProtocol

__all__ = [
    "AUTO", "PROTOCOLS", "Protocol", "Turn", "make_protocol", "resolved", "tools_for", "with_note",
]

PROTOCOLS: dict[str, type[Protocol]] = {
    protocol.name: protocol for protocol in (ThoughtActionProtocol, ToolCallingProtocol, ReActProtocol, CodeProtocol)
}

AUTO = "auto"  # code for the embedded model where the sandboxed python tool is there, json otherwise


def resolved(name: str, profile: ModelProfile, tools: Sequence[BaseTool]) -> str:
    """The protocol `name` means: itself; for `auto`, `code` for the embedded model where `tools` hold the
    python tool under bubblewrap, else `json`. The bundled coder models wrote a program more reliably than they
    worked a number or a file out in their head (bench/RESULTS.md, held-out sets under both)."""
    if name != AUTO:
        return name
    sandboxed = any(tool.name == CODE_TOOL and (tool.metadata or {}).get("sandbox") == "bwrap" for tool in tools)
    return CodeProtocol.name if sandboxed and profile.embedded else ThoughtActionProtocol.name


def make_protocol(
    name: str, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str], compact: bool = False
) -> Protocol:
    """The protocol called `name`, ready for this agent's prompts and tools."""
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol '{name}' (choose from {AUTO}, {', '.join(PROTOCOLS)})")
    if name == "json":
        return ThoughtActionProtocol(prompts, toolbox, identity, compact=compact)
    return PROTOCOLS[name](prompts, toolbox, identity)


def tools_for(name: str, tools: Sequence[BaseTool]) -> list[BaseTool]:
    """The tools a protocol's replies can call: every one, but under `code` only the python tool that runs each
    program (the programs themselves read, write and work things out)."""
    if name != CodeProtocol.name:
        return list(tools)
    return [tool for tool in tools if tool.name == CODE_TOOL]
