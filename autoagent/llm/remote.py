"""Chat models served over the OpenAI API: OpenAI itself or any compatible server (Ollama, vLLM, llama.cpp)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pydantic import SecretStr

from autoagent.errors import ConfigurationError

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

# OpenAI-compatible local servers ignore the key, but the client refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"
REQUEST_TIMEOUT_ENV = "AUTOAGENT_REQUEST_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = 120.0  # seconds; the SDK's own default is 10 minutes per attempt


def openai_connection(base_url: str | None, fixes: str = "use --model local") -> tuple[str | None, SecretStr]:
    """The base URL (`base_url`, else $OPENAI_BASE_URL, else None for api.openai.com) and the key to use;
    no key is needed for a server of one's own, and none for OpenAI itself is an error naming `fixes`."""
    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
    api_key = os.environ.get("OPENAI_API_KEY") or None
    if api_key is None:
        if base_url is None:
            raise ConfigurationError(
                f"no OpenAI API key: set OPENAI_API_KEY in api_keys.env or the environment, or {fixes}"
            )
        api_key = PLACEHOLDER_API_KEY
    return base_url, SecretStr(api_key)


def request_timeout() -> float:
    """Seconds one model request may take: $AUTOAGENT_REQUEST_TIMEOUT, else 120."""
    text = os.environ.get(REQUEST_TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_REQUEST_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ConfigurationError(f"{REQUEST_TIMEOUT_ENV} must be a positive number of seconds, not {text!r}")
    return seconds


def load_openai_model(name: str, *, base_url: str | None = None, temperature: float = 0.0) -> BaseChatModel:
    """A ChatOpenAI for `name` at `base_url` (else $OPENAI_BASE_URL, else api.openai.com); each request times out
    after $AUTOAGENT_REQUEST_TIMEOUT seconds (default 120), and the SDK does not retry: invoke_model does."""
    if not name:
        raise ConfigurationError("the openai model spec needs a model name, e.g. --model openai:gpt-4o-mini")
    base_url, api_key = openai_connection(base_url)
    timeout = request_timeout()
    from langchain_openai import ChatOpenAI  # costs >1 s to import, so only when an openai model is used

    return ChatOpenAI(
        model=name, base_url=base_url, api_key=api_key, temperature=temperature, timeout=timeout, max_retries=0
    )
