"""A chat model called straight through its own generation, cache and rate limiter included, where nothing listens
(autoagent/listeners.py): what `BaseChatModel.invoke` does, less its callback events and tracing metadata, and less
the inspection of `_generate`'s signature it repeats each call; together they cost as much as the rest of a step."""

from __future__ import annotations

import inspect
import uuid
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler, Callbacks
from langchain_core.callbacks.manager import CallbackManagerForLLMRun
from langchain_core.globals import get_llm_cache
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.chat_models import _gen_info_and_msg_metadata
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableBinding
from langchain_core.utils.utils import LC_ID_PREFIX

from ..listeners import heard

_INVOKED = ("invoke", "generate_prompt", "generate")  # a model overriding any of these is called through invoke
_names: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()


def direct_call(
    model: Runnable[Any, BaseMessage], messages: Sequence[BaseMessage], callbacks: Callbacks,
    handlers: Callable[[], list[BaseCallbackHandler]],
) -> Callable[[], BaseMessage] | None:
    """A call of `model` with `messages` that skips LangChain's callback machinery, its `handlers()` (our own,
    fresh each attempt: the runaway guard) still hearing the streamed tokens; None where the call must go through
    `invoke`: someone listens, bindings carry a config, the model is no plain chat model, or a message holds content
    blocks (which `invoke` normalises)."""
    found = _unbound(model)
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
    if not isinstance(model, BaseChatModel) or not callable(getattr(model, "_generate_with_cache", None)):
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
