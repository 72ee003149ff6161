"""autoagent's own LangChain tools as smolagents tools, and the two smolagents agents built on them.

Runs in the peers venv (smolagents and an editable autoagent).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool
from smolagents import CodeAgent, MultiStepAgent, OpenAIServerModel, Tool, ToolCallingAgent
from smolagents.monitoring import LogLevel

from autoagent.tools import default_tools

from .records import AGENTS

MAX_TOKENS = 1024  # a reply's cap, as autoagent's embedded model has: unbounded replies run away on this model


class LangChainTool(Tool):
    """One LangChain tool seen by smolagents: its name, description and argument descriptions as LangChain has them.

    Not smolagents' `Tool.from_langchain` (1.26): it blanks every argument's description, leaves an argument with a
    default required (so `list_files()` is refused), and sends every positional argument of a CodeAgent's call to the
    first parameter (`write_file("a.txt", "hi")` loses its content). The peer would pay for our adapter's defects.
    """

    skip_forward_signature_validation = True  # forward takes *args/**kwargs; `inputs` says what it accepts

    def __init__(self, wrapped: BaseTool) -> None:
        self.wrapped = wrapped
        self.name = wrapped.name
        self.description = wrapped.description
        self.inputs = {name: _input(schema) for name, schema in wrapped.args.items()}
        self.output_type = "string"
        self.is_initialized = True  # smolagents checks the attributes after __init__ (validate_after_init)

    def forward(self, *args: Any, **kwargs: Any) -> str:
        """Call the LangChain tool; what it raises becomes smolagents' tool error, an observation for the model."""
        given = dict(zip(self.inputs, args, strict=False)) | kwargs
        # None stands for "not given" on an optional argument: the tool's own default then applies
        given = {name: value for name, value in given.items() if value is not None or not _optional(self, name)}
        return str(self.wrapped.invoke(given))


def _input(schema: dict[str, Any]) -> dict[str, Any]:
    """smolagents' description of one argument from its JSON schema; one with a default is nullable (optional)."""
    described = {"type": schema.get("type", "any"), "description": schema.get("description", "")}
    if "default" in schema:
        described["nullable"] = True
    return described


def _optional(tool: Tool, name: str) -> bool:
    """Whether argument `name` of `tool` may be left out."""
    return bool(tool.inputs.get(name, {}).get("nullable"))


def peer_tools(workspace: Path) -> list[Tool]:
    """autoagent's default tools for `workspace` without the web (no network here): calculator, calendar,
    current_datetime and the seven file tools, wrapped for smolagents."""
    return [LangChainTool(each) for each in default_tools(workspace)]


def server_model(base_url: str, model_id: str, max_tokens: int = MAX_TOKENS) -> OpenAIServerModel:
    """The served GGUF as smolagents' OpenAI model, at temperature 0. Messages go as text: llama-cpp-python's server
    rejects a system message whose content is a list of parts."""
    return OpenAIServerModel(model_id=model_id, api_base=base_url, api_key="x", temperature=0.0,
                             max_tokens=max_tokens, flatten_messages_as_text=True)


def build_agent(kind: str, tools: list[Tool], model: OpenAIServerModel, max_steps: int,
                on_step: Callable[..., None] | None = None) -> MultiStepAgent:
    """A smolagents agent of `kind` (one of AGENTS) with smolagents' defaults otherwise, its console logging off."""
    options: dict[str, Any] = {"tools": tools, "model": model, "max_steps": max_steps,
                               "verbosity_level": LogLevel.OFF, "step_callbacks": [on_step] if on_step else None}
    if kind == "smolagents-tools":
        return ToolCallingAgent(**options)
    if kind == "smolagents-code":
        return CodeAgent(**options)
    raise ValueError(f"unknown agent {kind!r}; one of {', '.join(AGENTS)}")
