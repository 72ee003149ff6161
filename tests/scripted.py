"""A scripted chat model for offline, deterministic tests: it replies with the texts it was given."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChatModel(BaseChatModel):
    """Replies with `replies` in order and records every prompt it was sent; runs dry loudly."""

    replies: list[str]
    prompts: list[str] = Field(default_factory=list)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = "\n".join(message.text for message in messages)
        self.prompts.append(prompt)
        if len(self.prompts) > len(self.replies):
            raise AssertionError(f"the script has no reply #{len(self.prompts)}; prompt was:\n{prompt}")
        reply = self.replies[len(self.prompts) - 1]
        usage = {"input_tokens": len(prompt.split()), "output_tokens": len(reply.split())}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = AIMessage(content=reply, usage_metadata=usage)  # type: ignore[arg-type]
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
