"""The AutoGPT loop: think → parse → (rethink if repeated) → act → observe → remember, within budgets."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool

from .acting.effects import Session, session
from .advice import RunSetup, start_advisors
from .checks import named
from .errors import ModelUnavailableError
from .events import RunObserver
from .llm.profile import ModelProfile, model_name
from .llm.reply_caps import ReplyCaps
from .loop.actor import Actor
from .loop.budget import Budget, BudgetGuard, Spending, price_of
from .loop.compaction import compact, compacts
from .loop.context import fit_turn, prompt_limit
from .loop.drafting import Drafter, TypedFinish
from .loop.finish import FinishReview
from .loop.lifecycle import ALL_OPTIONS, AgentOptions, RunLifecycle, gather_options
from .loop.loop_guard import last_failed
from .loop.metering import Meter
from .loop.models import StepModels
from .loop.state import RunState
from .memory.recall import recall, remember
from .memory.short_term import ShortTermMemory
from .protocols import Turn, make_protocol, resolved, tools_for
from .reply import ThoughtAndAction
from .steps import Ending, RunResult, Step, StepOutcome, StopReason
from .subagents.calls import Caller, calling, current_caller
from .subagents.tool import AgentTool, check_nesting
from .typed_output import OutputType, held_to_schema

__all__ = ["AgentOptions", "AutoGPT"]

logger = logging.getLogger("autoagent")


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
        profile = options.profile or ModelProfile.of(llm)
        options = replace(options, protocol=resolved(options.protocol, profile, tools), profile=profile)
        tools = tools_for(options.protocol, tools)
        super().__init__(llm, tools, prompts_path, agent_name, agent_role, max_thought_steps, options)
        check_nesting(tools, (self,))
        self.long_term_memory = options.long_term_memory
        if memory_retriever is None and options.long_term_memory is not None:
            memory_retriever = options.long_term_memory.as_retriever()
        self.memory_retriever = memory_retriever
        self.memory_window = options.memory_window
        self.max_parse_retries = options.max_parse_retries
        self.budget = options.budget or Budget()
        self.context_window = options.context_window
        self.reply_caps = options.reply_caps or ReplyCaps()  # tokens per reply: every model call is bounded
        self.output = OutputType.of(options.output_type) if options.output_type is not None else None
        self.checks = [named(check) for check in options.checks]
        if self.output is not None:  # last: the answer the other checks let stand is the one held to the schema
            self.checks.append(self.output.check(self.prompts))
        self.protocol = make_protocol(options.protocol, self.prompts, self.toolbox, self.identity,
                                      compact=options.compact_thoughts)
        self.primary, self.fallback = llm, options.fallback
        self._use(llm)

    def _use(self, llm: BaseChatModel) -> None:
        """Call `llm` from now on: the agent's own model, or the fallback for the rest of a run."""
        self.llm = llm
        self.models = StepModels(self.protocol, llm)
        finish = self.prompts.build("finish_instruction", **self.identity)
        self.drafter = Drafter(llm, self.protocol, self.prompts, finish, self.reply_caps, self._typed_finish(llm))

    def _typed_finish(self, llm: BaseChatModel) -> TypedFinish | None:
        """How the finish prompt asks for an answer of the output type, and the model held to it; None: free text."""
        if self.output is None:
            return None
        template = self.prompts.build("finish_typed", **self.identity, output_schema=self.output.shown())
        return TypedFinish(template, held_to_schema(llm, self.output.schema))

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task` and return the final answer; `last_run` holds the steps and the stop reason."""
        result = self.execute(task, verbose=verbose)
        if not result.finished:
            logger.warning("run stopped: %s", result.describe_stop())
        return result.answer

    def as_tool(self, name: str, description: str) -> AgentTool:
        """This agent as a tool another agent can call with a task: its answer is the observation, and within a
        run its spending, approvals and steps are its caller's (autoagent/subagents/)."""
        return AgentTool(name=name, description=description, agent=self)

    def _work(self, result: RunResult, events: RunObserver, callbacks: Callbacks, began_at: float) -> None:
        """The loop, then the final answer (the finish's, or one written for a run that stopped)."""
        run = self._start(result, events, callbacks, began_at)
        above = current_caller()  # the run that called this agent as a tool, if one did
        with calling(Caller(self, self.identity["ai_name"], events, run.spending, above)), session(Session()):
            ending = self._loop(run)
        result.stop_reason, result.stop_detail = ending.stop, ending.detail
        result.answer, result.model_answer = ending.answer, ending.model_answer
        if self.output is not None and result.finished:
            result.output = self.output.parse(result.answer)  # the output check accepted it
        events.on_finishing(result)
        if not result.answer and not result.model_answer:  # no finish came to an answer: one is written now
            result.answer = self.drafter.stopped_answer(result.stop_reason, result.task, run.memory, result.steps,
                                                        run.meter, run.advisors)
        events.on_answer(result)

    def _loop(self, run: RunState) -> Ending:
        """Steps until one ends the run, a budget is spent, or the steps run out."""
        note = run.spending.guard.price_note()
        if note:
            run.events.on_warning(note)
        first = run.steps[-1].number + 1 if run.steps else 1
        last = first + self.max_thought_steps - 1
        for number in range(first, last + 1):
            run.events.on_thinking(number, last)
            outcome = self._step_or_fall_back(number, run)
            run.record(outcome.step)
            ending = outcome.ending or run.ending(self.max_parse_retries)
            if ending is not None:
                return ending
        return Ending(StopReason.MAX_STEPS)

    def _step_or_fall_back(self, number: int, run: RunState) -> StepOutcome:
        """The step; where the model fails after its retries and there is a fallback, the run goes on with it from
        this step."""
        try:
            return self._step(number, run)
        except ModelUnavailableError as err:
            if self.fallback is None or self.llm is self.fallback:
                raise
            name = model_name(self.fallback)
            run.events.on_warning(f"the model failed ({err}); the run goes on with the fallback model {name}")
            self._use(self.fallback)
            run.meter.use(self.fallback, price_of(name))
            run.actor.review.drafter = self.drafter
            run.limit = prompt_limit(self.fallback, self.context_window) - self.protocol.fixed_tokens()
            return self._step(number, run)

    def _step(self, number: int, run: RunState) -> StepOutcome:
        """One turn: think (the model is called, or the next call of its last reply is taken), parse, act; the
        step it made, timed and with the tokens its call used."""
        began, turn, tokens, carrier = time.monotonic(), run.turn(), (0, 0), 0
        read: ThoughtAndAction | Step
        if run.queued:  # the next call of a reply that made several: no model call
            last = run.steps[-1]
            reply, read, carrier = last.reply, run.queued.pop(0), last.in_reply_of or last.number
        else:
            small = self.options.profile is not None and self.options.profile.small
            if compacts(self.options.compaction, self.max_thought_steps, self.memory_window, small):
                compact(run.memory, turn.task, self.prompts, run.meter, run.events)
                run.result.summary, run.result.summarized = run.memory.summary, run.memory.summarized
            advice = run.advice(turn)
            shown = Turn(turn.task, run.long_term, run.memory, turn.rethink, last_failed(run.steps), advice)
            messages = fit_turn(shown, self.protocol.messages, run.meter.count, run.limit)
            model = self.models.choose(run.steps, run.failures(), advice)
            message, tokens = run.meter.call(model, messages, self.reply_caps.step)
            reply, decisions = message.text, self.models.read(number, message)
            read = decisions if isinstance(decisions, Step) else decisions[0]
            run.queued = [] if isinstance(decisions, Step) else decisions[1:]
        outcome = StepOutcome(read) if isinstance(read, Step) else run.actor.act(number, reply, read, turn)
        answered = model_name(self.llm) if self.llm is not self.primary else ""
        step = replace(outcome.step, seconds=time.monotonic() - began - outcome.waited, input_tokens=tokens[0],
                       output_tokens=tokens[1], in_reply_of=carrier, model=answered)
        return replace(outcome, step=step)

    def _start(self, result: RunResult, events: RunObserver, callbacks: Callbacks, began_at: float) -> RunState:
        """The working parts of a run that begins (or goes on from `result.steps`) now."""
        meter = Meter(self.llm, result.usage, price_of(model_name(self.llm)), callbacks, events)
        memory = ShortTermMemory(self.memory_window)
        if result.summarized:  # a resumed run's summary of its earlier steps
            memory.summarize(result.summary, result.summarized)
        for step in result.steps:  # a resumed run's
            memory.add(step)
        above = current_caller()
        spending = Spending(BudgetGuard(self.budget, meter.price), result.usage, began_at,
                            above.spending if above else None)
        long_term = recall(self.memory_retriever, result.task, self.prompts)
        setup = RunSetup(result.task, self.prompts, self.toolbox, self.options.profile or ModelProfile(), long_term,
                         resumed=bool(result.steps), step_tokens=self.reply_caps.step)
        advisors = start_advisors(self.options.advisors, setup)
        review = FinishReview(self.drafter, memory, meter, advisors, self.checks, tuple(self.toolbox.tools),
                              self.output.admits if self.output is not None else lambda answer: True)
        actor = Actor(self.toolbox, self.prompts, advisors, review, events, meter.callbacks)
        actor.loops.record(result.steps)
        limit = prompt_limit(self.llm, self.context_window) - self.protocol.fixed_tokens()
        return RunState(result, events, memory, meter, spending, long_term, limit, advisors, actor,
                        began=len(result.steps))

    def _wrap_up(self, result: RunResult, events: RunObserver) -> None:
        """Remember the run, when the agent has a long-term memory; the next run begins on the agent's own model."""
        try:
            if self.long_term_memory is not None:
                events.on_remembering(result)
                remember(self.long_term_memory, result, self.llm)
        finally:
            if self.llm is not self.primary:
                self._use(self.primary)
