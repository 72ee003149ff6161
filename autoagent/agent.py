"""The AutoGPT loop: think → parse → (rethink if repeated) → act → observe → remember."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool

from .errors import AutoAgentError
from .memory.short_term import ShortTermMemory
from .model_call import invoke_model

if TYPE_CHECKING:
    from .memory.long_term import LongTermMemory
from .prompts import PromptTemplateBuilder, format_prompt
from .protocols import Turn, make_protocol
from .reply import ReplyParseError
from .steps import RunResult, Step, StepKind, StopReason, Usage
from .toolbox import Toolbox
from .trace import print_step

logger = logging.getLogger("autoagent")

DEFAULT_ROLE = "an assistant that completes the user's task with tools."


class AutoGPT:
    """An autonomous agent: any LangChain chat model, any LangChain tools, prompts from `.templ` files."""

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        prompts_path: str | Path | None = None,
        agent_name: str = "AutoAgent",
        agent_role: str = DEFAULT_ROLE,
        max_thought_steps: int = 10,
        memory_retriever: BaseRetriever | None = None,
        *,
        lang: str = "en",
        memory_window: int = 5,
        max_parse_retries: int = 3,
        compact_thoughts: bool = False,
        protocol: str = "json",
        long_term_memory: LongTermMemory | None = None,
        callbacks: Callbacks = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        if max_thought_steps < 1:
            raise ValueError("max_thought_steps must be at least 1")
        self.llm = llm
        self.toolbox = Toolbox(tools)
        self.long_term_memory = long_term_memory
        if memory_retriever is None and long_term_memory is not None:
            memory_retriever = long_term_memory.as_retriever()
        self.memory_retriever = memory_retriever
        self.max_thought_steps = max_thought_steps
        self.memory_window = memory_window
        self.max_parse_retries = max_parse_retries
        self.callbacks = callbacks
        self.on_step = on_step
        self.prompts = PromptTemplateBuilder(prompts_path, lang)
        identity = {"ai_name": agent_name, "ai_role": agent_role}
        self.protocol = make_protocol(protocol, self.prompts, self.toolbox, identity, compact=compact_thoughts)
        self._model = self.protocol.model(llm)
        self._strict_model = self.protocol.strict_model(llm)  # for the retry after an unreadable reply
        self._finish = self.prompts.build("finish_instruction", **identity)
        self.last_run: RunResult | None = None

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task` and return the final answer; `last_run` holds the steps and the stop reason."""
        result = self.execute(task, verbose=verbose)
        if not result.finished:
            logger.warning("run stopped: %s", result.describe_stop())
        return result.answer

    def execute(self, task: str, verbose: bool = False) -> RunResult:
        """Run `task` and return the whole record of the run."""
        result = self.last_run = RunResult(task=task)
        memory = ShortTermMemory(self.memory_window)
        started = time.monotonic()
        try:
            result.stop_reason = self._loop(task, memory, result, verbose)
            decision = result.steps[-1].decision if result.finished else None
            carried = self.protocol.final_answer(decision) if decision else None
            if carried:
                result.answer = carried
            elif result.finished or any(step.kind is StepKind.ACTION for step in result.steps):
                result.answer = self._write_answer(task, memory, result.usage)
        except KeyboardInterrupt:
            result.stop_reason = StopReason.INTERRUPTED
            raise
        except AutoAgentError as err:
            result.stop_reason, result.stop_detail = StopReason.ERROR, str(err)
            raise
        finally:
            result.seconds = time.monotonic() - started
            if self.long_term_memory is not None and result.stop_reason is not StopReason.INTERRUPTED:
                self._remember(result)
        return result

    def _loop(self, task: str, memory: ShortTermMemory, result: RunResult, verbose: bool) -> StopReason:
        long_term = self._recall(task)
        rethink = False
        failures = 0
        for number in range(1, self.max_thought_steps + 1):
            started = time.monotonic()
            messages = self.protocol.messages(Turn(task, long_term, memory, rethink))
            model = self._strict_model if failures and self._strict_model is not None else self._model
            reply = invoke_model(model, messages, result.usage, self.callbacks)
            step, stop = self._take_step(number, reply, memory)
            step = replace(step, seconds=time.monotonic() - started)
            result.steps.append(step)
            memory.add(step)
            self._report(step, verbose)
            failures = failures + 1 if step.kind is StepKind.PARSE_ERROR else 0
            if stop is not None:
                return stop
            if failures > self.max_parse_retries:
                return StopReason.UNPARSEABLE
            rethink = step.kind is StepKind.REPEATED
        return StopReason.MAX_STEPS

    def _take_step(
        self, number: int, message: BaseMessage, memory: ShortTermMemory
    ) -> tuple[Step, StopReason | None]:
        """Read the reply and act on it; return the step and, when the run must end, why."""
        reply = message.text
        try:
            decision = self.protocol.decide(message)
        except ReplyParseError as err:
            return Step(number, StepKind.PARSE_ERROR, reply, None, self.protocol.explain(err), success=False), None
        if decision.is_finish():
            return Step(number, StepKind.FINISH, reply, decision, ""), StopReason.FINISHED
        earlier = memory.earlier(decision.action)
        if earlier:
            note = self.prompts.render(
                "repeated_action", number=str(earlier[0].number), observation=earlier[0].observation
            )
            step = Step(number, StepKind.REPEATED, reply, decision, note.strip(), success=False)
            return step, StopReason.LOOP_DETECTED if len(earlier) >= 2 else None
        outcome = self.toolbox.run(decision.action, self.callbacks)
        return Step(number, StepKind.ACTION, reply, decision, outcome.content, outcome.success), None

    def _recall(self, task: str) -> str:
        """Long-term memories relevant to `task` (once per run: the task does not change), or the
        empty-memory text; a memory that cannot be read is reported, and the run goes on without it."""
        try:
            documents = self.memory_retriever.invoke(task) if self.memory_retriever else []
        except Exception as err:  # any retriever (a vector-store server, too): the run goes on without memories
            logger.warning("no memories recalled: %s: %s", type(err).__name__, err)
            documents = []
        if not documents:
            return self.prompts.render("empty_memory").strip()
        return "\n".join(f"- {document.page_content.strip()}" for document in documents)

    def _remember(self, result: RunResult) -> None:
        """Summarise the run into long-term memory; a failure to do so is reported, never raised."""
        assert self.long_term_memory is not None
        name = getattr(self.llm, "model_name", None) or getattr(self.llm, "model", None) or type(self.llm).__name__
        try:
            self.long_term_memory.remember(result, self.llm, str(name))
        except AutoAgentError as err:
            logger.warning("this run is not remembered: %s", err)

    def _write_answer(self, task: str, memory: ShortTermMemory, usage: Usage) -> str:
        """The finish prompt: the final answer written from the short-term memory."""
        prompt = format_prompt(
            self._finish, "finish_instruction", task_description=task, short_term_memory=memory.render(self.prompts)
        )
        return invoke_model(self.llm, [HumanMessage(prompt)], usage, self.callbacks).text.strip()

    def _report(self, step: Step, verbose: bool) -> None:
        if self.on_step is not None:
            self.on_step(step)
        if verbose:
            print_step(step, self.max_thought_steps)

