"""ChatOpenAI for servers of one's own (llama.cpp, Ollama, vLLM): the reply cap as they read it, and replies held
to a JSON schema in whichever form the server takes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolCall
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

from autoagent.llm.llama_messages import TEXT_CALL_STOPS

# How a schema is asked for, tried in this order: OpenAI's form (vLLM, Ollama, llama.cpp's llama-server), then
# llama-cpp-python's server's (which answers the first with a 500), then none (the reply runs free).
SCHEMA_FORMS = ("json_schema", "json_object", "none")


def json_schema_bound(llm: ChatOpenAI, schema: dict[str, Any], name: str) -> Runnable[Any, BaseMessage]:
    """`llm` asking the server for replies held to `schema` (the `json_schema` response format)."""
    form = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
    # in extra_body: a top-level response_format sends ChatOpenAI down the SDK's parsing stream, which
    # raises on a reply cut at its cap instead of returning it
    return llm.bind(extra_body={"response_format": form})


class ChatOpenAICompatible(ChatOpenAI):
    """ChatOpenAI that also sends the reply cap as `max_tokens` (ChatOpenAI sends only `max_completion_tokens`,
    which llama-cpp-python's server ignores) and can hold replies to a JSON schema (`held_to_json_schema`)."""

    _schema_form: str = PrivateAttr(default=SCHEMA_FORMS[0])

    def held_to_json_schema(self, schema: dict[str, Any], name: str = "reply") -> Runnable[Any, BaseMessage]:
        """This model with its replies held to `schema` by the server, in the first form it accepts."""
        return json_schema_bound(self, schema, name)

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The request body, with `max_tokens` beside `max_completion_tokens` and the schema in the server's form."""
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if payload.get("tools"):  # a small model's calls may come back as text: one call a reply (see TEXT_CALL_STOPS)
            payload["stop"] = [*(payload.get("stop") or []), *TEXT_CALL_STOPS][:4]  # OpenAI's API takes four at most
        if payload.get("max_completion_tokens") is not None:
            payload.setdefault("max_tokens", payload["max_completion_tokens"])
        extra = payload.get("extra_body")
        if isinstance(extra, dict) and "response_format" in extra and self._schema_form != SCHEMA_FORMS[0]:
            extra = dict(extra)
            schema = extra.pop("response_format")["json_schema"]["schema"]
            if self._schema_form == "json_object":
                extra["response_format"] = {"type": "json_object", "schema": schema}
            payload["extra_body"] = extra
        return payload

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The streamed reply; a schema form the server refuses is replaced by the next one, and remembered."""
        while True:
            started, text, called = False, [], False
            try:
                for chunk in super()._stream(messages, stop, run_manager, **kwargs):
                    started = True
                    text.append(chunk.text)
                    called = called or bool(getattr(chunk.message, "tool_call_chunks", None))
                    yield chunk
            except Exception as err:
                if started or not self._next_schema_form(err, kwargs):
                    raise
                continue
            if not called:
                yield from _calls_written_as_text("".join(text), kwargs)
            return

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """The whole reply; a schema form the server refuses is replaced by the next one, and remembered."""
        while True:
            try:
                result = super()._generate(messages, stop, run_manager, **kwargs)
                break
            except Exception as err:
                if not self._next_schema_form(err, kwargs):
                    raise
        message = result.generations[0].message
        written = isinstance(message, AIMessage) and not message.tool_calls
        calls = _calls_in_text(message.text, kwargs) if written else []
        if calls:
            result.generations[0].message = message.model_copy(update={"tool_calls": calls})
        return result

    def _next_schema_form(self, err: Exception, kwargs: dict[str, Any]) -> bool:
        """Move to the next schema form when `err` is the server refusing this one; False when it is not."""
        from autoagent.llm.retry import status_code

        asked = "response_format" in (kwargs.get("extra_body") or {})
        refused = status_code(err) in (400, 422, 500) and "response_format" in str(getattr(err, "body", err))
        if not (asked and refused) or self._schema_form == SCHEMA_FORMS[-1]:
            return False
        self._schema_form = SCHEMA_FORMS[SCHEMA_FORMS.index(self._schema_form) + 1]
        return True


def _calls_in_text(text: str, kwargs: dict[str, Any]) -> list[ToolCall]:
    """The tool calls a reply wrote as text (`{"name": ..., "arguments": ...}`), as llama-cpp-python's server
    returns Qwen's calls; none when no tool is bound."""
    from autoagent.llm.llama_messages import tool_calls_in_text

    names = {tool.get("function", {}).get("name") for tool in kwargs.get("tools") or [] if isinstance(tool, dict)}
    return tool_calls_in_text(text, {name for name in names if name}) if names else []


def _calls_written_as_text(text: str, kwargs: dict[str, Any]) -> Iterator[ChatGenerationChunk]:
    """A last chunk carrying the tool calls a streamed reply wrote as text; nothing when it wrote none."""
    chunks = [tool_call_chunk(name=call["name"], args=json.dumps(call["args"]), id=call["id"], index=index)
              for index, call in enumerate(_calls_in_text(text, kwargs))]
    if chunks:
        yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))
