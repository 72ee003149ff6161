"""LangChain messages to llama.cpp's chat-completion dicts, and llama.cpp's replies back: usage, and tool calls
written as text."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any, cast

from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.messages.tool import ToolCall

# Where a second tool call written as text begins: a small model that wrote one call goes on writing more (the
# calculator again, then final_answer, over and over) until its cap cuts the reply. Generation stops there, which
# costs the first call only its closing brace, put back by the lenient parse below.
TEXT_CALL_STOPS = ["}\n{", "}\n\n{"]


def tool_calls_in_text(text: str, names: set[str]) -> list[ToolCall]:
    """Tool calls a model wrote as text (`{"name": ..., "arguments": {...}}`, fenced or in <tool_call> tags),
    as llama.cpp returns them for Qwen: objects naming a bound tool, and call-shaped ones (with "arguments")
    naming any other."""
    import json_repair

    found = json_repair.loads(text.replace("<tool_call>", "").replace("</tool_call>", "")) if text.strip() else ""
    candidates = found if isinstance(found, list) else [found]
    calls = []
    for candidate in candidates:
        if not isinstance(candidate, dict) or not isinstance(candidate.get("name"), str):
            continue
        # a call to a tool that is not bound still counts when it has a call's shape: the toolbox then names the
        # tools there are ("rename_file" is no tool; move_file is), where no call at all would teach nothing
        if candidate["name"] not in names and not any(key in candidate for key in ("arguments", "parameters")):
            continue
        args: Any = next((candidate[key] for key in ("arguments", "parameters", "args") if key in candidate), {})
        if isinstance(args, str):
            args = json_repair.loads(args) if args.strip() else {}
        if isinstance(args, dict) and args.get("type") == "object":  # the schema's shape echoed back
            args = args.get("properties") or {key: value for key, value in args.items() if key != "type"}
        calls.append(ToolCall(name=candidate["name"], args=args if isinstance(args, dict) else {},
                              id=f"call_{uuid.uuid4().hex[:12]}", type="tool_call"))
    return calls


def to_chat_messages(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """Convert LangChain messages into OpenAI-style chat-completion dicts."""
    converted: list[dict[str, Any]] = []
    for message in messages:
        entry: dict[str, Any] = {"role": message_role(message), "content": str(message.text)}
        if isinstance(message, AIMessage) and message.tool_calls:
            entry["tool_calls"] = [
                {
                    "id": call.get("id") or f"call_{index}",
                    "type": "function",
                    "function": {"name": call["name"], "arguments": json.dumps(call["args"])},
                }
                for index, call in enumerate(message.tool_calls)
            ]
        if isinstance(message, ToolMessage):
            entry["tool_call_id"] = message.tool_call_id
        converted.append(entry)
    return converted


def message_role(message: BaseMessage) -> str:
    """The chat-completion role of a LangChain message."""
    if isinstance(message, SystemMessage):
        return "system"
    if isinstance(message, HumanMessage):
        return "user"
    if isinstance(message, AIMessage):
        return "assistant"
    if isinstance(message, ToolMessage):
        return "tool"
    if isinstance(message, ChatMessage):
        return message.role
    raise TypeError(f"ChatLocalLlama cannot send a {type(message).__name__}")


def usage_metadata(usage: dict[str, Any] | None) -> UsageMetadata | None:
    """LangChain usage metadata from a llama.cpp usage dict."""
    if not usage:
        return None
    input_tokens = int(usage.get("prompt_tokens", 0))
    output_tokens = int(usage.get("completion_tokens", 0))
    total_tokens = int(usage.get("total_tokens", input_tokens + output_tokens))
    # cast: mypy at python_version 3.10 misreads UsageMetadata's typing.NotRequired keys as required.
    return cast(
        UsageMetadata,
        {"input_tokens": input_tokens, "output_tokens": output_tokens, "total_tokens": total_tokens},
    )
