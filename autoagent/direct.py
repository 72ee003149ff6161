"""The fast path: a chat model or a tool called straight through its own code where nothing listens
(autoagent/listeners.py): what `BaseChatModel.invoke` and `BaseTool.invoke` do for a plain call, less their callback
events, tracing metadata and the signature inspection they repeat on every call, which cost as much as the rest of a
step (ten times the calculator itself).

Every private LangChain function autoagent calls is called here and nowhere else (`PRIVATE`). Where the installed
langchain-core lacks one, the fast path is off and every call goes through `invoke`; tests/test_direct_calls.py fails
naming it, and pyproject.toml pins langchain-core to the releases it was checked on."""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import inspect
import typing
import uuid
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler, Callbacks
from langchain_core.callbacks.manager import CallbackManagerForLLMRun, CallbackManagerForToolRun
from langchain_core.globals import get_llm_cache
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, Tool
from langchain_core.utils.utils import LC_ID_PREFIX

from .listeners import heard

# (module, object, attribute): the private parts of langchain-core the fast path calls or compares with
PRIVATE = (
    ("langchain_core.language_models.chat_models", "", "_gen_info_and_msg_metadata"),
    ("langchain_core.language_models.chat_models", "BaseChatModel", "_generate_with_cache"),
    ("langchain_core.language_models.chat_models", "BaseChatModel", "_should_stream"),
    ("langchain_core.tools", "BaseTool", "_to_args_and_kwargs"),
    ("langchain_core.tools", "BaseTool", "_parse_input"),
    ("langchain_core.tools", "StructuredTool", "_run"),
    ("langchain_core.tools", "Tool", "_run"),
)
_INVOKED = ("invoke", "generate_prompt", "generate")  # a model overriding any of these is called through invoke
_OWN = ("invoke", "run", "_parse_input")  # a tool overriding any of these is run through invoke
_names: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()
_facts: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()  # code: what of a run it takes


def missing_private() -> list[str]:
    """The parts of `PRIVATE` the installed langchain-core lacks, by their dotted names (empty: all there)."""
    missing = []
    for module, owner, name in PRIVATE:
        found: Any = importlib.import_module(module)
        for part in (owner, name) if owner else (name,):
            found = getattr(found, part, None)
        if not callable(found):
            missing.append(".".join(part for part in (module, owner, name) if part))
    return missing


AVAILABLE = not missing_private()  # the fast path is on only where every private part is there
if AVAILABLE:
    from langchain_core.language_models.chat_models import _gen_info_and_msg_metadata


def direct_call(
    model: Runnable[Any, BaseMessage], messages: Sequence[BaseMessage], callbacks: Callbacks,
    handlers: Callable[[], list[BaseCallbackHandler]],
) -> Callable[[], BaseMessage] | None:
    """A call of `model` with `messages` that skips LangChain's callback machinery, its `handlers()` (our own,
    fresh each attempt: the runaway guard) still hearing the streamed tokens; None where the call must go through
    `invoke`: someone listens, bindings carry a config, the model is no plain chat model, or a message holds content
    blocks (which `invoke` normalises)."""
    found = _unbound(model) if AVAILABLE else None
    if found is None or not all(isinstance(message.content, str) for message in messages):
        return None
    llm, kwargs = found
    if heard(callbacks, llm):
        return None
    return lambda: _generate(llm, list(messages), kwargs, handlers())


def _unbound(model: Runnable[Any, BaseMessage]) -> tuple[BaseChatModel, dict[str, Any]] | None:
    """The chat model under `model`'s bindings (`.bind(...)`) and the keywords they add, the outermost winning;
    None where a binding carries a config or the model is no chat model whose `invoke` is LangChain's own."""
    kwargs: dict[str, Any] = {}
    while isinstance(model, RunnableBinding) and type(model).invoke is RunnableBinding.invoke:
        if model.config or model.config_factories:
            return None
        kwargs = {**model.kwargs, **kwargs}
        model = model.bound
    if not isinstance(model, BaseChatModel):
        return None
    if any(getattr(type(model), name) is not getattr(BaseChatModel, name) for name in _INVOKED):
        return None
    return model, kwargs


def _generate(llm: BaseChatModel, messages: list[BaseMessage], kwargs: dict[str, Any],
              handlers: list[BaseCallbackHandler]) -> BaseMessage:
    """The reply, as `BaseChatModel.generate` gets it for one prompt, with `handlers` on the run."""
    kwargs = dict(kwargs)
    stop = kwargs.pop("stop", None)
    kwargs.pop("ls_structured_output_format", None) or kwargs.pop("structured_output_format", None)  # as generate
    run = CallbackManagerForLLMRun(run_id=uuid.uuid4(), handlers=handlers, inheritable_handlers=handlers)
    if not _plain(llm, run, kwargs):  # a cache, a stream, content blocks: all of LangChain's own way
        return llm._generate_with_cache(messages, stop=stop, run_manager=run, **kwargs).generations[0].message
    # what _generate_with_cache does then, but for inspecting `_generate`'s signature again (half its cost)
    if llm.rate_limiter:
        llm.rate_limiter.acquire(blocking=True)
    own = {"run_manager": run} if "run_manager" in _parameters(type(llm)._generate) else {}
    result = llm._generate(messages, stop=stop, **own, **kwargs)
    for index, generation in enumerate(result.generations):
        if generation.message.id is None:
            generation.message.id = f"{LC_ID_PREFIX}-{run.run_id}-{index}"
        generation.message.response_metadata = _gen_info_and_msg_metadata(generation)
    if len(result.generations) == 1 and result.llm_output is not None:
        message = result.generations[0].message
        message.response_metadata = {**result.llm_output, **message.response_metadata}
    return result.generations[0].message


def _plain(llm: BaseChatModel, run: CallbackManagerForLLMRun, kwargs: dict[str, Any]) -> bool:
    """Whether `_generate_with_cache` would only call `_generate` and add the reply's id and metadata: no cache to
    look in, no stream to follow, no content blocks to convert."""
    uncached = llm.cache is False or (llm.cache is None and get_llm_cache() is None)
    protocol_stream = getattr(llm, "_should_use_protocol_streaming", None)
    return uncached and getattr(llm, "output_version", None) != "v1" \
        and not (protocol_stream and protocol_stream(async_api=False, run_manager=run, **kwargs)) \
        and not llm._should_stream(async_api=False, run_manager=run, **kwargs)


def _parameters(code: Callable[..., Any]) -> frozenset[str]:
    """The parameter names of a model class's `_generate` (looked up once per function)."""
    names = _names.get(code)
    if names is None:
        names = _names[code] = frozenset(inspect.signature(code).parameters)
    return names


def direct_run(tool: BaseTool, callbacks: Callbacks) -> Callable[[str | dict[str, Any]], Any] | None:
    """A run of `tool` on an input that skips LangChain's callback machinery; None where it must go through
    `invoke`: someone listens, the tool handles its own errors, returns an artifact, overrides how it is invoked,
    or its code takes something of the run that LangChain would pass (callbacks, a RunnableConfig)."""
    if not AVAILABLE or heard(callbacks, tool) or tool.response_format != "content" or tool.handle_tool_error \
            or tool.handle_validation_error:
        return None
    kind = type(tool)
    if any(getattr(kind, name) is not getattr(BaseTool, name) for name in _OWN):
        return None
    if kind._run in (StructuredTool._run, Tool._run):  # @tool, StructuredTool.from_function, Tool: `func` runs
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
