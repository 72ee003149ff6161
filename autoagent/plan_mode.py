"""`--mode plan`: plan the whole tool chain first, show it, then run it, piping each output into the next tool."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import json_repair
from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.tools import BaseTool

from .acting.effects import Session, session
from .acting.fence import unfenced
from .advice import Advice, Advisor, RunSetup, TurnState, start_advisors
from .checks import CheckContext, VerdictKind, named
from .events import RunObserver
from .llm.call import invoke_model
from .llm.profile import ModelProfile
from .loop.budget import Budget, BudgetGuard, Spending
from .loop.lifecycle import AgentOptions, RunLifecycle, gather_options
from .protocols import with_note
from .reply import FINISH, Action, Thought, ThoughtAndAction
from .steps import RunResult, Step, StepKind, StepOutcome, StopReason, SubRun
from .subagents.calls import Caller, calling, current_caller

PLAN_OPTIONS = frozenset({"lang", "callbacks", "observers", "approver", "tool_timeout", "advisors", "checks",
                          "profile"})


class PlanError(ValueError):
    """A plan that names no tool, an unknown tool, or more steps than allowed."""


class PlanAndExecute(RunLifecycle):
    """The design for small local models: one model call plans the chain, the tools do the rest."""

    resumable = False  # a plan is made from the start
    not_resumable = "a plan-mode run cannot be resumed: it plans from the start"

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        prompts_path: str | Path | None = None,
        agent_name: str = "AutoAgent",
        agent_role: str | None = None,
        max_thought_steps: int = 10,
        *,
        options: AgentOptions | None = None,
        **keywords: Any,
    ) -> None:
        """The planner; `options` as AutoGPT's (plan mode reads lang, callbacks, observers, approver,
        tool_timeout, advisors, checks and profile), each also accepted as a keyword, with `on_step=fn` and
        `on_plan=fn`."""
        options = gather_options("PlanAndExecute", options, keywords, PLAN_OPTIONS)
        super().__init__(llm, tools, prompts_path, agent_name, agent_role, max_thought_steps, options)
        self.checks = [named(check) for check in options.checks]
        self.advisors: list[Advisor] = []  # the running plan's
        self._callbacks: Callbacks = self.callbacks  # the running plan's, for every call it makes

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task`; the last tool's output is the answer."""
        return self.execute(task, verbose=verbose).answer

    def _work(self, result: RunResult, events: RunObserver, callbacks: Callbacks, started: float) -> None:
        """Plan, show the plan, then run it; a failing step stops the run with a report."""
        self._callbacks = callbacks
        events.on_thinking(1, self.max_thought_steps)
        # a plan's checks draw no replies: to the advisors, the model samples nothing
        profile = replace(self.options.profile or ModelProfile.of(self.llm), can_sample=False)
        setup = RunSetup(result.task, self.prompts, self.toolbox, profile)
        self.advisors = start_advisors(self.options.advisors, setup)
        plan = self._plan(result.task, result)
        if plan is not None:
            events.on_plan(plan)
            above = current_caller()  # a sub-agent among the tools is charged to this run, and nested in it
            spending = Spending(BudgetGuard(Budget()), result.usage, started, above.spending if above else None)
            with calling(Caller(self, self.identity["ai_name"], events, spending, above)), session(Session()):
                self._follow(plan, result.task, result, events)

    def _plan(self, task: str, result: RunResult) -> list[str] | None:
        """Ask for the chain of tools; re-ask once when it can't be used."""
        advice = Advice()
        for advisor in self.advisors:  # what they show after the task (the workspace's files)
            advice = advice.then(advisor.before_model(TurnState(task)))
        note = ""
        for _attempt in range(2):
            reply = self._ask(self.prompts.render(
                "plan", **self.identity, tools=self.toolbox.describe(),
                task_description=with_note(task, advice.after_task), plan_note=note
            ), result)
            try:
                plan = self._read_plan(reply)
                result.stop_detail = ""
                return plan
            except PlanError as err:
                note = self.prompts.render("plan_error", error=str(err)).strip()
                result.stop_detail = str(err)
        result.stop_reason = StopReason.UNPARSEABLE
        return None

    def _read_plan(self, reply: str) -> list[str]:
        data = json_repair.loads(reply) if reply.strip() else []
        if isinstance(data, dict):  # {"plan": [...]} or {"tools": [...]}
            data = next((value for value in data.values() if isinstance(value, list)), [])
        names = [item if isinstance(item, str) else str(item.get("tool") or item.get("name") or "")
                 for item in data if isinstance(item, (str, dict))] if isinstance(data, list) else []
        if not names:
            raise PlanError(self.prompts.render("plan_no_tool").strip())
        unknown = [name for name in names if self.toolbox.find(name) is None]
        if unknown:
            raise PlanError(self.prompts.render("plan_unknown_tools", unknown=", ".join(unknown),
                                                available=", ".join(self.toolbox.tools)).strip())
        if len(names) > self.max_thought_steps:
            raise PlanError(self.prompts.render("plan_too_long", count=str(len(names)),
                                                limit=str(self.max_thought_steps)).strip())
        return [tool.name for tool in map(self.toolbox.find, names) if tool is not None]

    def _follow(self, plan: list[str], task: str, result: RunResult, events: RunObserver) -> None:
        """Run the plan's tools in order, each on the previous one's output, until one fails or the last answers."""
        value = task
        for number in range(1, len(plan) + 1):
            outcome = self._take_step(number, plan, value, result, events)
            result.steps.append(outcome.step)
            events.on_step(outcome.step)
            if outcome.stop is StopReason.FINISHED:
                outcome = self._judge(number + 1, outcome.answer, result)
                if outcome.step.check:
                    result.steps.append(outcome.step)
                    events.on_step(outcome.step)
            if outcome.stop is not None:
                result.stop_reason, result.answer, result.stop_detail = outcome.stop, outcome.answer, outcome.detail
                return
            value = outcome.step.observation

    def _judge(self, number: int, answer: str, result: RunResult) -> StepOutcome:
        """The last tool's output past the checks (the advisors', then the user's): a plan cannot go back, so any
        verdict but an accept ends the run unverified, the output shown as unsure; an accepted replacement is the
        answer, the output kept as the model's own."""
        checks = [*(advisor.check() for advisor in self.advisors), *self.checks]
        context = CheckContext.of(result.task, result.steps, answer, tuple(self.toolbox.tools))
        finish = ThoughtAndAction(thought=Thought(text="the plan is done"), action=Action(name=FINISH, args={}))
        for check in checks:
            verdict = check.review(context)
            if verdict.kind is VerdictKind.ACCEPT and verdict.answer is not None:
                result.model_answer = result.model_answer or answer
                context = context.with_answer(verdict.answer)
            elif verdict.kind is not VerdictKind.ACCEPT:
                step = Step(number, StepKind.REJECTED, "", finish, verdict.note, False, check=check.name)
                reason = verdict.reason if verdict.kind is VerdictKind.STOP else StopReason.UNVERIFIED
                return StepOutcome(step, reason, answer, verdict.note)
        return StepOutcome(Step(number, StepKind.FINISH, "", finish, ""), StopReason.FINISHED, context.answer)

    def _take_step(self, number: int, plan: list[str], value: str, result: RunResult,
                   events: RunObserver) -> StepOutcome:
        """Run the plan's tool `number` on `value` (the request, first): a failure stops the run, and the last
        tool's output is the answer."""
        name, started = plan[number - 1], time.monotonic()
        action = Action(name=name, args=self._arguments(name, value, result.task, result, first=number == 1))
        events.on_tool_start(action)
        ran = self.toolbox.run(action, self._callbacks, events)
        events.on_tool_end(action, ran.success, ran.content)
        thought = Thought(text=f"plan step {number}/{len(plan)}")
        sub_run = ran.artifact if isinstance(ran.artifact, SubRun) else None
        step = Step(number, StepKind.ACTION, "", ThoughtAndAction(thought=thought, action=action), ran.content,
                    ran.success and (sub_run is None or sub_run.run.finished), time.monotonic() - started,
                    sub_run=sub_run)
        if not ran.success:
            return StepOutcome(step, StopReason.STEP_FAILED, detail=f"step {number} ({name}): {ran.content}")
        if number == len(plan):
            return StepOutcome(step, StopReason.FINISHED, unfenced(ran.content))
        return StepOutcome(step)

    def _arguments(self, name: str, value: str, task: str, result: RunResult, first: bool) -> dict[str, object]:
        """A later one-argument tool takes the previous output as it is; otherwise (and for the request
        itself, which is prose) the model fills the arguments from the input."""
        fields = list(self.toolbox.tools[name].args)
        if len(fields) == 1 and not first:
            return {fields[0]: unfenced(value)}  # the next tool takes the data, not our quote around it
        reply = self._ask(self.prompts.render(
            "plan_args", task_description=task, step_input=value, tool=self.toolbox.describe_tool(name)
        ), result)
        parsed = json_repair.loads(reply) if reply.strip() else {}
        return parsed if isinstance(parsed, dict) else {"input": json.dumps(parsed)}

    def _ask(self, prompt: str, result: RunResult) -> str:
        return invoke_model(self.llm, [HumanMessage(prompt)], result.usage, self._callbacks).text
