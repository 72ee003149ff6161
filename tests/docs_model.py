"""The model the documentation's examples run against: a fake OpenAI-compatible server that answers any
step with the calculator, then FINISH, then the answer, whatever the task (tests/test_docs_examples.py)."""

from __future__ import annotations

import json
from typing import Any

from .fake_openai import FakeOpenAI, Text, ToolCalls

EXPRESSION = "1234 * 5678 + 17"
RESULT = "7006669"
ANSWER = f"1234 * 5678 + 17 = {RESULT}."


def _prompt(body: dict[str, Any]) -> str:
    """The request's messages as one text."""
    parts = []
    for message in body.get("messages", []):
        content = message.get("content") or ""
        parts.append(content if isinstance(content, str) else json.dumps(content))
        parts.extend(json.dumps(call) for call in message.get("tool_calls") or [])
    return "\n".join(parts)


def _thought(action: str, args: dict[str, Any]) -> str:
    return json.dumps({"thought": {"text": "I use the calculator, then answer.", "reasoning": "", "plan": [],
                                   "criticism": "", "speak": ""}, "action": {"name": action, "args": args}})


def answer(body: dict[str, Any]) -> Text | ToolCalls:
    """The reply to one chat request: a summary, a final answer, or the next action of the two-step run."""
    prompt = _prompt(body)
    if "Here is a finished run of an agent" in prompt:
        return Text(f"The calculator computed {EXPRESSION} and the answer was {RESULT}.")
    if "Write the final answer to the task" in prompt:
        return Text(ANSWER)
    if "Plan which tools to run" in prompt:  # plan mode: the plan, then the first tool's arguments
        return Text('["calculator"]')
    if "Reply with the tool's arguments as one JSON object" in prompt:
        return Text(json.dumps({"expression": EXPRESSION}))
    done = RESULT in prompt
    if body.get("tools"):  # native tool calling
        if done:
            return ToolCalls(("final_answer", {"answer": ANSWER}))
        return ToolCalls(("calculator", {"expression": EXPRESSION}))
    if "Action Input:" in prompt:  # the react protocol's format
        if done:
            return Text(f"Thought: I have the result.\nFinal Answer: {ANSWER}")
        call = json.dumps({"expression": EXPRESSION})
        return Text(f"Thought: I use the calculator.\nAction: calculator\nAction Input: {call}")
    return Text(_thought("FINISH", {}) if done else _thought("calculator", {"expression": EXPRESSION}))


def docs_server() -> FakeOpenAI:
    """A running fake server that answers every request with `answer` (close it when done)."""
    return FakeOpenAI(responder=answer)
