"""LangChain's experimental AutoGPT on the scripted calculator task: per-step overhead, or one run's prompts.

Run in bench/.venvs/langchain: `python bench/agent_langchain.py --steps 10,50 --runs 5` prints JSON timings;
`--prompts-out FILE --steps 50` writes the messages of every model call of one run instead.
Memory: FAISS over FakeEmbeddings(size=1536), as in LangChain's AutoGPT example. Its prompt counts tokens
with `llm.get_num_tokens`; the scripted model answers that with len(text) // 4 (cheaper than any tokenizer,
so this favours LangChain's overhead).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore")  # langchain_community's sunset notice, LLMChain's deprecation

import faiss  # noqa: E402
from langchain_community.docstore.in_memory import InMemoryDocstore  # noqa: E402
from langchain_community.vectorstores import FAISS  # noqa: E402
from langchain_core.callbacks import CallbackManagerForLLMRun  # noqa: E402
from langchain_core.embeddings import FakeEmbeddings  # noqa: E402
from langchain_core.language_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langchain_experimental.autonomous_agents import AutoGPT  # noqa: E402
from pydantic import PrivateAttr  # noqa: E402
from scripted_task import (  # noqa: E402
    ANSWER,
    CALCULATOR_DESCRIPTION,
    TASK,
    calculate,
    check_run,
    langchain_reply,
    summarize,
    time_runs,
)

EMBEDDING_SIZE = 1536
USAGE = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}


class InstantChatModel(BaseChatModel):
    """Replies instantly with a prepared script; records each call's messages when `record` is set."""

    # Private: LangChain serialises a model's fields for its callbacks once per run; the script is no field.
    _replies: list[AIMessage] = PrivateAttr(default_factory=list)
    _record: bool = PrivateAttr(False)
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _count: int = PrivateAttr(0)

    def __init__(self, replies: list[AIMessage], record: bool = False) -> None:
        super().__init__()
        self._replies, self._record = replies, record

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

    def get_num_tokens(self, text: str) -> int:
        """A cheap estimate: the default would load GPT-2's tokenizer from the model hub."""
        return len(text) // 4

    @property
    def _llm_type(self) -> str:
        return "instant-script"


def build(steps: int, record: bool = False) -> tuple[AutoGPT, InstantChatModel, list[str]]:
    """A fresh AutoGPT with an empty FAISS memory, the calculator, and a script of `steps` steps."""
    observations: list[str] = []

    @tool("calculator", description=CALCULATOR_DESCRIPTION)
    def calculator(expression: str) -> str:
        result = calculate(expression)
        observations.append(result)
        return result

    embeddings = FakeEmbeddings(size=EMBEDDING_SIZE)
    store = FAISS(embeddings, faiss.IndexFlatL2(EMBEDDING_SIZE), InMemoryDocstore({}), {})
    replies = [AIMessage(content=langchain_reply(step, steps), usage_metadata=USAGE) for step in range(1, steps + 2)]
    llm = InstantChatModel(replies=replies, record=record)
    agent = AutoGPT.from_llm_and_tools(ai_name="AutoAgent", ai_role="an assistant that completes tasks with tools.",
                                       tools=[calculator], llm=llm, memory=store.as_retriever())
    return agent, llm, observations


def run_once(steps: int) -> float:
    """One checked run; the seconds `run` took (its printed replies go to a buffer)."""
    agent, llm, observations = build(steps)
    with contextlib.redirect_stdout(io.StringIO()):
        started = time.perf_counter()
        answer = agent.run([TASK])
        seconds = time.perf_counter() - started
    check_run(observations, steps, answer == ANSWER, "LangChain AutoGPT")
    assert llm.count == steps + 1, f"LangChain AutoGPT made {llm.count} model calls, expected {steps + 1}"
    return seconds


def dump_prompts(steps: int, path: Path) -> None:
    """Write the messages of every model call of one run, as [[{role, text}, ...], ...]."""
    agent, llm, observations = build(steps, record=True)
    with contextlib.redirect_stdout(io.StringIO()):
        answer = agent.run([TASK])
    check_run(observations, steps, answer == ANSWER, "LangChain AutoGPT")
    calls = [[{"role": message.type, "text": message.text} for message in messages] for messages in llm.calls]
    path.write_text(json.dumps({"calls": calls, "loop_calls": steps + 1}), encoding="utf-8")


def main() -> None:
    """Time runs (JSON on stdout) or dump one run's prompts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="10,50")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--prompts-out", type=Path)
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",")]
    if args.prompts_out:
        dump_prompts(steps[-1], args.prompts_out)
        return
    timings = time_runs(run_once, steps, args.runs)
    print(f"  LangChain AutoGPT: {summarize(timings)}", file=sys.stderr, flush=True)
    print(json.dumps(timings))


if __name__ == "__main__":
    main()
