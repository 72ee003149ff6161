"""Embedding models from a model spec: OpenAI embeddings for `openai:*`, the local GGUF for `local[:path]`; every
bundled chat model (`local`, `local:1.5b`) embeds with the default bundled GGUF, so their memories mix."""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from autoagent.errors import ConfigurationError, ModelUnavailableError

DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
LOCAL_CONTEXT = 512  # tokens per text; longer texts are truncated (a memory key needs its start only)

_EMBEDDERS: dict[str, Any] = {}  # one embedding-mode Llama per GGUF path, apart from the chat one
_LOAD_LOCK = threading.Lock()
_CALL_LOCK = threading.Lock()


def _openai_embedding_model() -> str:
    """$AUTOAGENT_EMBEDDING_MODEL, else text-embedding-3-small."""
    return os.environ.get("AUTOAGENT_EMBEDDING_MODEL", "").strip() or DEFAULT_OPENAI_EMBEDDING_MODEL


def _resolve_spec(spec: str | None) -> tuple[str, str]:
    """The spec's kind (openai or local) and its argument; the default model spec when None."""
    from autoagent.llm import ACCEPTED_SPECS, default_model_spec

    spec = (spec if spec is not None else default_model_spec()).strip()
    kind, _, argument = spec.partition(":")
    if kind not in ("openai", "local"):
        raise ConfigurationError(f"unknown model spec {spec!r}: use {ACCEPTED_SPECS}")
    return kind, argument.strip()


def _local_gguf(argument: str) -> str:
    """The GGUF a local spec embeds with: the path it gives, or "" for the default bundled weights."""
    from autoagent.llm.weights import bundled_model

    return "" if bundled_model(argument) is not None else argument


def embedding_model_id(spec: str | None = None) -> str:
    """The name of the embedding model a spec uses, as recorded in the memory store."""
    kind, argument = _resolve_spec(spec)
    if kind == "openai":
        return f"openai:{_openai_embedding_model()}"
    if gguf := _local_gguf(argument):
        return f"local:{Path(gguf).name}:mean"
    from autoagent.llm.weights import WEIGHTS_FILENAME

    return f"local:{WEIGHTS_FILENAME}:mean"


def load_embeddings(spec: str | None = None, *, base_url: str | None = None) -> Embeddings:
    """The LangChain embeddings for a model spec; nothing heavy loads before the first text is embedded."""
    kind, argument = _resolve_spec(spec)
    if kind == "openai":
        return _openai_embeddings(base_url)
    if base_url:
        raise ConfigurationError("a base URL applies only to openai:<model> specs, not to the local model")
    return LocalLlamaEmbeddings(model_path=_local_gguf(argument) or None)


def _openai_embeddings(base_url: str | None) -> Embeddings:
    """OpenAIEmbeddings at `base_url` (else $OPENAI_BASE_URL, else api.openai.com), without tiktoken downloads."""
    from autoagent.llm.remote import client_timeout, openai_connection

    base_url, api_key = openai_connection(base_url, fixes="use --model local, or --no-memory")
    from langchain_openai import OpenAIEmbeddings  # slow to import, so only when used

    return RetryingEmbeddings(OpenAIEmbeddings(
        model=_openai_embedding_model(),
        openai_api_base=base_url,
        openai_api_key=api_key,
        check_embedding_ctx_length=False,  # tiktoken would try to download its encoding
        max_retries=0,  # the SDK would retry a refused connection for ~10 s; our policy fails fast on it
        request_timeout=client_timeout(),
    ))


class RetryingEmbeddings(Embeddings):
    """Embeddings retried under the model calls' policy: rate limits and server errors again, a server that is
    not there or a timed-out request never."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text."""
        from autoagent.llm.retry import call_with_retries

        return call_with_retries(lambda: self.inner.embed_documents(texts))

    def embed_query(self, text: str) -> list[float]:
        """The vector of one text."""
        from autoagent.llm.retry import call_with_retries

        return call_with_retries(lambda: self.inner.embed_query(text))


class LocalLlamaEmbeddings(Embeddings):
    """Mean-pooled, L2-normalised embeddings from a GGUF run by llama.cpp (the bundled one by default)."""

    def __init__(self, model_path: str | Path | None = None) -> None:
        self._model_path = Path(model_path).expanduser() if model_path else None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One unit vector per text."""
        if not texts:
            return []
        import numpy as np  # here, not at the top: a one-shot run on OpenAI never needs it

        llama = self._llama()
        with _CALL_LOCK:
            vectors = np.asarray([llama.embed(text or " ", truncate=True) for text in texts], dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.maximum(norms, 1e-12)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """The unit vector of one text."""
        return self.embed_documents([text])[0]

    def _llama(self) -> Any:
        """The shared embedding-mode Llama for this GGUF, loaded on first use."""
        path = self._resolved_path()
        with _LOAD_LOCK:
            if path not in _EMBEDDERS:
                _EMBEDDERS[path] = _open_embedding_llama(path)
            return _EMBEDDERS[path]

    def _resolved_path(self) -> str:
        """The GGUF path, assembling the bundled weights when none was given."""
        if self._model_path is None:
            from autoagent.llm.weights import ensure_default_weights

            self._model_path = ensure_default_weights()
        if not self._model_path.is_file():
            raise ModelUnavailableError(f"model file not found: {self._model_path}")
        return os.path.abspath(self._model_path)


def _open_embedding_llama(model_path: str) -> Any:
    """Load a GGUF in embedding mode (mean pooling), turning every failure into ModelUnavailableError."""
    from autoagent.llm.local import INSTALL_HINT

    try:
        import llama_cpp
        from llama_cpp._utils import suppress_stdout_stderr
    except ImportError as exc:
        raise ModelUnavailableError(f"local embeddings need llama-cpp-python ({exc}): run {INSTALL_HINT}") from exc
    try:
        with suppress_stdout_stderr(disable=False):  # llama.cpp notes the pooling override on stderr
            return llama_cpp.Llama(
                model_path=model_path,
                embedding=True,
                pooling_type=llama_cpp.LLAMA_POOLING_TYPE_MEAN,
                n_ctx=LOCAL_CONTEXT,
                n_batch=LOCAL_CONTEXT,
                n_ubatch=LOCAL_CONTEXT,  # a smaller micro-batch than the batch made each text ~20x slower
                n_threads=os.cpu_count(),
                n_threads_batch=os.cpu_count(),
                verbose=False,
            )
    except Exception as exc:
        raise ModelUnavailableError(f"cannot load embedding model {model_path}: {exc}") from exc


def close_embedders() -> None:
    """Free every embedding-mode Llama (at exit too, before llama.cpp's module is torn down)."""
    with _LOAD_LOCK, _CALL_LOCK:
        for path, llama in list(_EMBEDDERS.items()):
            llama.close()
            del _EMBEDDERS[path]


atexit.register(close_embedders)
