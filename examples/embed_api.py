"""Embedding autoagent in a program: the CLI's settings object, an observer for each step, a callback.

    python examples/embed_api.py "What is 17 * 23? Save the result to result.txt"
    AUTOAGENT_MODEL=openai:gpt-4o-mini python examples/embed_api.py "What day of the week is 2030-01-01?"

`Settings` holds every `autoagent run` flag (same names, same defaults); `build_agent` builds what the
CLI builds from it. An observer hears the run as it happens (a UI would update here); a LangChain
callback handler sees every model and tool call (LangSmith tracing uses the same mechanism and turns
on with its usual environment variables, LANGSMITH_TRACING=true and LANGSMITH_API_KEY).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler

from autoagent import Settings, build_agent
from autoagent.events import RunObserver
from autoagent.steps import RunResult, Step


class PrintSteps(RunObserver):
    """Prints each step the moment it completes."""

    def on_thinking(self, number: int, max_steps: int) -> None:
        print(f"[{number}/{max_steps}] thinking...", flush=True)

    def on_step(self, step: Step) -> None:
        action = step.action
        called = f"{action.name}({action.args})" if action else step.kind.value
        print(f"[{step.number}] {called} -> {step.observation[:200]!r}", flush=True)

    def on_run_end(self, run: RunResult) -> None:
        print(f"done: {run.describe_stop()} in {run.seconds:.1f} s, {run.usage.calls} model calls", flush=True)


class CountCalls(BaseCallbackHandler):
    """A LangChain callback handler: counts model and tool calls."""

    def __init__(self) -> None:
        self.model_calls = self.tool_calls = 0

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        self.model_calls += 1

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        self.tool_calls += 1


def main(task: str) -> int:
    """Run `task` and print its steps as they come, then the answer."""
    settings = Settings(
        workspace=Path("workspace"),
        max_steps=8,
        tools=["calculator", "current_datetime", "calendar", "write_file", "read_file"],  # None: every tool
        use_memory=False,
        yes=True,  # no terminal prompts: allow side-effecting tools (here only write_file)
    )
    counter = CountCalls()
    agent = build_agent(settings, observers=[PrintSteps()], callbacks=[counter])
    result = agent.execute(task)
    print(f"\nAnswer: {result.answer}")
    print(f"({counter.model_calls} model calls and {counter.tool_calls} tool calls seen by the callback)")
    return 0 if result.finished else 1


if __name__ == "__main__":
    sys.exit(main(" ".join(sys.argv[1:]) or "What is 17 * 23?"))
