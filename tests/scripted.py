"""A scripted chat model for offline, deterministic tests: it replies with the texts it was given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChatModel(BaseChatModel):
    """Replies with `replies` in order (texts, or AIMessages carrying tool calls) and records what it was
    sent; runs dry loudly. `bind_tools` records the schemas, so native tool calling can be scripted too."""

    replies: list[str | AIMessage]
    prompts: list[str] = Field(default_factory=list)
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    stops: list[list[str] | None] = Field(default_factory=list)
    bound_tools: list[Any] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound_tools = list(tools)
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = "\n".join(message.text for message in messages)
        self.prompts.append(prompt)
        self.calls.append(list(messages))
        self.stops.append(stop)
        if len(self.prompts) > len(self.replies):
            raise AssertionError(f"the script has no reply #{len(self.prompts)}; prompt was:\n{prompt}")
        reply = self.replies[len(self.prompts) - 1]
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
        usage = {"input_tokens": len(prompt.split()), "output_tokens": len(message.text.split())}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = message.model_copy(update={"usage_metadata": usage})
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "scripted"


def act(name: str, thought: str = "working on it", **args: Any) -> str:
    """A well-formed Thought/Action reply in the full shape."""
    import json

    return json.dumps(
        {
            "thought": {"text": thought, "reasoning": "", "plan": [], "criticism": "", "speak": ""},
            "action": {"name": name, "args": args},
        }
    )


def call(name: str, call_id: str = "", text: str = "", **args: Any) -> AIMessage:
    """A native tool-calling reply."""
    return AIMessage(content=text, tool_calls=[{"name": name, "args": args, "id": call_id or f"id_{name}"}])
