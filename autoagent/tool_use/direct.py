"""A LangChain tool run straight through its own code where nothing listens (autoagent/listeners.py): what
`BaseTool.invoke` does for a plain call (the input parsed and validated by the tool, then its function or `_run`),
less the callback events and the signature inspection it repeats on every call, which cost ten times the
calculator itself."""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import typing
import weakref
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.callbacks.manager import CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, Tool

from ..listeners import heard

_OWN = ("invoke", "run", "_parse_input")  # a tool overriding any of these is run through invoke
_FUNCTION_TOOLS = (StructuredTool._run, Tool._run)  # call their `func`, as their `_run` does
_facts: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()  # code: what it takes


def direct_run(tool: BaseTool, callbacks: Callbacks) -> Callable[[str | dict[str, Any]], Any] | None:
    """A run of `tool` on an input that skips LangChain's callback machinery; None where it must go through
    `invoke`: someone listens, the tool handles its own errors, returns an artifact, overrides how it is invoked,
    or its code takes something of the run that LangChain would pass (callbacks, a RunnableConfig)."""
    if heard(callbacks, tool) or tool.response_format != "content" or tool.handle_tool_error \
            or tool.handle_validation_error:
        return None
    kind = type(tool)
    if any(getattr(kind, name) is not getattr(BaseTool, name) for name in _OWN):
        return None
    if kind._run in _FUNCTION_TOOLS:  # @tool, StructuredTool.from_function, Tool: their `_run` calls `func`
        func = getattr(tool, "func", None)
        if func is None or _run_parts(func) & {"callbacks", "config"}:
            return None
        return lambda tool_input: _call(tool, func, tool_input, {})
    parts = _run_parts(kind._run)
    if "config" in parts:
        return None
    # with nobody listening, the run manager LangChain would pass has no handler either
    extra = {"run_manager": CallbackManagerForToolRun.get_noop_manager()} if "run_manager" in parts else {}
    return lambda tool_input: _call(tool, tool._run, tool_input, extra)


def _call(tool: BaseTool, code: Callable[..., Any], tool_input: str | dict[str, Any], extra: dict[str, Any]) -> Any:
    """`code` on the tool's parsed input, in a copy of the context (as `run` does: what the tool sets stays there)."""
    args, kwargs = tool._to_args_and_kwargs(tool_input, None)
    return contextvars.copy_context().run(code, *args, **kwargs, **extra)


def _run_parts(code: Callable[..., Any]) -> frozenset[str]:
    """What of a run `code` takes, as LangChain looks for it: "callbacks", "run_manager" (parameters of those names)
    and "config" (one typed RunnableConfig); judged once per function, and one that cannot be inspected takes all."""
    try:
        return _facts[code]
    except (KeyError, TypeError):
        pass
    try:
        parameters = inspect.signature(code).parameters
        typed = RunnableConfig in typing.get_type_hints(code).values()
        parts = frozenset({name for name in ("callbacks", "run_manager") if name in parameters}
                          | ({"config"} if typed else set()))
    except Exception:  # an annotation that does not resolve: leave the call to LangChain
        parts = frozenset({"callbacks", "run_manager", "config"})
    with contextlib.suppress(TypeError):  # not weakly referable: judged again next time
        _facts[code] = parts
    return parts
