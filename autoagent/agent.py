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
from langchain_core.messages import BaseMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from .acting.approval import is_read_only
from .acting.effects import Effects, Session, session
from .acting.toolbox import ToolResult
from .checks import named
from .coach import Coach, Lead, coach_wanted
from .errors import AutoAgentError
from .events import RunObserver
from .llm.reply_caps import ReplyCaps, declares, ensure_whole, sampling
from .loop.answers import answer_from_observations, as_finish
from .loop.budget import Budget, BudgetGuard, Spending, price_of
from .loop.context import fit_turn, prompt_limit
from .loop.finish import SAMPLE_TEMPERATURE, FinishReview, write_answer
from .loop.lifecycle import ALL_OPTIONS, AgentOptions, RunLifecycle, gather_options
from .loop.loop_guard import LoopGuard, failed, insists, last_failed
from .loop.metering import Meter
from .memory.short_term import ShortTermMemory
from .protocols import Turn, make_protocol, resolved, tools_for
from .reply import Action, ReplyParseError, Thought, ThoughtAndAction
from .steps import RunResult, Step, StepKind, StepOutcome, StopReason, SubRun, ran
from .subagents.calls import Caller, calling, current_caller
from .subagents.tool import AgentTool, check_nesting

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
        options = replace(options, protocol=resolved(options.protocol, llm, tools))  # auto: code or json
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
        self.coached = coach_wanted(options.coach, llm)  # small-model help: see autoagent/coach/
        self.checks = [named(check) for check in options.checks]
        self.protocol = make_protocol(options.protocol, self.prompts, self.toolbox, self.identity,
                                      compact=options.compact_thoughts)
        self._model = self.protocol.model(llm)
        self._strict_model = self.protocol.strict_model(llm)  # for the retry after an unreadable reply
        self._acting_model = self.protocol.strict_model(llm, finish=False)  # after a finish was sent back
        self.finish_template = self.prompts.build("finish_instruction", **self.identity)

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

    def _work(self, result: RunResult, events: RunObserver, callbacks: Callbacks, started: float) -> None:
        """The loop, then the final answer (the finish's, or one written for a run that stopped)."""
        meter = Meter(self.llm, result.usage, price_of(_model_name(self.llm)), callbacks, events.on_warning)
        memory = ShortTermMemory(self.memory_window)
        for step in result.steps:  # a resumed run's
            memory.add(step)
        sampled = declares(self.llm, "temperature")  # a model that can be asked again and answer anew
        coach = Coach(self.prompts, self.toolbox, can_sample=sampled) if self.coached else None
        above = current_caller()  # the run that called this agent as a tool, if one did
        spending = Spending(BudgetGuard(self.budget, meter.price), result.usage, started,
                            above.spending if above else None)
        with calling(Caller(self, self.identity["ai_name"], events, spending, above)), session(Session()):
            result.stop_reason = self._loop(result, memory, events, meter, spending, coach)
        events.on_finishing(result)
        if not result.answer and not result.model_answer:  # else a finish wrote (and checked) its answer
            result.answer = self._answer(result, memory, meter, coach)
        events.on_answer(result)

    def _wrap_up(self, result: RunResult, events: RunObserver) -> None:
        """Remember the run, when the agent has a long-term memory."""
        if self.long_term_memory is not None:
            events.on_remembering(result)
            self._remember(result)

    def _loop(self, result: RunResult, memory: ShortTermMemory, events: RunObserver, meter: Meter,
              spending: Spending, coach: Coach | None) -> StopReason:
        task, long_term, loops = result.task, self._recall(result.task), LoopGuard()
        loops.record(result.steps)
        note = spending.guard.price_note()
        if note:
            events.on_warning(note)
        limit = prompt_limit(self.llm, self.context_window) - self.protocol.fixed_tokens()
        review = FinishReview(self, memory, meter, long_term, coach)
        rethink, failures, queued = False, 0, list[ThoughtAndAction]()
        first = result.steps[-1].number + 1 if result.steps else 1
        for number in range(first, first + self.max_thought_steps):
            events.on_thinking(number, first + self.max_thought_steps - 1)
            step_started, tokens = time.monotonic(), (0, 0)
            turn = Turn(task, long_term, memory, rethink, coach.pending(task, result.steps) if coach else (),
                        failed=last_failed(result.steps), workspace=coach.workspace if coach and first == 1 else "")
            read: ThoughtAndAction | Step
            if queued:  # the next call of a reply that made several: no model call
                reply, read, carrier = result.steps[-1].reply, queued.pop(0), _carrier(result.steps)
            else:
                messages = fit_turn(turn, self.protocol.messages, meter.count, limit)
                model = self._model_for(result.steps, failures, coach.lead(turn, result.steps) if coach else None,
                                        redraw=coach is not None and coach.redraws(result.steps))
                message, tokens = meter.call(model, messages, self.reply_caps.step)
                decisions, carrier = self._read(number, message), 0
                reply = message.text
                read, queued = (decisions[0], decisions[1:]) if isinstance(decisions, list) else (decisions, [])
            outcome = StepOutcome(read) if isinstance(read, Step) else \
                self._take_step(number, reply, read, turn, result, loops, events, meter.callbacks, review, coach)
            step, stop = outcome.step, outcome.stop
            step = replace(step, seconds=time.monotonic() - step_started - outcome.waited, input_tokens=tokens[0],
                           output_tokens=tokens[1], in_reply_of=carrier)
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
            warnings, spent = spending.check()  # this run's budget, and every caller's
            for warning in warnings:
                events.on_warning(warning)
            if spent:
                result.stop_detail = spent
                return StopReason.BUDGET
            rethink = step.kind is StepKind.REPEATED
        return StopReason.MAX_STEPS

    def _read(self, number: int, message: BaseMessage) -> list[ThoughtAndAction] | Step:
        """Every call the reply makes, in order (one, but for native tool calling), or the parse-error step."""
        try:
            ensure_whole(message)  # cut at its cap or stopped as a runaway: unreadable, however it parses
            return self.protocol.decide_all(message)
        except ReplyParseError as err:
            return Step(number, StepKind.PARSE_ERROR, message.text, None, self.protocol.explain(err), False)

    def _model_for(self, steps: Sequence[Step], failures: int, lead: Lead | None,
                   redraw: bool = False) -> Runnable[Any, BaseMessage]:
        """The model as this step calls it, where the backend can be held: led by the coach to the task's next
        part, or to a tool call right after a finish was sent back, or to the reply format after an unreadable
        reply; else as the protocol binds it. With `redraw` (the coach's word) the reply is drawn at a
        temperature, seeded by the step before it."""
        last = steps[-1] if steps else None
        sent_back = last is not None and last.kind is StepKind.REJECTED and last.decision is not None \
            and last.decision.is_finish()
        guided = self.protocol.guided_model(self.llm, lead.thought_start, lead.takes, lead.avoid, lead.only) \
            if lead else None
        model = next(held for held in (guided, self._acting_model if sent_back else None,
                                       self._strict_model if failures else None, self._model) if held is not None)
        return sampling(model, SAMPLE_TEMPERATURE, seed=last.number) if redraw and last is not None else model

    def _take_step(
        self, number: int, reply: str, decision: ThoughtAndAction, turn: Turn, result: RunResult, loops: LoopGuard,
        events: RunObserver, callbacks: Callbacks, review: FinishReview, coach: Coach | None,
    ) -> StepOutcome:
        """Act on one decision: the step, whether the run ends, and the answer of a finish (on `result`)."""
        steps = result.steps
        if decision.is_finish():
            return review.review(number, reply, decision, turn.task, result, events, callbacks)
        meant = self.toolbox.meant(decision.action)
        if meant is not decision.action:  # a tool written as another tool's argument: the call it stands for
            decision = decision.model_copy(update={"action": meant})
        disguised = coach.finish_in_disguise(decision, steps) if coach else None
        if disguised is not None:
            return review.review(number, reply, disguised, turn.task, result, events, callbacks)
        tool = self.toolbox.find(decision.action.name)
        verdict = coach.review_action(turn.task, decision.action, steps, tool is not None and not is_read_only(tool)) \
            if coach else None
        if verdict is not None and verdict.tool:
            return self.run_own(number, reply, verdict.tool, dict(verdict.args), verdict.note, events, callbacks,
                                check="coach")
        if verdict is not None:
            return StepOutcome(Step(number, StepKind.REJECTED, reply, decision, verdict.note, False, check="coach"))
        loop = loops.check(decision.action)
        if loop is not None and loop.stop and insists(decision.action, loop.earlier, steps):
            return review.review(number, reply, as_finish(decision), turn.task, result, events, callbacks)
        if loop is not None:
            note = self.prompts.render(
                "repeated_failure" if failed(loop.earlier) else "repeated_action", number=str(loop.earlier.number),
                observation=loop.earlier.observation,
            )
            step = Step(number, StepKind.REPEATED, reply, decision, note.strip(), success=False)
            return StepOutcome(step, StopReason.LOOP_DETECTED if loop.stop else None)
        events.on_tool_start(decision.action, decision)
        return _acted(number, reply, decision, self.toolbox.run(decision.action, callbacks))

    def run_own(self, number: int, reply: str, tool: str, args: dict[str, Any], thought: str, events: RunObserver,
                callbacks: Callbacks, check: str) -> StepOutcome:
        """A step the agent takes itself for a check's verdict (`check` names it): `tool` with `args`, so the next
        answer rests on a tool's result."""
        decision = ThoughtAndAction(thought=Thought(text=thought or f"check with {tool}"),
                                    action=Action(name=tool, args=args))
        events.on_tool_start(decision.action, decision)
        return _acted(number, reply, decision, self.toolbox.run(decision.action, callbacks), check)

    def _answer(self, result: RunResult, memory: ShortTermMemory, meter: Meter, coach: Coach | None) -> str:
        """The answer of a run that did not finish: after a spent budget no model call is made and the last good
        observation stands; a run that called no tool has none; else the finish prompt writes the best answer the
        tools' results allow, or the model knows where every call failed (a question of fact, the web out of
        reach). A reply that is no answer (the finish prompt's own words, a call written out) is none: the last
        good observation stands, or nothing."""
        if result.stop_reason is StopReason.BUDGET:
            return answer_from_observations(result.steps)
        if not ran(result.steps):
            return ""  # nothing was done (every reply unreadable, say): nothing to answer from
        written = write_answer(self, result.task, memory, result.steps, meter)
        answer = written.answer if written.usable else answer_from_observations(result.steps)
        return coach.answer_for_stopped_run(answer, result.task, result.steps) if coach else answer

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


def _acted(number: int, reply: str, decision: ThoughtAndAction, ran: ToolResult, check: str = "") -> StepOutcome:
    """The step of a tool that ran; a sub-agent's run is kept in it, and counts as a success only if it finished."""
    sub_run = ran.artifact if isinstance(ran.artifact, SubRun) else None
    success = ran.success and (sub_run is None or sub_run.run.finished)
    changed = ran.artifact.changed if isinstance(ran.artifact, Effects) else None
    step = Step(number, StepKind.ACTION, reply, decision, ran.content, success, check=check, sub_run=sub_run,
                changed=changed)
    return StepOutcome(step, waited=ran.waited)


def _carrier(steps: Sequence[Step]) -> int:
    """The number of the step whose reply carried the call now taken from the queue."""
    last = steps[-1]
    return last.in_reply_of or last.number


def _model_name(llm: BaseChatModel) -> str:
    """The model's name as it reports it, for prices and memories."""
    return str(getattr(llm, "model_name", None) or getattr(llm, "model", None) or type(llm).__name__)
