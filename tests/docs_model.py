"""The model the documentation's examples run against: a fake OpenAI-compatible server that answers any
step with the calculator, then FINISH, then the answer, whatever the task, in either prompt language
(tests/test_docs_examples.py)."""

from __future__ import annotations

import json
from typing import Any

from .fake_openai import FakeOpenAI, Text, ToolCalls

EXPRESSION = "1234 * 5678 + 17"
RESULT = "7006669"
ANSWER = f"1234 * 5678 + 17 = {RESULT}."


# Words of the prompts (prompts/en and prompts/zh) that say which request this is
SUMMARY = ("Here is a finished run of an agent", "下面是智能体完成的一次运行")
FINAL_ANSWER = ("Write the final answer to the task", "为用户写出任务的最终答案")
TYPED = ("one JSON value that follows this JSON Schema", "符合下面 JSON Schema 的 JSON 值")  # --output-schema
PLAN = ("Plan which tools to run", "请规划按顺序调用哪些工具")
PLAN_ARGS = ("Reply with the tool's arguments as one JSON object", "只用一个 JSON 对象回复")
CODE = ("a short program for the next part of the task", "完成任务下一部分的简短程序")  # --protocol code's format


def _asks(prompt: str, words: tuple[str, ...]) -> bool:
    return any(phrase in prompt for phrase in words)


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
    if _asks(prompt, SUMMARY):
        return Text(f"The calculator computed {EXPRESSION} and the answer was {RESULT}.")
    if _asks(prompt, TYPED):  # the answer as the schema of the docs' examples has it
        return Text(json.dumps({"value": int(RESULT)}))
    if _asks(prompt, FINAL_ANSWER):
        return Text(ANSWER)
    if _asks(prompt, PLAN):  # plan mode: the plan, then the first tool's arguments
        return Text('["calculator"]')
    if _asks(prompt, PLAN_ARGS):
        return Text(json.dumps({"expression": EXPRESSION}))
    done = RESULT in prompt
    if body.get("tools"):  # native tool calling
        if done:
            return ToolCalls(("final_answer", {"answer": ANSWER}))
        return ToolCalls(("calculator", {"expression": EXPRESSION}))
    if _asks(prompt, CODE):
        if done:
            return Text(f"Thought: I have the result.\nFinal Answer: {ANSWER}")
        return Text(f"Thought: I work it out with a program.\n```python\nprint({EXPRESSION})\n```")
    if "Action Input:" in prompt:  # the react protocol's format
        if done:
            return Text(f"Thought: I have the result.\nFinal Answer: {ANSWER}")
        call = json.dumps({"expression": EXPRESSION})
        return Text(f"Thought: I use the calculator.\nAction: calculator\nAction Input: {call}")
    return Text(_thought("FINISH", {}) if done else _thought("calculator", {"expression": EXPRESSION}))


def docs_server() -> FakeOpenAI:
    """A running fake server that answers every request with `answer` (close it when done)."""
    return FakeOpenAI(responder=answer)
