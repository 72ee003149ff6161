"""The AutoGPT loop: think → parse → (rethink if repeated) → act → observe → remember, within budgets."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from .errors import AutoAgentError
from .events import RunObserver
from .llm.reply_caps import ReplyCaps, ensure_whole
from .loop.answers import answer_from_observations, as_finish, echoes_result, usable_answer
from .loop.budget import Budget, BudgetGuard, price_of
from .loop.context import fit_turn, prompt_limit
from .loop.leads import Lead
from .loop.lifecycle import ALL_OPTIONS, AgentOptions, RunLifecycle, gather_options
from .loop.loop_guard import LoopGuard, insists
from .loop.metering import Meter
from .loop.referee import Referee
from .loop.verify import ungrounded_numbers
from .memory.short_term import ShortTermMemory
from .prompts import format_prompt
from .protocols import Turn, make_protocol
from .reply import Action, ReplyParseError, Thought, ThoughtAndAction
from .steps import RunResult, Step, StepKind, StepOutcome, StopReason
from .tool_use.approval import is_read_only

__all__ = ["AgentOptions", "AutoGPT"]

logger = logging.getLogger("autoagent")

CHECKERS = ("calculator", "calendar")  # the tools that check a drafted answer's arithmetic and days, where it has them

class AutoGPT(RunLifecycle):
    """An autonomous agent: any LangChain chat model, any LangChain tools, prompts from `.templ` files."""

    resumable = True  # `execute(resume=...)` continues a stopped run

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        prompts_path: str | Path | None = None,
        agent_name: str = "AutoAgent",
        agent_role: str | None = None,
        max_thought_steps: int = 10,
        memory_retriever: BaseRetriever | None = None,
        *,
        options: AgentOptions | None = None,
        **keywords: Any,
    ) -> None:
        """The agent; `agent_role` None is the prompts' default role, `options` holds everything else. Each of
        its fields may still be given as a keyword (`lang="zh"`), and `on_step=fn` too (an observer's on_step)."""
        if max_thought_steps < 1:
            raise ValueError("max_thought_steps must be at least 1")
        options = gather_options("AutoGPT", options, keywords, ALL_OPTIONS)
        super().__init__(llm, tools, prompts_path, agent_name, agent_role, max_thought_steps, options)
        self.long_term_memory = options.long_term_memory
        if memory_retriever is None and options.long_term_memory is not None:
            memory_retriever = options.long_term_memory.as_retriever()
        self.memory_retriever = memory_retriever
        self.memory_window = options.memory_window
        self.max_parse_retries = options.max_parse_retries
        self.budget = options.budget or Budget()
        self.context_window = options.context_window
        self.reply_caps = options.reply_caps or ReplyCaps()  # tokens per reply: every model call is bounded
        self.protocol = make_protocol(options.protocol, self.prompts, self.toolbox, self.identity,
                                      compact=options.compact_thoughts)
        self._model = self.protocol.model(llm)
        self._strict_model = self.protocol.strict_model(llm)  # for the retry after an unreadable reply
        self._acting_model = self.protocol.strict_model(llm, finish=False)  # after a finish was sent back
        self._finish = self.prompts.build("finish_instruction", **self.identity)

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task` and return the final answer; `last_run` holds the steps and the stop reason."""
        result = self.execute(task, verbose=verbose)
        if not result.finished:
            logger.warning("run stopped: %s", result.describe_stop())
        return result.answer

    def _work(self, result: RunResult, events: RunObserver, callbacks: Callbacks, started: float) -> None:
        """The loop, then the final answer (the finish's, or one written for a run that stopped)."""
        meter = Meter(self.llm, result.usage, price_of(_model_name(self.llm)), callbacks, events.on_warning)
        memory = ShortTermMemory(self.memory_window)
        for step in result.steps:  # a resumed run's
            memory.add(step)
        result.stop_reason = self._loop(result.task, memory, result, events, meter, started)
        events.on_finishing(result)
        if not result.answer:  # else a finish wrote (and checked) its answer in the loop
            result.answer = self._answer(result.task, memory, result, meter)
        events.on_answer(result)

    def _wrap_up(self, result: RunResult, events: RunObserver) -> None:
        """Remember the run, when the agent has a long-term memory."""
        if self.long_term_memory is not None:
            events.on_remembering(result)
            self._remember(result)

    def _loop(
        self, task: str, memory: ShortTermMemory, result: RunResult, events: RunObserver, meter: Meter,
        started: float,
    ) -> StopReason:
        long_term = self._recall(task)
        loops = LoopGuard()
        loops.record(result.steps)
        guard = BudgetGuard(self.budget, meter.price)
        note = guard.price_note()
        if note:
            events.on_warning(note)
        limit = prompt_limit(self.llm, self.context_window) - self.protocol.fixed_tokens()
        rethink, failures = False, 0
        writers = tuple(name for name, tool in self.toolbox.tools.items() if not is_read_only(tool))
        checkers = (name if self.toolbox.find(name) else "" for name in CHECKERS)
        referee = Referee(self.prompts, tuple(self.toolbox.tools), writers, *checkers)
        first = result.steps[-1].number + 1 if result.steps else 1
        for number in range(first, first + self.max_thought_steps):
            events.on_thinking(number, first + self.max_thought_steps - 1)
            step_started = time.monotonic()
            turn = Turn(task, long_term, memory, rethink, referee.pending(task, result.steps))
            messages = fit_turn(turn, self.protocol.messages, meter.count, limit)
            model = self._model_for(result.steps, failures, referee.lead(turn, result.steps))
            reply, tokens = meter.call(model, messages, self.reply_caps.step)
            draft = partial(self._write_answer, task, memory, result.steps, meter, reply)
            outcome = self._take_step(number, reply, turn, result.steps, referee, loops, events, meter.callbacks,
                                      draft)
            step, stop, result.answer = outcome.step, outcome.stop, outcome.answer
            step = replace(step, seconds=time.monotonic() - step_started - outcome.waited, input_tokens=tokens[0],
                           output_tokens=tokens[1])
            result.steps.append(step)
            memory.add(step)
            loops.record([step])
            events.on_step(step)
            failures = failures + 1 if step.kind is StepKind.PARSE_ERROR else 0
            if stop is not None:
                result.stop_detail = outcome.detail
                return stop
            if failures > self.max_parse_retries:
                return StopReason.UNPARSEABLE
            warnings, spent = guard.check(result.usage, time.monotonic() - started)
            for warning in warnings:
                events.on_warning(warning)
            if spent:
                result.stop_detail = spent
                return StopReason.BUDGET
            rethink = step.kind is StepKind.REPEATED
        return StopReason.MAX_STEPS

    def _model_for(self, steps: Sequence[Step], failures: int, lead: Lead | None) -> Runnable[Any, BaseMessage]:
        """The model as this step calls it, where the backend can be held: led to the task's next part (see
        `Referee.lead`), or to a tool call right after a finish was sent back, or to the reply format after an
        unreadable reply; else as the protocol binds it."""
        guided = self.protocol.guided_model(self.llm, lead.thought_start, lead.takes, lead.avoid, lead.only) \
            if lead else None
        if guided is not None:
            return guided
        last = steps[-1] if steps else None
        sent_back = last is not None and last.kind is StepKind.REJECTED and last.decision is not None \
            and last.decision.is_finish()
        if sent_back and self._acting_model is not None:
            return self._acting_model
        if failures and self._strict_model is not None:
            return self._strict_model
        return self._model

    def _take_step(
        self, number: int, message: BaseMessage, turn: Turn, steps: Sequence[Step], referee: Referee,
        loops: LoopGuard, events: RunObserver, callbacks: Callbacks, draft: Callable[[], str],
    ) -> StepOutcome:
        """Read the reply and act on it: the step, whether the run ends, and the answer of a finish."""
        reply = message.text
        try:
            ensure_whole(message)  # cut at its cap or stopped as a runaway: unreadable, however it parses
            decision = self.protocol.decide(message)
        except ReplyParseError as err:
            return StepOutcome(Step(number, StepKind.PARSE_ERROR, reply, None, self.protocol.explain(err), False))
        if decision.is_finish():
            return self._review_finish(number, reply, decision, turn, steps, referee, events, callbacks, draft)
        meant = self.toolbox.meant(decision.action)
        if meant is not decision.action:  # a tool written as another tool's argument: the call it stands for
            decision = decision.model_copy(update={"action": meant})
        if echoes_result(decision.action, steps):  # calculator("7006669") right after 7006669: it is done
            return self._review_finish(number, reply, as_finish(decision), turn, steps, referee, events, callbacks,
                                       draft)
        tool = self.toolbox.find(decision.action.name)
        writes = tool is not None and not is_read_only(tool)
        objection = referee.review_action(turn.task, decision.action, steps, writes)
        if objection is not None and objection.template == "unworked_write" and referee.calculator:
            thought = self.prompts.render("check_write", **objection.variables)  # worked out first, then written
            return self._check(number, reply, (referee.calculator, objection.variables["text"], thought), events,
                               callbacks)
        if objection is not None:
            return StepOutcome(referee.rejected(number, reply, decision, objection))
        loop = loops.check(decision.action)
        if loop is not None and loop.stop and insists(decision.action, loop.earlier, steps):
            return self._review_finish(number, reply, as_finish(decision), turn, steps, referee, events, callbacks,
                                       draft)
        if loop is not None:
            note = self.prompts.render(
                "repeated_action", number=str(loop.earlier.number), observation=loop.earlier.observation
            )
            step = Step(number, StepKind.REPEATED, reply, decision, note.strip(), success=False)
            return StepOutcome(step, StopReason.LOOP_DETECTED if loop.stop else None)
        events.on_tool_start(decision.action, decision)
        ran = self.toolbox.run(decision.action, callbacks)
        return StepOutcome(Step(number, StepKind.ACTION, reply, decision, ran.content, ran.success), waited=ran.waited)

    def _review_finish(
        self, number: int, reply: str, decision: ThoughtAndAction, turn: Turn, steps: Sequence[Step],
        referee: Referee, events: RunObserver, callbacks: Callbacks, draft: Callable[[], str],
    ) -> StepOutcome:
        """A finish, taken only when earned: else sent back with the referee's note (or the arithmetic a drafted
        answer or the request's units rest on worked out by the calculator), or the run ends unfinished when the
        model was already told."""
        objection, answer = referee.review_finish(turn, steps, draft)
        if objection is None:
            return StepOutcome(Step(number, StepKind.FINISH, reply, decision, ""), StopReason.FINISHED, answer)
        check = referee.calculation_to_check(objection, answer)
        if check is not None:
            return self._check(number, reply, check, events, callbacks)
        kept = answer if objection.ends is not None else ""  # an unverified run still shows its answer
        return StepOutcome(referee.rejected(number, reply, decision, objection), objection.ends, kept,
                           objection.detail)

    def _check(
        self, number: int, reply: str, check: tuple[str, str, str], events: RunObserver, callbacks: Callbacks
    ) -> StepOutcome:
        """A step the agent takes itself, `check` (a tool, its one argument, the thought): the calculator works out
        what a drafted answer computed in its head (or what the request's units give), the calendar reads the day
        the request gives, so the next answer rests on a tool's result."""
        tool, value, thought_text = check
        thought = Thought(text=thought_text.strip())
        argument = next(iter(self.toolbox.args_schema(tool).get("properties", {})), "expression")
        decision = ThoughtAndAction(thought=thought, action=Action(name=tool, args={argument: value}))
        events.on_tool_start(decision.action, decision)
        ran = self.toolbox.run(decision.action, callbacks)
        return StepOutcome(Step(number, StepKind.ACTION, reply, decision, ran.content, ran.success), waited=ran.waited)

    def _answer(self, task: str, memory: ShortTermMemory, result: RunResult, meter: Meter) -> str:
        """The answer of a run that did not finish: after a spent budget no model call is made and the last good
        observation stands; else the finish prompt writes the best answer the tools' results allow (none without
        a result), and the last good observation stands in for an answer stating a number no tool showed."""
        if result.stop_reason is StopReason.BUDGET:
            return answer_from_observations(result.steps)
        if any(step.kind is StepKind.ACTION and step.success for step in result.steps):
            answer = self._write_answer(task, memory, result.steps, meter)
            if ungrounded_numbers(answer, task, result.steps):  # no finish checked it: a number no tool showed
                return answer_from_observations(result.steps)
            return answer
        return ""  # no tool result to answer from: a small model would copy the finish prompt's own words

    def _write_answer(self, task: str, memory: ShortTermMemory, steps: Sequence[Step], meter: Meter,
                      finishing: BaseMessage | None = None) -> str:
        """The final answer: the one a `finishing` reply carries, else the finish prompt's from the tools'
        results; never the reply format or the prompt's own words (the last good observation instead)."""
        decision = self.protocol.decide(finishing) if finishing is not None else None
        carried = self.protocol.final_answer(decision) if decision else None
        if carried:
            return usable_answer(carried, steps, task=task)
        prompt = format_prompt(self._finish, "finish_instruction", task_description=task,
                               short_term_memory=memory.tool_results().render(self.prompts))
        answer = meter.call(self.llm, [HumanMessage(prompt)], self.reply_caps.answer)[0].text
        return usable_answer(answer, steps, scaffold=self._finish.template, task=task)

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
        if not result.steps:
            return
        try:
            self.long_term_memory.remember(result, self.llm, _model_name(self.llm))
        except AutoAgentError as err:
            logger.warning("this run is not remembered: %s", err)


def _model_name(llm: BaseChatModel) -> str:
    """The model's name as it reports it, for prices and memories."""
    return str(getattr(llm, "model_name", None) or getattr(llm, "model", None) or type(llm).__name__)
