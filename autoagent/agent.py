"""The AutoGPT loop: think → parse → (rethink if repeated) → act → observe → remember."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool

from .errors import AutoAgentError, ModelUnavailableError, PromptTemplateError
from .llm import describe_model_error
from .memory.short_term import ShortTermMemory
from .prompts import PromptTemplateBuilder, format_prompt
from .reply import ReplyParseError, ThoughtActionParser
from .steps import RunResult, Step, StepKind, StopReason, Usage
from .toolbox import Toolbox
from .trace import print_step

logger = logging.getLogger("autoagent")

DEFAULT_ROLE = "an assistant that completes the user's task with tools."
STEP_VARIABLES = {"task_description", "long_term_memory", "short_term_memory", "step_instruction"}


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
        callbacks: Callbacks = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        if max_thought_steps < 1:
            raise ValueError("max_thought_steps must be at least 1")
        self.llm = llm
        self.toolbox = Toolbox(tools)
        self.memory_retriever = memory_retriever
        self.max_thought_steps = max_thought_steps
        self.memory_window = memory_window
        self.max_parse_retries = max_parse_retries
        self.callbacks = callbacks
        self.on_step = on_step
        self.parser = ThoughtActionParser(compact=compact_thoughts)
        self.prompts = PromptTemplateBuilder(prompts_path, lang)
        identity = {"ai_name": agent_name, "ai_role": agent_role}
        self._main = self.prompts.build(
            "main",
            **identity,
            tools=self.toolbox.describe(),
            format_instruction=self.parser.get_format_instructions(),
        )
        unfilled = set(self._main.input_variables) - STEP_VARIABLES
        if unfilled:
            raise PromptTemplateError(f"main.templ: nothing fills {', '.join(sorted(unfilled))}")
        self._finish = self.prompts.build("finish_instruction", **identity)
        self._step_instruction = self.prompts.render("step_instruction")
        self._force_rethink = self.prompts.render("force_rethink")
        self.last_run: RunResult | None = None

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task` and return the final answer; `last_run` holds the steps and the stop reason."""
        result = self.execute(task, verbose=verbose)
        if not result.finished:
            logger.warning("run stopped: %s", result.stop_reason.describe())
        return result.answer

    def execute(self, task: str, verbose: bool = False) -> RunResult:
        """Run `task` and return the whole record of the run."""
        result = self.last_run = RunResult(task=task)
        memory = ShortTermMemory(self.memory_window)
        started = time.monotonic()
        try:
            result.stop_reason = self._loop(task, memory, result, verbose)
            if result.finished or any(step.kind is StepKind.ACTION for step in result.steps):
                result.answer = self._write_answer(task, memory, result.usage)
        except KeyboardInterrupt:
            result.stop_reason = StopReason.INTERRUPTED
            raise
        finally:
            result.seconds = time.monotonic() - started
        return result

    def _loop(self, task: str, memory: ShortTermMemory, result: RunResult, verbose: bool) -> StopReason:
        long_term = self._recall(task)
        rethink = False
        failures = 0
        for number in range(1, self.max_thought_steps + 1):
            started = time.monotonic()
            prompt = format_prompt(
                self._main,
                "main",
                task_description=task,
                long_term_memory=long_term,
                short_term_memory=memory.render(self.prompts),
                step_instruction=self._force_rethink if rethink else self._step_instruction,
            )
            reply = self._call_model(prompt, result.usage)
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

    def _take_step(self, number: int, reply: str, memory: ShortTermMemory) -> tuple[Step, StopReason | None]:
        """Parse the reply and act on it; return the step and, when the run must end, why."""
        try:
            decision = self.parser.parse(reply)
        except ReplyParseError as err:
            note = self.prompts.render("parse_error", error=err.problem)
            return Step(number, StepKind.PARSE_ERROR, reply, None, note.strip(), success=False), None
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
        """Long-term memories relevant to `task`, or the empty-memory text."""
        documents = self.memory_retriever.invoke(task) if self.memory_retriever else []
        if not documents:
            return self.prompts.render("empty_memory").strip()
        return "\n".join(f"- {document.page_content.strip()}" for document in documents)

    def _write_answer(self, task: str, memory: ShortTermMemory, usage: Usage) -> str:
        """The finish prompt: the final answer written from the short-term memory."""
        prompt = format_prompt(
            self._finish, "finish_instruction", task_description=task, short_term_memory=memory.render(self.prompts)
        )
        return self._call_model(prompt, usage).strip()

    def _call_model(self, prompt: str, usage: Usage) -> str:
        try:
            message = self.llm.invoke([HumanMessage(prompt)], config={"callbacks": self.callbacks})
        except AutoAgentError:
            raise
        except Exception as err:  # infrastructure, not the model's mistake: stop with a clear error
            raise ModelUnavailableError(describe_model_error(err)) from err
        usage.calls += 1
        if message.usage_metadata:
            usage.input_tokens += message.usage_metadata["input_tokens"]
            usage.output_tokens += message.usage_metadata["output_tokens"]
        return message.text

    def _report(self, step: Step, verbose: bool) -> None:
        if self.on_step is not None:
            self.on_step(step)
        if verbose:
            print_step(step, self.max_thought_steps)
