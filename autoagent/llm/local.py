"""ChatLocalLlama: a LangChain chat model running a GGUF in-process through llama-cpp-python."""

from __future__ import annotations

import atexit
import importlib.util
import os
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field, field_validator

from autoagent.errors import ModelUnavailableError
from autoagent.llm.llama_messages import TEXT_CALL_STOPS, to_chat_messages, tool_calls_in_text, usage_metadata
from autoagent.llm.prefix_cache import PrefixSnapshots, prompt_key
from autoagent.llm.weights import INSTALL_HINT

_ModelKey = tuple[str, int, int | None]
# One loaded Llama per (path, n_ctx, n_threads): reusing it keeps the KV cache of the shared prompt prefix.
_MODELS: dict[_ModelKey, tuple[Any, threading.Lock]] = {}
_LOAD_LOCK = threading.Lock()
# What each shared Llama's context holds, and its snapshots on disk; keyed by the Llama so a reload starts afresh.
_PREFIXES: weakref.WeakKeyDictionary[Any, PrefixSnapshots] = weakref.WeakKeyDictionary()


def llama_cpp_installed() -> bool:
    """True when llama-cpp-python can be imported (checked without importing it)."""
    return importlib.util.find_spec("llama_cpp") is not None


def close_models() -> None:
    """Free every shared Llama (at exit too: llama.cpp's own finaliser fails once its module is torn down)."""
    with _LOAD_LOCK:
        for key, (llm, lock) in list(_MODELS.items()):
            if lock.acquire(blocking=False):  # one still generating (an abandoned stream) is left alone
                try:
                    llm.close()
                    del _MODELS[key]
                finally:
                    lock.release()


atexit.register(close_models)


THREADS_VARIABLE = "AUTOAGENT_THREADS"  # llama.cpp threads (default: every core); batch workers share the cores


class ChatLocalLlama(BaseChatModel):
    """A chat model backed by a shared, lazily loaded `llama_cpp.Llama`."""

    model_path: str
    n_ctx: int = 4096
    n_threads: int | None = Field(default_factory=lambda: int(os.environ.get(THREADS_VARIABLE) or 0) or os.cpu_count())
    max_tokens: int = 256  # a step's reply is short; this bounds a degenerate one to a few seconds
    temperature: float = 0.0
    seed: int | None = None
    prefix_cache_dir: str | None = None  # where prompt-prefix snapshots are shared between processes; None: off

    @field_validator("model_path", "prefix_cache_dir", mode="before")
    @classmethod
    def _path_to_str(cls, value: Any) -> Any:
        """Accept a Path as well as a string."""
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @property
    def _llm_type(self) -> str:
        """The LangChain model type."""
        return "llama-cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        """What distinguishes this model's outputs, for tracing and caching."""
        return {
            "model_path": self.model_path,
            "n_ctx": self.n_ctx,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "seed": self.seed,
        }

    @property
    def model_name(self) -> str:
        """The GGUF file name, reported as the model name."""
        return Path(self.model_path).name

    def llama(self) -> Any:
        """The shared `llama_cpp.Llama` behind this model, loaded on first use."""
        return self._shared()[0]

    def _shared(self) -> tuple[Any, threading.Lock]:
        """The cached (Llama, call lock) pair for this model's settings."""
        key: _ModelKey = (os.path.abspath(self.model_path), self.n_ctx, self.n_threads)
        with _LOAD_LOCK:
            if key not in _MODELS:
                _MODELS[key] = (_open_llama(*key), threading.Lock())
            return _MODELS[key]

    def prefix_snapshots(self) -> PrefixSnapshots:
        """The prefix-snapshot manager of the shared Llama behind this model."""
        llama = self.llama()
        with _LOAD_LOCK:
            if llama not in _PREFIXES:
                _PREFIXES[llama] = PrefixSnapshots(os.path.abspath(self.model_path), self.n_ctx)
            return _PREFIXES[llama]

    def count_prompt_tokens(self, messages: Sequence[BaseMessage]) -> int:
        """The exact token count of `messages` under this model's vocabulary, plus ChatML's per-message framing."""
        llama = self.llama()
        framing = 5  # <|im_start|>role\n ... <|im_end|>\n
        return sum(len(llama.tokenize(message.text.encode("utf-8"), add_bos=False)) + framing for message in messages)

    def _call_params(self, stop: list[str] | None, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Arguments for `create_chat_completion`; kwargs (e.g. response_format) override the defaults."""
        params: dict[str, Any] = {
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "stop": stop or [],
        }
        if self.seed is not None:
            params["seed"] = self.seed
        params.update(kwargs)
        if params.get("tools"):  # calls come back as text: one call a reply, not a run of them to the cap
            params["stop"] = [*params["stop"], *TEXT_CALL_STOPS]
        return params

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Runnable[Any, AIMessage]:
        """Bind tools: their schemas go to the GGUF's chat template, and calls are read back from the reply."""
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _prefix_dir(self) -> Path | None:
        """The snapshot directory as a Path, or None when snapshots are off."""
        return Path(self.prefix_cache_dir) if self.prefix_cache_dir else None

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Run one chat completion and return it as an AIMessage with usage metadata."""
        chat_messages, params = to_chat_messages(messages), self._call_params(stop, kwargs)
        streamed = run_manager is not None and bool(run_manager.handlers)  # a runaway guard listens, at least
        with self._held(chat_messages, params) as llm:
            if streamed:  # someone listens: tokens reach the callbacks as they come (a spinner shows them)
                response = self._streamed_completion(llm, chat_messages, params, run_manager)
            else:
                response = llm.create_chat_completion(messages=chat_messages, **params)
        choice = response["choices"][0]
        usage = usage_metadata(response.get("usage"))
        content = choice["message"].get("content") or ""
        names = {tool["function"]["name"] for tool in kwargs.get("tools") or []}
        calls = tool_calls_in_text(content, names) if names else []
        message = AIMessage(
            content="" if calls else content,
            tool_calls=calls,
            usage_metadata=usage,
            response_metadata={"finish_reason": choice.get("finish_reason"), "model_name": self.model_name},
        )
        return ChatResult(
            generations=[ChatGeneration(message=message)],
            llm_output={"token_usage": response.get("usage"), "model_name": self.model_name},
        )

    @staticmethod
    def _streamed_completion(
        llm: Any, chat_messages: list[dict[str, Any]], params: dict[str, Any], run_manager: Any
    ) -> dict[str, Any]:
        """A chat completion streamed into `run_manager.on_llm_new_token`, returned in the unstreamed shape.
        llama.cpp reports no usage when streaming: the reply's tokens are counted, and the prompt's are what the
        context holds after it, less the reply (cut at max_tokens, its last token is never evaluated)."""
        pieces: list[str] = []
        finish_reason = None
        stream = llm.create_chat_completion(messages=chat_messages, **params, stream=True)
        try:
            for raw in stream:
                text, finished = _delta(raw)
                if text:
                    pieces.append(text)
                    run_manager.on_llm_new_token(text)  # a listener may raise to stop the reply (a runaway)
                finish_reason = finished or finish_reason
        finally:
            stream.close()  # stops generating now, under the model's lock, not when the generator is collected
        content = "".join(pieces)
        completion = len(llm.tokenize(content.encode("utf-8"), add_bos=False)) if content else 0
        prompt = max(int(llm.n_tokens) - completion + (1 if finish_reason == "length" else 0), 0)
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        return {"choices": [{"message": {"content": content}, "finish_reason": finish_reason}], "usage": usage}

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Stream the completion token by token; usage rides on the last chunk when llama.cpp reports it."""
        chat_messages, params = to_chat_messages(messages), {**self._call_params(stop, kwargs), "stream": True}
        with self._held(chat_messages, params) as llm:
            stream = llm.create_chat_completion(messages=chat_messages, **params)
            yield from self._stream_chunks(stream, run_manager)

    @contextmanager
    def _held(self, chat_messages: list[dict[str, Any]], params: dict[str, Any]) -> Iterator[Any]:
        """The shared Llama, under its lock for one call: the prompt's cached prefix restored before it, and the
        context saved after it only when the call finished."""
        llm, lock = self._shared()
        snapshots, directory = self.prefix_snapshots(), self._prefix_dir()
        key = prompt_key(chat_messages, params)
        with lock:
            snapshots.before_call(llm, key, directory)
            finished = False
            try:
                yield llm
                finished = True
            finally:
                snapshots.after_call(llm, key, directory if finished else None)

    def _stream_chunks(
        self, stream: Iterator[dict[str, Any]], run_manager: CallbackManagerForLLMRun | None
    ) -> Iterator[ChatGenerationChunk]:
        """LangChain chunks from llama.cpp's streamed completion chunks."""
        for raw in stream:
            text, finish_reason = _delta(raw)
            usage = usage_metadata(raw.get("usage"))
            if not text and finish_reason is None and usage is None:
                continue
            last = finish_reason is not None
            chunk = ChatGenerationChunk(
                message=AIMessageChunk(
                    content=text,
                    usage_metadata=usage,
                    response_metadata=(
                        {"finish_reason": finish_reason, "model_name": self.model_name} if last else {}
                    ),
                    chunk_position="last" if last else None,
                )
            )
            if run_manager is not None and text:
                run_manager.on_llm_new_token(text, chunk=chunk)
            yield chunk


def _delta(raw: dict[str, Any]) -> tuple[str, str | None]:
    """The text and the finish reason (None until the last) of one chunk of llama.cpp's streamed completion."""
    choice = raw["choices"][0] if raw.get("choices") else {}
    return (choice.get("delta") or {}).get("content") or "", choice.get("finish_reason")


def _open_llama(model_path: str, n_ctx: int, n_threads: int | None) -> Any:
    """Load a GGUF with llama.cpp, turning every failure into ModelUnavailableError."""
    try:
        import llama_cpp  # a compiled extension: imported only when a local model is used
    except ImportError as exc:
        raise ModelUnavailableError(f"llama-cpp-python is not installed ({exc}): run {INSTALL_HINT}") from exc
    if not Path(model_path).is_file():
        raise ModelUnavailableError(f"model file not found: {model_path}")
    try:
        return llama_cpp.Llama(
            model_path=model_path, n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads, verbose=False
        )
    except Exception as exc:
        raise ModelUnavailableError(f"cannot load model {model_path}: {exc}") from exc
