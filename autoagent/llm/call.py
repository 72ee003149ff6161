"""One model call: capped in length, stopped when it degenerates into repetition, retried while its failure may
pass, counted in the run's usage; a failure of the model's service becomes our typed error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from ..direct import direct_call
from ..errors import AutoAgentError, ModelUnavailableError
from ..steps import Usage
from ..text import encodable
from . import describe_model_error
from .reply_caps import DEFAULT_STEP_TOKENS, RUNAWAY, cap_reply
from .retry import DEFAULT_RETRY, NO_RETRY, RetriesExhaustedError, RetryPolicy, call_with_retries
from .runaway import RunawayGuard, RunawayReplyError


def invoke_model(
    model: Runnable[Any, BaseMessage],
    messages: list[BaseMessage],
    usage: Usage,
    callbacks: Callbacks = None,
    *,
    reply_tokens: int = DEFAULT_STEP_TOKENS,
    retry: RetryPolicy | None = DEFAULT_RETRY,
    on_retry: Callable[[str], None] | None = None,
) -> BaseMessage:
    """Call the model for a reply of at most `reply_tokens` tokens and count its usage, retrying rate limits,
    server errors and dropped connections under `retry` (None: one attempt); `on_retry` hears each retry (None:
    logged). A streamed reply that degenerates into repetition is stopped and returned as far as it got, with
    finish reason 'runaway'. Our error when the model cannot answer."""
    model = cap_reply(model, reply_tokens)
    call = direct_call(model, messages, callbacks, lambda: [RunawayGuard()])  # None: someone listens
    if call is None:
        heard = merge_callbacks(callbacks, [RunawayGuard()])
        call = lambda: model.invoke(messages, config={"callbacks": heard})  # noqa: E731
    try:
        message = call_with_retries(call, retry or NO_RETRY, on_retry)
    except RunawayReplyError as stopped:
        message = AIMessage(stopped.text, response_metadata={"finish_reason": RUNAWAY})
    except AutoAgentError:
        raise
    except RetriesExhaustedError as exhausted:
        reason = describe_model_error(exhausted.error)
        if exhausted.attempts > 1:
            reason += f"; gave up after {exhausted.attempts} attempts over {exhausted.seconds:.1f} s"
        raise ModelUnavailableError(reason) from exhausted.error
    except Exception as err:  # infrastructure, not the model's mistake: stop with a clear error
        raise ModelUnavailableError(describe_model_error(err)) from err
    usage.add(message)
    if isinstance(message.content, str):
        message.content = encodable(message.content)  # a lone surrogate could be neither sent back nor stored
    return message



def merge_callbacks(first: Callbacks, second: Callbacks) -> Callbacks:
    """Both sets of LangChain callbacks (handler lists or callback managers), `first`'s handlers first."""
    if not first or not second:
        return first or second
    if isinstance(first, list) and isinstance(second, list):
        return [*first, *second]
    from langchain_core.callbacks import CallbackManager

    return CallbackManager.configure(inheritable_callbacks=first, local_callbacks=second)
