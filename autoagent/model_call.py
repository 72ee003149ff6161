"""One model call: counted in the run's usage; a failure of the model's service becomes our typed error."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from .errors import AutoAgentError, ModelUnavailableError
from .llm import describe_model_error
from .steps import Usage


def invoke_model(
    model: Runnable[Any, BaseMessage], messages: list[BaseMessage], usage: Usage, callbacks: Callbacks = None
) -> BaseMessage:
    """Call the model and count its usage; a failure of the model's service is our error, not the model's."""
    try:
        message = model.invoke(messages, config={"callbacks": callbacks})
    except AutoAgentError:
        raise
    except Exception as err:  # infrastructure, not the model's mistake: stop with a clear error
        raise ModelUnavailableError(describe_model_error(err)) from err
    usage.add(message)
    return message
