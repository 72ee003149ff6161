"""User tools: from a Python file (`--tools-module`), from installed packages (the `autoagent.tools`
entry-point group), merged with the built-in ones and narrowed to the names `--tools` picks."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from langchain_core.tools import BaseTool

ENTRY_POINT_GROUP = "autoagent.tools"
RESERVED_NAMES = ("finish", "final_answer")  # the json and tools protocols end a task with these
_SOURCES: dict[int, tuple[BaseTool, str]] = {}  # where each loaded tool came from, for error messages


def _one_line(err: BaseException) -> str:
    """`Kind: message` on one line."""
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _is_tool(value: Any) -> bool:
    from langchain_core.tools import BaseTool

    return isinstance(value, BaseTool)


def _tools_in(value: Any) -> list[BaseTool] | None:
    """`value` as a list of tools (a tool, or a list/tuple of tools); None when it is something else."""
    if _is_tool(value):
        return [value]
    if isinstance(value, (list, tuple)) and all(_is_tool(item) for item in value):
        return list(value)
    return None


def _remember(tools: Iterable[BaseTool], source: str) -> list[BaseTool]:
    """Record where each tool came from (first source wins) and return them as a list."""
    tools = list(tools)
    for tool in tools:
        _SOURCES.setdefault(id(tool), (tool, source))
    return tools


def tool_source(tool: BaseTool) -> str:
    """Where a tool came from: its tools module, entry point, MCP server, or the module defining it."""
    recorded = _SOURCES.get(id(tool))
    if recorded is not None and recorded[0] is tool:
        return recorded[1]
    server = (tool.metadata or {}).get("mcp_server")
    if server:
        return f"MCP server {server!r}"
    function = getattr(tool, "func", None) or getattr(tool, "coroutine", None) or type(tool)
    module = getattr(function, "__module__", None) or "?"
    return "built-in" if module.startswith("autoagent.") else f"module {module}"


def load_tools_module(path: Path) -> list[BaseTool]:
    """Every LangChain tool a Python file exposes: tools at module level, the items of `TOOLS`, and
    what `get_tools()` returns; a missing file, a failing import or no tools at all raise."""
    path = Path(path).expanduser()
    where = f"tools module {path}"
    if not path.is_file():
        raise ConfigurationError(f"{where}: no such file")
    resolved = path.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    name = f"autoagent_user_tools_{digest}"  # unique per file, so two `my_tools.py` do not clash
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ConfigurationError(f"{where}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic and dataclasses look the module up while it runs
    try:
        spec.loader.exec_module(module)
    except Exception as err:
        sys.modules.pop(name, None)
        raise ConfigurationError(f"{where} failed to import: {_one_line(err)}") from err
    tools = [value for value in vars(module).values() if _is_tool(value)]
    for label, value in _declared(module, where):
        listed = _tools_in(value)
        if listed is None:
            raise ConfigurationError(f"{where}: {label} must be a LangChain tool or a list of them")
        tools.extend(listed)
    tools = list({id(tool): tool for tool in tools}.values())
    if not tools:
        raise ConfigurationError(
            f"{where} has no tools: define @tool functions at module level, a TOOLS list, or get_tools()"
        )
    return _remember(tools, where)


def _declared(module: Any, where: str) -> list[tuple[str, Any]]:
    """The module's `TOOLS` and the result of its `get_tools()`, labelled for error messages."""
    declared = []
    if hasattr(module, "TOOLS"):
        declared.append(("TOOLS", module.TOOLS))
    if callable(getattr(module, "get_tools", None)):
        try:
            declared.append(("get_tools()", module.get_tools()))
        except Exception as err:
            raise ConfigurationError(f"{where}: get_tools() failed: {_one_line(err)}") from err
    return declared


def entry_point_tools(group: str = ENTRY_POINT_GROUP) -> list[BaseTool]:
    """The tools installed packages offer under an entry-point group; each entry point names a tool, a
    list of tools, or a function of no arguments returning either."""
    from importlib.metadata import entry_points

    tools: list[BaseTool] = []
    for entry_point in sorted(entry_points(group=group), key=lambda point: point.name):
        tools.extend(_remember(_load_entry_point(entry_point), _describe_entry_point(entry_point)))
    return list({id(tool): tool for tool in tools}.values())


def _describe_entry_point(entry_point: EntryPoint) -> str:
    """`entry point 'name' (value) of distribution-1.0`."""
    dist = getattr(entry_point, "dist", None)
    owner = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"entry point {entry_point.name!r} ({entry_point.value}){owner}"


def _load_entry_point(entry_point: EntryPoint) -> list[BaseTool]:
    """The tools one entry point gives; a plugin that fails to load or gives no tools raises."""
    where = _describe_entry_point(entry_point)
    try:
        value = entry_point.load()
        if not _is_tool(value) and callable(value):
            value = value()
    except Exception as err:
        raise ConfigurationError(f"{where} failed to load: {_one_line(err)}") from err
    tools = _tools_in(value)
    if tools is None:
        raise ConfigurationError(f"{where} gave {type(value).__name__}, not a LangChain tool or a list of them")
    return tools


def parse_tool_names(text: str | Sequence[str] | None) -> list[str] | None:
    """`"a, b,c"` (or repeated values) as ["a", "b", "c"]; None or nothing at all means every tool."""
    if text is None:
        return None
    parts = [text] if isinstance(text, str) else list(text)
    names = [name.strip() for part in parts for name in part.split(",") if name.strip()]
    return list(dict.fromkeys(names)) or None


def select_tools(tools: Sequence[BaseTool], names: Sequence[str]) -> list[BaseTool]:
    """The tools called `names`, in that order; an unknown name raises, listing the available ones."""
    by_name = {tool.name: tool for tool in tools}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ConfigurationError(
            f"unknown tool{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} in --tools; "
            f"available: {', '.join(sorted(by_name)) or 'none'}"
        )
    return [by_name[name] for name in dict.fromkeys(names)]


def merge_tools(*groups: Sequence[BaseTool]) -> list[BaseTool]:
    """All tools of all groups, in order; the same object twice is kept once, while two different tools
    with one name (or a name that ends the task) raise, naming where each came from."""
    merged: dict[str, BaseTool] = {}
    for group in groups:
        for tool in group:
            if tool.name.lower() in RESERVED_NAMES:
                raise ConfigurationError(
                    f"the tool {tool.name!r} from {tool_source(tool)} may not use that name: it ends the task"
                )
            earlier = merged.setdefault(tool.name, tool)
            if earlier is not tool:
                raise ConfigurationError(
                    f"two tools are named {tool.name!r}: one from {tool_source(earlier)}, one from "
                    f"{tool_source(tool)}; rename one, or leave one out"
                )
    return list(merged.values())


def format_tools(tools: Sequence[BaseTool]) -> str:
    """One line per tool, `name  description`, aligned: what `/tools` shows."""
    if not tools:
        return "No tools."
    width = max(len(tool.name) for tool in tools)
    lines = []
    for tool in tools:
        description = " ".join((tool.description or "").split())
        lines.append(f"{tool.name:<{width}}  {description}".rstrip())
    return "\n".join(lines)
