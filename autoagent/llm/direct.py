"""A chat model called straight through its own generation, cache and rate limiter included, where nothing listens
(autoagent/listeners.py): what `BaseChatModel.invoke` does, less its callback events and tracing metadata, which
cost as much as the rest of a step."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler, Callbacks
from langchain_core.callbacks.manager import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableBinding

from ..listeners import heard

_INVOKED = ("invoke", "generate_prompt", "generate")  # a model overriding any of these is called through invoke


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
    return llm._generate_with_cache(messages, stop=stop, run_manager=run, **kwargs).generations[0].message
