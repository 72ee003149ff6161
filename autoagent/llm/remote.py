"""Chat models served over the OpenAI API: OpenAI itself or any compatible server (Ollama, vLLM, llama.cpp)."""

from __future__ import annotations

import ipaddress
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import SecretStr

from autoagent.errors import ConfigurationError

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

# OpenAI-compatible local servers ignore the key, but the client refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"
REQUEST_TIMEOUT_ENV = "AUTOAGENT_REQUEST_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = 120.0  # seconds; the SDK's own default is 10 minutes per attempt
CONNECT_TIMEOUT = 5.0  # seconds to open a connection: a server that is there answers in milliseconds
OPENAI_HOST = "api.openai.com"


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


def client_timeout(seconds: float | None = None) -> Any:
    """The SDK timeout: $AUTOAGENT_REQUEST_TIMEOUT (or `seconds`) between bytes of a reply, CONNECT_TIMEOUT to
    connect."""
    from openai import Timeout

    seconds = request_timeout() if seconds is None else seconds
    return Timeout(seconds, connect=min(seconds, CONNECT_TIMEOUT))


def is_own_server(base_url: str | None) -> bool:
    """True for a base URL other than OpenAI's own API: a server of one's own or a compatible service."""
    return bool(base_url) and urlsplit(base_url or "").hostname != OPENAI_HOST


def is_nearby_server(base_url: str | None) -> bool:
    """True for a server on this machine or a private network (loopback, 10/8, 172.16/12, 192.168/16, *.local,
    a bare host name): where small models are served; hosted APIs are public."""
    host = urlsplit(base_url or "").hostname if base_url else None
    if not host:
        return False
    if host == "localhost" or host.endswith((".local", ".localhost", ".lan", ".internal")) or "." not in host:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def load_openai_model(name: str, *, base_url: str | None = None, temperature: float = 0.0) -> BaseChatModel:
    """A ChatOpenAI for `name` at `base_url` (else $OPENAI_BASE_URL, else api.openai.com), streaming (so a runaway
    reply can be stopped) with usage; a request waits $AUTOAGENT_REQUEST_TIMEOUT seconds (default 120) for the
    next byte, 5 s to connect, and the SDK does not retry: invoke_model does."""
    if not name:
        raise ConfigurationError("the openai model spec needs a model name, e.g. --model openai:gpt-4o-mini")
    base_url, api_key = openai_connection(base_url)
    timeout = client_timeout()
    from langchain_openai import ChatOpenAI  # costs >1 s to import: only when used

    chat_class = ChatOpenAI
    if is_own_server(base_url):
        from autoagent.llm.openai_compatible import ChatOpenAICompatible

        chat_class = ChatOpenAICompatible

    return chat_class(
        model=name, base_url=base_url, api_key=api_key, temperature=temperature, timeout=timeout, max_retries=0,
        streaming=True, stream_usage=True,
    )
