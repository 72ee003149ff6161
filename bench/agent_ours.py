"""autoagent on the scripted calculator task: per-step overhead, or the prompts of one run.

Run in the project's venv: `python bench/agent_ours.py --steps 10,50 --runs 5` prints JSON timings;
`--prompts-out FILE --steps 50` writes the text of every model call of one run instead.
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

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr
from scripted_task import TASK, autoagent_reply, check_run, summarize, time_runs

from autoagent import AutoGPT
from autoagent.steps import StepKind, StopReason
from autoagent.tools.calculator import calculator

USAGE = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}


class InstantChatModel(BaseChatModel):
    """Replies instantly with a prepared script: N calculator steps, FINISH, then the final answer;
    records the messages of each call when `record` is set."""

    # Private: LangChain serialises a model's fields for its callbacks once per run; the script is no field.
    _replies: list[AIMessage] = PrivateAttr(default_factory=list)
    _record: bool = PrivateAttr(False)
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _count: int = PrivateAttr(0)

    def __init__(self, replies: list[AIMessage], record: bool = False) -> None:
        super().__init__()
        self._replies, self._record = replies, record

    @classmethod
    def for_steps(cls, steps: int, record: bool = False) -> InstantChatModel:
        """The script of an N-step run."""
        texts = [autoagent_reply(step, steps) for step in range(1, steps + 2)] + ["All the sums are computed."]
        return cls([AIMessage(content=text, usage_metadata=USAGE) for text in texts], record)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self._record:
            self._calls.append(list(messages))
        self._count += 1
        return ChatResult(generations=[ChatGeneration(message=self._replies[self._count - 1])])

    @property
    def calls(self) -> list[list[BaseMessage]]:
        """The messages of each recorded call."""
        return self._calls

    @property
    def count(self) -> int:
        """How many calls were made."""
        return self._count

    @property
    def _llm_type(self) -> str:
        return "instant-script"


def build(steps: int, record: bool = False) -> tuple[AutoGPT, InstantChatModel]:
    """A fresh agent on the calculator alone, memory and compaction off, full thoughts (the fair match for
    LangChain's)."""
    llm = InstantChatModel.for_steps(steps, record)
    # no advisors (the coach is one): the bench measures the core loop. Compaction off: its summary is a model call
    # the script has no reply for, the peers compared have none, and the figures stay comparable with those before it.
    agent = AutoGPT(llm, [calculator], max_thought_steps=steps + 1, memory_retriever=None, long_term_memory=None,
                    protocol="json", compact_thoughts=False, compaction=False)
    return agent, llm


def run_once(steps: int, display: bool = False) -> float:
    """One checked run; the seconds `execute` took."""
    agent, llm = build(steps)
    sink = io.StringIO()
    with contextlib.redirect_stderr(sink) if display else contextlib.nullcontext():
        started = time.perf_counter()
        result = agent.execute(TASK, verbose=display)
        seconds = time.perf_counter() - started
    observations = [step.observation for step in result.steps if step.kind is StepKind.ACTION]
    check_run(observations, steps, result.stop_reason is StopReason.FINISHED, "autoagent")
    assert llm.count == steps + 2, f"autoagent made {llm.count} model calls, expected {steps + 2}"
    return seconds


def dump_prompts(steps: int, path: Path) -> None:
    """Write the messages of every model call of one run, as [[{role, text}, ...], ...]."""
    agent, llm = build(steps, record=True)
    result = agent.execute(TASK)
    observations = [step.observation for step in result.steps if step.kind is StepKind.ACTION]
    check_run(observations, steps, result.stop_reason is StopReason.FINISHED, "autoagent")
    calls = [[{"role": message.type, "text": message.text} for message in messages] for messages in llm.calls]
    path.write_text(json.dumps({"calls": calls, "loop_calls": steps + 1}), encoding="utf-8")


def main() -> None:
    """Time runs (JSON on stdout) or dump one run's prompts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="10,50")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--display", action="store_true", help="show the step trace (sent to a buffer)")
    parser.add_argument("--prompts-out", type=Path)
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]
    if args.prompts_out:
        dump_prompts(steps[-1], args.prompts_out)
        return
    timings = time_runs(lambda n: run_once(n, args.display), steps, args.runs)
    print(f"  autoagent{' (display on)' if args.display else ''}: {summarize(timings)}", file=sys.stderr, flush=True)
    print(json.dumps(timings))


if __name__ == "__main__":
    main()
