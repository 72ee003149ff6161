"""Runs the model's chosen action on a LangChain tool; every mistake becomes an observation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ValidationError

from .reply import FINISH, Action, describe_validation_error

ERROR_CHARS = 500  # how much of a tool's error message the model sees


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave back: the text the model reads, and whether the call worked."""

    content: str
    success: bool = True


def truncate(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with a note saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters cut]"


def _json_schema(tool: BaseTool) -> dict[str, Any]:
    """The tool's argument schema as JSON schema, whatever form the tool declared it in."""
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        return schema
    return schema.model_json_schema() if issubclass(schema, BaseModel) else schema.schema()


def _signature(tool: BaseTool) -> str:
    """`name(arg: type, opt: type = default)` for the prompt's tool list."""
    schema = _json_schema(tool)
    required = set(schema.get("required", []))
    params = []
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type") or "/".join(p.get("type", "any") for p in prop.get("anyOf", [])) or "any"
        default = "" if name in required else f" = {json.dumps(prop.get('default'))}"
        meaning = f" ({prop['description']})" if prop.get("description") else ""
        params.append(f"{name}: {kind}{default}{meaning}")
    return f"{tool.name}({', '.join(params)})"


class Toolbox:
    """The tools an agent may call, by name."""

    def __init__(self, tools: Sequence[BaseTool], max_observation_chars: int = 2000) -> None:
        self.tools = {tool.name: tool for tool in tools}
        if FINISH.lower() in (name.lower() for name in self.tools):
            raise ValueError(f"a tool may not be named {FINISH}: that name ends the task")
        self.max_observation_chars = max_observation_chars

    def describe(self) -> str:
        """One line per tool: its signature and description."""
        return "\n".join(self.describe_tool(name) for name in self.tools)

    def describe_tool(self, name: str) -> str:
        """`name(arg: type, ...): description`."""
        tool = self.tools[name]
        return f"{_signature(tool)}: {' '.join(tool.description.split())}"

    def find(self, name: str) -> BaseTool | None:
        """The tool called `name`, also in another letter case (models often capitalise)."""
        return self.tools.get(name) or self._by_folded_name(name)

    def run(self, action: Action, callbacks: Callbacks = None) -> ToolResult:
        """Run `action`; an unknown tool, bad arguments or a failing tool give a failed ToolResult."""
        tool = self.find(action.name)
        if tool is None:
            available = ", ".join([*self.tools, FINISH])
            return ToolResult(f"Unknown tool '{action.name}'. Available: {available}.", success=False)
        problem = self._check_args(tool, action.args)
        if problem:
            return ToolResult(f"Invalid arguments for {tool.name}: {problem}.", success=False)
        try:
            output = tool.invoke(self._tool_input(tool, action.args), config={"callbacks": callbacks})
        except Exception as err:  # a failing tool is the model's observation, not our crash
            message = truncate(str(err), ERROR_CHARS)
            return ToolResult(f"{tool.name} failed: {type(err).__name__}: {message}", success=False)
        text = output if isinstance(output, str) else getattr(output, "content", output)
        return ToolResult(truncate(str(text), self.max_observation_chars))

    def _by_folded_name(self, name: str) -> BaseTool | None:
        """A tool whose name matches in another letter case (models often capitalise)."""
        folded = name.strip().lower()
        return next((tool for key, tool in self.tools.items() if key.lower() == folded), None)

    @staticmethod
    def _tool_input(tool: BaseTool, args: dict[str, Any]) -> str | dict[str, Any]:
        if tool.args_schema is None:  # a plain single-string Tool
            return str(next(iter(args.values()))) if len(args) == 1 else json.dumps(args)
        return args

    @staticmethod
    def _check_args(tool: BaseTool, args: dict[str, Any]) -> str | None:
        """Exactly which arguments are missing, unexpected or of the wrong type; None when all is well."""
        if tool.args_schema is None:
            return None if len(args) <= 1 else f"{tool.name} takes one text argument"
        schema = _json_schema(tool)
        expected = set(schema.get("properties", {}))
        missing = [name for name in schema.get("required", []) if name not in args]
        unexpected = [name for name in args if name not in expected]
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if unexpected:
            problems.append(f"unexpected {', '.join(unexpected)} (it takes {', '.join(expected) or 'none'})")
        if problems:
            return "; ".join(problems)
        model = tool.tool_call_schema
        if isinstance(model, type) and issubclass(model, BaseModel):
            try:
                model.model_validate(args)
            except ValidationError as err:
                return describe_validation_error(err)
        return None
