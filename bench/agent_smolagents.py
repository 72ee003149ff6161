"""smolagents' ToolCallingAgent on the scripted calculator task: per-step overhead, or one run's prompts.

Run in bench/.venvs/smolagents: `python bench/agent_smolagents.py --steps 10,50 --runs 5 [--logging]` prints JSON
timings (logging off unless --logging; its console output then goes to a buffer); `--prompts-out FILE` writes
the messages of every model call of one run, the tool schemas sent with each call counted as one more message.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

from scripted_task import ANSWER, TASK, calculate, check_run, expression, summarize, thought, time_runs
from smolagents import ToolCallingAgent, tool
from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
    Model,
    get_tool_json_schema,
)
from smolagents.monitoring import LogLevel, TokenUsage

OBSERVATIONS: list[str] = []


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression and return the number, e.g. "1234*5678+17".

    Args:
        expression: Numbers with + - * / % ^ and parentheses.
    """
    result = calculate(expression)
    OBSERVATIONS.append(result)
    return result


class InstantModel(Model):
    """Replies instantly with a prepared script of tool calls, final_answer last; records calls when asked."""

    def __init__(self, steps: int, record: bool = False) -> None:
        super().__init__(model_id="instant-script")
        self.replies = [self._reply(step, steps) for step in range(1, steps + 2)]
        self.record = record
        self.calls: list[list[dict[str, str]]] = []
        self.count = 0

    @staticmethod
    def _reply(step: int, steps: int) -> ChatMessage:
        name, args = ("final_answer", {"answer": ANSWER}) if step > steps else ("calculator",
                                                                                 {"expression": expression(step)})
        call = ChatMessageToolCall(function=ChatMessageToolCallFunction(name=name, arguments=args),
                                   id=f"call_{step}", type="function")
        return ChatMessage(role=MessageRole.ASSISTANT, content=thought(step, steps)["text"], tool_calls=[call],
                           token_usage=TokenUsage(input_tokens=0, output_tokens=0))

    def generate(
        self,
        messages: list[Any],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> ChatMessage:
        if self.record:
            call = [{"role": str(getattr(m, "role", "")), "text": _text(m)} for m in messages]
            schemas = [get_tool_json_schema(t) for t in tools_to_call_from or []]
            call.append({"role": "tools", "text": json.dumps(schemas)})
            self.calls.append(call)
        self.count += 1
        return self.replies[self.count - 1]


def _text(message: Any) -> str:
    """A message's text, whether its content is a string or a list of parts."""
    content = message.content if hasattr(message, "content") else message.get("content")
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def build(steps: int, logging: bool, record: bool = False) -> tuple[ToolCallingAgent, InstantModel]:
    """A fresh ToolCallingAgent on the calculator alone."""
    model = InstantModel(steps, record)
    level = LogLevel.INFO if logging else LogLevel.OFF
    return ToolCallingAgent(tools=[calculator], model=model, max_steps=steps + 1, verbosity_level=level), model


def run_once(steps: int, logging: bool = False) -> float:
    """One checked run; the seconds `run` took."""
    OBSERVATIONS.clear()
    with contextlib.redirect_stdout(io.StringIO()):
        agent, model = build(steps, logging)
        started = time.perf_counter()
        answer = agent.run(TASK)
        seconds = time.perf_counter() - started
    check_run(list(OBSERVATIONS), steps, answer == ANSWER, "smolagents")
    assert model.count == steps + 1, f"smolagents made {model.count} model calls, expected {steps + 1}"
    return seconds


def dump_prompts(steps: int, path: Path) -> None:
    """Write the messages of every model call of one run, as [[{role, text}, ...], ...]."""
    OBSERVATIONS.clear()
    agent, model = build(steps, logging=False, record=True)
    answer = agent.run(TASK)
    check_run(list(OBSERVATIONS), steps, answer == ANSWER, "smolagents")
    path.write_text(json.dumps({"calls": model.calls, "loop_calls": steps + 1}), encoding="utf-8")


def main() -> None:
    """Time runs (JSON on stdout) or dump one run's prompts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="10,50")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--logging", action="store_true", help="smolagents' default console logging")
    parser.add_argument("--prompts-out", type=Path)
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]
    if args.prompts_out:
        dump_prompts(steps[-1], args.prompts_out)
        return
    timings = time_runs(lambda n: run_once(n, args.logging), steps, args.runs)
    label = "default logging" if args.logging else "logging off"
    print(f"  smolagents ({label}): {summarize(timings)}", file=sys.stderr, flush=True)
    print(json.dumps(timings))


if __name__ == "__main__":
    main()
