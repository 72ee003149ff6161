"""`--mode plan`: plan the whole tool chain first, show it, then run it, piping each output into the next tool."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import json_repair
from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.tools import BaseTool

from .agent import DEFAULT_ROLE, toolbox_options
from .errors import AutoAgentError, ConfigurationError
from .events import Broadcast, RunObserver
from .llm.call import invoke_model, merge_callbacks
from .prompts import PromptTemplateBuilder
from .reply import Action, Thought, ThoughtAndAction
from .steps import RunResult, Step, StepKind, StopReason
from .terminal.trace import print_step
from .tool_use.fence import unfenced
from .tool_use.toolbox import Toolbox

if TYPE_CHECKING:
    from .tool_use.approval import Approver


class PlanError(ValueError):
    """A plan that names no tool, an unknown tool, or more steps than allowed."""


class PlanAndExecute:
    """The design for small local models: one model call plans the chain, the tools do the rest."""

    resumable = False  # a plan is made from the start

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        prompts_path: str | Path | None = None,
        agent_name: str = "AutoAgent",
        agent_role: str = DEFAULT_ROLE,
        max_thought_steps: int = 10,
        *,
        lang: str = "en",
        callbacks: Callbacks = None,
        on_step: Callable[[Step], None] | None = None,
        on_plan: Callable[[list[str]], None] | None = None,
        observers: Sequence[RunObserver] = (),
        approver: Approver | None = None,
        tool_timeout: float | None = None,
    ) -> None:
        self.llm = llm
        self.toolbox = Toolbox(tools, **toolbox_options(approver, tool_timeout))
        self.observers = list(observers)
        self.prompts = PromptTemplateBuilder(prompts_path, lang)
        self.identity = {"ai_name": agent_name, "ai_role": agent_role}
        self.max_thought_steps = max_thought_steps
        self.callbacks = callbacks
        self._callbacks: Callbacks = callbacks
        self.on_step = on_step
        self.on_plan = on_plan
        self.last_run: RunResult | None = None

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task`; the last tool's output is the answer."""
        return self.execute(task, verbose=verbose).answer

    def execute(
        self,
        task: str,
        verbose: bool = False,
        *,
        observers: Sequence[RunObserver] = (),
        callbacks: Callbacks = None,
        resume: Sequence[Step] = (),
        run_id: str = "",
    ) -> RunResult:
        """Plan, show the plan, then run it; a failing step stops the run with a report."""
        if resume:
            raise ConfigurationError("a plan-mode run cannot be resumed: it plans from the start")
        self._callbacks = merge_callbacks(self.callbacks, callbacks)  # this run's, for every call it makes
        result = self.last_run = RunResult(task=task, run_id=run_id)
        events = Broadcast([*self.observers, *observers])
        started = time.monotonic()
        events.on_run_start(result, self.max_thought_steps)
        try:
            events.on_thinking(1, self.max_thought_steps)
            plan = self._plan(task, result)
            if plan is not None:
                self._show(plan, verbose, events)
                self._follow(plan, task, result, verbose, events)
        except KeyboardInterrupt:
            result.stop_reason = StopReason.INTERRUPTED
            raise
        except AutoAgentError as err:
            result.stop_reason, result.stop_detail = StopReason.ERROR, str(err)
            raise
        finally:
            result.seconds = time.monotonic() - started
            events.on_run_end(result)
        return result

    def _plan(self, task: str, result: RunResult) -> list[str] | None:
        """Ask for the chain of tools; re-ask once when it can't be used."""
        note = ""
        for _attempt in range(2):
            reply = self._ask(self.prompts.render(
                "plan", **self.identity, tools=self.toolbox.describe(), task_description=task, plan_note=note
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
            raise PlanError("it names no tool")
        unknown = [name for name in names if self.toolbox.find(name) is None]
        if unknown:
            raise PlanError(f"unknown tool(s) {', '.join(unknown)}; available: {', '.join(self.toolbox.tools)}")
        if len(names) > self.max_thought_steps:
            raise PlanError(f"it has {len(names)} steps, more than the limit of {self.max_thought_steps}")
        return [tool.name for tool in map(self.toolbox.find, names) if tool is not None]

    def _show(self, plan: list[str], verbose: bool, events: RunObserver) -> None:
        events.on_plan(plan)
        if self.on_plan is not None:
            self.on_plan(plan)
        if verbose:
            print(f"[plan] {' -> '.join(plan)}", file=sys.stderr, flush=True)

    def _follow(self, plan: list[str], task: str, result: RunResult, verbose: bool, events: RunObserver) -> None:
        value = task
        for number, name in enumerate(plan, start=1):
            started = time.monotonic()
            action = Action(name=name, args=self._arguments(name, value, task, result, first=number == 1))
            events.on_tool_start(action)
            outcome = self.toolbox.run(action, self._callbacks)
            thought = Thought(text=f"plan step {number}/{len(plan)}")
            step = Step(number, StepKind.ACTION, "", ThoughtAndAction(thought=thought, action=action),
                        outcome.content, outcome.success, time.monotonic() - started)
            result.steps.append(step)
            if self.on_step is not None:
                self.on_step(step)
            events.on_step(step)
            if verbose:
                print_step(step, len(plan))
            if not outcome.success:
                result.stop_reason = StopReason.STEP_FAILED
                result.stop_detail = f"step {number} ({name}): {outcome.content}"
                return
            value = outcome.content
        result.answer, result.stop_reason = unfenced(value), StopReason.FINISHED

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
