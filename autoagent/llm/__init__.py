"""Chat models from a spec string: `openai:<model>`, `local`, `local:1.5b`, or `local:/path/to/model.gguf`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from autoagent.errors import ConfigurationError, ModelUnavailableError

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

__all__ = ["ACCEPTED_SPECS", "FREE_REPLIES", "default_model_spec", "describe_model_error", "load_chat_model"]

ACCEPTED_SPECS = "openai:<model> (e.g. openai:gpt-4o-mini), local, local:1.5b, or local:/path/to/model.gguf"
FREE_REPLIES = "autoagent_free_replies"  # true in a chat model's metadata: its replies are never held to a schema
DEFAULT_OPENAI_SPEC = "openai:gpt-4o-mini"


def _print_to_stderr(line: str) -> None:
    """Show a progress line without mixing it into the agent's stdout."""
    print(line, file=sys.stderr, flush=True)


def default_model_spec() -> str:
    """$AUTOAGENT_MODEL if set, else openai:gpt-4o-mini when OPENAI_API_KEY is set, else the local model; a key
    that the current directory's api_keys.env set, and so picked the hosted model, is named once on stderr."""
    configured = os.environ.get("AUTOAGENT_MODEL", "").strip()
    if configured:
        return configured
    if not os.environ.get("OPENAI_API_KEY"):
        return "local"
    _name_a_picking_key()
    return DEFAULT_OPENAI_SPEC


_named_keys: set[tuple[str, str]] = set()  # (file, key) already named in this process


def _name_a_picking_key() -> None:
    """One stderr line when OPENAI_API_KEY, picking the hosted model, came from the current directory's file: a
    cloned repository's api_keys.env must not quietly send the user's tasks to a hosted model."""
    from autoagent.api_keys import set_by_current_directory

    source = set_by_current_directory("OPENAI_API_KEY")
    if source is None or (str(source), os.environ["OPENAI_API_KEY"]) in _named_keys:
        return
    _named_keys.add((str(source), os.environ["OPENAI_API_KEY"]))
    print(f"autoagent: model {DEFAULT_OPENAI_SPEC}, picked by OPENAI_API_KEY in {source} (the current "
          "directory's); --model local runs the embedded model", file=sys.stderr, flush=True)


def load_chat_model(
    spec: str | None = None,
    *,
    base_url: str | None = None,
    progress: Callable[[str], None] | None = _print_to_stderr,
) -> BaseChatModel:
    """Build the chat model a spec names (the default spec when None); `progress` hears about first-run setup."""
    spec = (spec if spec is not None else default_model_spec()).strip()
    kind, _, argument = spec.partition(":")
    if kind == "openai":
        from autoagent.llm.remote import load_openai_model

        return load_openai_model(argument.strip(), base_url=base_url)
    if kind == "local":
        if base_url:
            raise ConfigurationError(
                f"a base URL applies only to openai:<model> specs, not to {spec!r}; "
                "e.g. --model openai:qwen2.5-coder --base-url http://127.0.0.1:8000/v1"
            )
        return _load_local_model(argument.strip(), progress)
    raise ConfigurationError(f"unknown model spec {spec!r}: use {ACCEPTED_SPECS}")


def _load_local_model(path: str, progress: Callable[[str], None] | None) -> BaseChatModel:
    """A ChatLocalLlama on the given GGUF, or on bundled weights: the largest installed when `path` is empty (see
    weights.default_chat_model), or one a name such as 1.5b picks (a file of that name is ./1.5b); prefix
    snapshots on."""
    from autoagent.llm import weights
    from autoagent.llm.local import ChatLocalLlama, llama_cpp_installed

    bundled = weights.bundled_model(path) if path else None
    if not llama_cpp_installed():
        hint = bundled.install_hint if bundled is not None else weights.INSTALL_HINT
        raise ModelUnavailableError(f"the local model needs llama-cpp-python: run {hint}")
    if not path:
        model_path = weights.ensure_weights(weights.default_chat_model(), progress=progress)
    elif bundled is not None:
        model_path = weights.ensure_weights(bundled, progress=progress)
    else:
        model_path = Path(path).expanduser()
        if not model_path.is_file():
            names = ", ".join(f"local:{name}" for name in weights.BUNDLED_MODELS)
            raise ModelUnavailableError(f"model file not found: {model_path} (the bundled models are {names})")
    from autoagent.llm.prefix_cache import prefix_cache_dir

    snapshots = prefix_cache_dir()  # the static prompt's KV state, shared by processes; AUTOAGENT_PREFIX_CACHE=0: off
    return ChatLocalLlama(model_path=str(model_path), prefix_cache_dir=str(snapshots) if snapshots else None)


def describe_model_error(err: Exception) -> str:
    """One line saying why a model call failed and what to check, for any backend's exception."""
    from autoagent.llm.retry import (
        RetriesExhaustedError,
        http_status,
        is_timeout,
        is_unreachable,
        status_code,
        unreachable_reason,
    )

    if isinstance(err, RetriesExhaustedError):
        return f"{describe_model_error(err.error)}; gave up after {err.attempts} attempts over {err.seconds:.1f} s"
    kind = type(err).__name__
    status = status_code(err)
    if status is None and is_unreachable(err):
        url = getattr(getattr(err, "request", None), "url", None)
        where = f" at {url}" if url else ""
        return (f"the model call failed: {unreachable_reason(err)}{where} "
                "(is the server running? check --base-url / OPENAI_BASE_URL)")
    if status is None and is_timeout(err):
        from autoagent.llm.remote import REQUEST_TIMEOUT_ENV

        text = " ".join(str(err).split()) or "timed out"
        return (f"the model call failed: {kind}: {text}; not sent again, as the server may still be working on it "
                f"(is it overloaded? for a slow one, raise {REQUEST_TIMEOUT_ENV})")
    if status is not None:
        line = f"the model call failed: {http_status(status)}: {_server_message(err)}"
    else:
        line = f"the model call failed: {kind}: {' '.join(str(err).split())}"
    if status == 401 or "Authentication" in kind:
        return f"{line} (the server refused the API key: check OPENAI_API_KEY)"
    if status == 403 or "PermissionDenied" in kind:
        return f"{line} (the API key may not use this model: check OPENAI_API_KEY)"
    if "Connection" in kind or "Timeout" in kind or isinstance(err, (ConnectionError, TimeoutError)):
        return f"{line} (is the server running? check --base-url / OPENAI_BASE_URL)"
    if status == 404 or "NotFound" in kind:
        return f"{line} (check the model name in --model)"
    if "context window" in line or "context length" in line or "context_length" in line:
        return f"{line} (the prompt is too long for the model: lower --memory-window or shorten the task)"
    if status == 429:
        return f"{line} (rate-limited or out of quota: wait, or check the account's plan)"
    if status is not None and status >= 500:
        return f"{line} (the model's server failed: try again later)"
    return line


def _server_message(err: Exception) -> str:
    """The message in an OpenAI-style error body ({"error": {"message": ...}}), else the exception's text."""
    body = getattr(err, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message.strip():
            return " ".join(message.split())
    return " ".join(str(err).split())
