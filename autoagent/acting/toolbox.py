"""Runs the model's chosen action on a LangChain tool; every mistake becomes an observation."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import Callbacks
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ValidationError

from ..direct import direct_run
from ..errors import SubAgentError
from ..prompts import PromptTemplateBuilder, english_prompts
from ..reply import FINISH, Action, describe_validation_error
from ..text import encodable
from .approval import Approver, Verdict, is_read_only
from .effects import Effects, read_only
from .fence import quoting_in, truncate
from .time_limit import TimeLimitExceeded, call_with_time_limit

if TYPE_CHECKING:
    from ..events import RunObserver

ERROR_CHARS = 500  # how much of a tool's error message the model sees
DEFAULT_TIMEOUT_SECONDS = 60.0

# JSON-schema keys a small model copies into a call
SCHEMA_WORDS = {"type", "title", "description", "default", "properties", "required"}
_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*", re.DOTALL)  # a tool written as a call: name(args)
_NAME = re.compile(r"\s*([A-Za-z_]\w*)()\s*")  # a tool named alone (read_file {"path": "current_datetime"})
_QUOTED = re.compile(r"""["']([^"']*)["']""")  # its one argument, quoted


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave back: the text the model reads, and whether the call worked."""

    content: str
    success: bool = True
    waited: float = 0.0  # seconds spent waiting for the user's approval, not running
    artifact: Any = None  # what a tool of response_format "content_and_artifact" gave besides its content


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
    """The tools an agent may call, by name; side-effecting calls go past `approver` (None: no approvals),
    and every call is bounded by its time limit: `timeouts[name]`, else the tool's `metadata["timeout"]`,
    else `timeout` (None: no limit). What the model reads of a call that failed comes from `prompts`, in
    their language (English by default)."""

    def __init__(
        self,
        tools: Sequence[BaseTool],
        max_observation_chars: int = 2000,
        *,
        approver: Approver | None = None,
        timeout: float | None = DEFAULT_TIMEOUT_SECONDS,
        timeouts: Mapping[str, float | None] | None = None,
        prompts: PromptTemplateBuilder | None = None,
    ) -> None:
        self.prompts = prompts or english_prompts()
        self.tools = {tool.name: tool for tool in tools}
        if FINISH.lower() in (name.lower() for name in self.tools):
            raise ValueError(f"a tool may not be named {FINISH}: that name ends the task")
        self.max_observation_chars = max_observation_chars
        self.approver = approver
        self.timeout = timeout
        self.timeouts = dict(timeouts or {})
        self._schemas: dict[str, dict[str, Any]] = {}  # each tool's JSON schema, once built
        unknown = [name for name in self.timeouts if name not in self.tools]
        if unknown:
            raise ValueError(f"timeouts name unknown tool(s): {', '.join(unknown)}")
        marked = [(tool.metadata or {})["timeout"] for tool in tools if "timeout" in (tool.metadata or {})]
        for limit in [timeout, *self.timeouts.values(), *marked]:
            if limit is not None and not limit > 0:
                raise ValueError(f"a tool timeout must be a positive number of seconds or None, not {limit!r}")

    def describe(self) -> str:
        """One line per tool: its signature and description."""
        return "\n".join(self.describe_tool(name) for name in self.tools)

    def describe_tool(self, name: str) -> str:
        """`name(arg: type, ...): description`."""
        tool = self.tools[name]
        return f"{_signature(tool)}: {' '.join(tool.description.split())}"

    def args_schema(self, name: str) -> dict[str, Any]:
        """The JSON schema of a tool's arguments (built once: a tool's schema does not change)."""
        if name not in self._schemas:
            self._schemas[name] = _json_schema(self.tools[name])
        return self._schemas[name]

    def find(self, name: str) -> BaseTool | None:
        """The tool called `name`, also in another letter case (models often capitalise)."""
        return self.tools.get(name) or self._by_folded_name(name)

    def meant(self, action: Action) -> Action:
        """The action the model meant: an argument written as a whole call of another tool
        (`calculator {"expression": "current_datetime()"}`) is that call, and so is one that names a tool taking no
        arguments (`read_file {"path": "current_datetime"}`); the argument schema's own words beside
        the arguments (`{"expression": "2+2", "type": "string"}`, the schema's shape echoed) are dropped; else
        `action` itself."""
        tool = self.find(action.name)
        if tool is not None:
            takes = set(self.args_schema(tool.name).get("properties", {}))
            echoed = (set(action.args) & SCHEMA_WORDS) - takes
            if echoed and (set(action.args) - echoed or not takes):  # beside real arguments, or for a tool of none
                kept = {key: value for key, value in action.args.items() if key not in echoed}
                action = action.model_copy(update={"args": kept})
        for value in action.args.values():
            match = (_CALL.fullmatch(value) or _NAME.fullmatch(value)) if isinstance(value, str) else None
            tool = self.find(match[1]) if match else None
            if match is None or tool is None or tool.name == action.name:
                continue
            inner = match[2].strip()
            names = list(self.args_schema(tool.name).get("properties", {}))
            if not inner and not self.args_schema(tool.name).get("required"):
                return Action(name=tool.name, args={})
            quoted = _QUOTED.fullmatch(inner)
            if quoted and names:
                return Action(name=tool.name, args={names[0]: quoted[1]})
        return action

    def timeout_for(self, tool: BaseTool) -> float | None:
        """The seconds `tool` may run: `timeouts[name]`, else its metadata's "timeout", else the default."""
        if tool.name in self.timeouts:
            return self.timeouts[tool.name]
        metadata = tool.metadata or {}
        if "timeout" in metadata:
            return metadata["timeout"]
        return self.timeout

    def run(self, action: Action, callbacks: Callbacks = None, events: RunObserver | None = None) -> ToolResult:
        """Run `action`; an unknown tool, bad arguments, a refused approval, a failing tool or one that runs
        past its time limit give a failed ToolResult. `events` hears an approval asked and answered."""
        tool = self.find(action.name)
        if tool is None:
            available = ", ".join([*self.tools, FINISH])
            return self._failed("tool_unknown", tool=action.name, available=available)
        problem = self._check_args(tool, action.args)
        if problem:
            return self._failed("tool_invalid_args", tool=tool.name, problem=problem)
        waited = 0.0
        if self.approver is not None and not is_read_only(tool):
            shown = action.args
            if (tool.metadata or {}).get("tries_read_only") and self.approver.would_ask(tool.name):
                with read_only():  # a call that changes nothing needs nobody's leave
                    tried = self._call(tool, action.args, callbacks)
                if not (isinstance(tried.artifact, Effects) and tried.artifact.needs_to_write):
                    return tried
                shown = {**action.args, **tried.artifact.also_shown}  # what runs besides the arguments
            asked = time.monotonic()
            verdict = self._approval(tool.name, shown, events)
            waited = time.monotonic() - asked
            if not verdict.allowed:
                return ToolResult(verdict.explain(tool.name, self.prompts), success=False, waited=waited)
        return replace(self._call(tool, action.args, callbacks), waited=waited)

    def _approval(self, tool: str, args: dict[str, Any], events: RunObserver | None) -> Verdict:
        """The approver's verdict on a call; where someone is asked, `events` hears the question and the answer."""
        assert self.approver is not None
        if events is None or not self.approver.would_ask(tool):
            return self.approver.review(tool, args)
        events.on_approval_asked(tool, args)
        verdict = self.approver.review(tool, args)
        events.on_approval_answered(tool, verdict.allowed, verdict.feedback)
        return verdict

    def run_read_only(self, action: Action) -> ToolResult | None:
        """`action` run changing nothing, with nobody asked (a check's own trial of a program); None where its tool
        cannot run read-only (metadata `tries_read_only`) or the call would change something."""
        tool = self.find(action.name)
        if tool is None or not (tool.metadata or {}).get("tries_read_only") or self._check_args(tool, action.args):
            return None
        with read_only():
            result = self._call(tool, action.args, None)
        return None if isinstance(result.artifact, Effects) and result.artifact.needs_to_write else result

    def _failed(self, template: str, **variables: str) -> ToolResult:
        """A failed call: what the model reads is `template` filled with `variables`."""
        return ToolResult(self.prompts.render(template, **variables).strip(), success=False)

    def _call(self, tool: BaseTool, args: dict[str, Any], callbacks: Callbacks) -> ToolResult:
        """Invoke an approved tool within its time limit; a failure or a timeout is a failed ToolResult."""
        limit = self.timeout_for(tool)
        tool_input, config = self._tool_input(tool, args), {"callbacks": callbacks}
        if tool.response_format == "content_and_artifact" and isinstance(tool_input, dict):
            tool_input = {"name": tool.name, "args": tool_input, "id": f"call_{tool.name}", "type": "tool_call"}
        # straight to the tool's code where nothing listens; else through invoke, as LangChain runs it
        run = direct_run(tool, callbacks) or (lambda given: tool.invoke(given, config=config))  # type: ignore[arg-type]
        try:
            with quoting_in(self.prompts):  # a fence the tool writes speaks the run's language
                output = call_with_time_limit(lambda: run(tool_input), limit)
        except SubAgentError:  # the sub-agent's model or service failed: the whole run stops
            raise
        except TimeLimitExceeded as late:
            note = "tool_timed_out" if late.stopped else "tool_timed_out_running"
            return self._failed(note, tool=tool.name, seconds=f"{limit:g}")
        except Exception as err:  # a failing tool is the model's observation, not our crash
            message = truncate(encodable(str(err)), ERROR_CHARS, self.prompts)
            return self._failed("tool_failed", tool=tool.name, error=f"{type(err).__name__}: {message}")
        text = output if isinstance(output, str) else getattr(output, "content", output)
        text = encodable(str(text))  # e.g. undecodable file names
        artifact = getattr(output, "artifact", None)  # a ToolMessage's, for a tool that gives one
        failed = isinstance(artifact, Effects) and artifact.failed  # e.g. a program that exited non-zero
        return ToolResult(truncate(text, self.max_observation_chars, self.prompts), success=not failed,
                          artifact=artifact)

    def _by_folded_name(self, name: str) -> BaseTool | None:
        """A tool whose name matches in another letter case (models often capitalise)."""
        folded = name.strip().lower()
        return next((tool for key, tool in self.tools.items() if key.lower() == folded), None)

    @staticmethod
    def _tool_input(tool: BaseTool, args: dict[str, Any]) -> str | dict[str, Any]:
        if tool.args_schema is None:  # a plain single-string Tool
            return str(next(iter(args.values()))) if len(args) == 1 else json.dumps(args)
        return args

    def _check_args(self, tool: BaseTool, args: dict[str, Any]) -> str | None:
        """Exactly which arguments are missing, unexpected or of the wrong type; None when all is well."""
        if tool.args_schema is None:
            return None if len(args) <= 1 else self.prompts.render("args_one_text", tool=tool.name).strip()
        schema = self.args_schema(tool.name)
        expected = set(schema.get("properties", {}))
        missing = [name for name in schema.get("required", []) if name not in args]
        unexpected = [name for name in args if name not in expected]
        problems = []
        if missing:
            problems.append(self.prompts.render("args_missing", names=", ".join(missing)).strip())
        if unexpected:
            takes = "args_unexpected" if expected else "args_unexpected_none"
            names, takes_names = ", ".join(unexpected), ", ".join(expected)
            problems.append(self.prompts.render(takes, names=names, expected=takes_names).strip())
        if problems:
            return "; ".join(problems)
        model = tool.tool_call_schema
        if isinstance(model, type) and issubclass(model, BaseModel):
            try:
                model.model_validate(args)
            except ValidationError as err:
                return describe_validation_error(err)
        return None
