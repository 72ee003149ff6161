"""An agent as a LangChain tool: the calling model gives it a task, it runs, and its answer is the observation."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

from ..errors import AutoAgentError, SubAgentError
from ..steps import RunResult, SubRun
from .calls import MAX_DEPTH, Caller, current_caller


class AgentTask(BaseModel):
    """The one argument of an agent's tool."""

    task: str = Field(description="the whole task for this agent, with every detail it needs")


class AgentTool(BaseTool):
    """A sub-agent as a tool (`AutoGPT.as_tool`). Called within a run, the sub-agent's tokens, cost and time count
    against the caller's budget, its side-effecting tools ask the caller's approver, its events reach the caller's
    observers nested, and its whole run comes back as the artifact (a SubRun) that the calling step keeps."""

    args_schema: type[BaseModel] = AgentTask
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    # read-only: the sub-agent's own side-effecting tools ask for approval; no time limit: its budget bounds it
    metadata: dict[str, Any] | None = Field(default_factory=lambda: {"read_only": True, "timeout": None})
    agent: Any = Field(exclude=True)  # an AutoGPT (any agent with `execute`, `toolbox`, `prompts`)

    def _run(self, task: str, run_manager: CallbackManagerForToolRun | None = None) -> tuple[str, SubRun | None]:
        """Run the sub-agent on `task`: its answer (or why it stopped, with its best answer) and its run."""
        caller = current_caller()
        refusal = self._refusal(caller) if caller is not None else None
        if refusal is not None:
            return refusal, None
        observers = [caller.events.nested(self.name, caller.depth + 1)] if caller is not None else []
        callbacks = run_manager.get_child() if run_manager is not None else None  # nested under this tool's run
        earlier = self.agent.last_run
        try:
            with _approvals_of(caller, self.agent):
                run: RunResult = self.agent.execute(task, observers=observers, callbacks=callbacks)
        except AutoAgentError as err:
            raise SubAgentError(f"the agent {self.name} failed: {err}") from err
        finally:
            if caller is not None and self.agent.last_run not in (None, earlier):
                caller.spending.usage.absorb(self.agent.last_run.usage)  # the caller's budget covers it
        return self._observation(run, caller), SubRun(self.name, run)

    def _refusal(self, caller: Caller) -> str | None:
        """Why the sub-agent is not called (it runs above already, it would nest too deep, the budget is spent),
        in words for the calling model; None: it may run."""
        prompts, chain = caller.agent.prompts, caller.chain()
        if any(frame.agent is self.agent for frame in chain):
            names = " -> ".join([*(frame.name for frame in chain), self.name])
            return prompts.render("agent_cycle", agent=self.name, chain=names).strip()
        if caller.depth + 1 > MAX_DEPTH:
            return prompts.render("agent_too_deep", agent=self.name, depth=str(MAX_DEPTH)).strip()
        warnings, spent = caller.spending.check()
        for warning in warnings:
            caller.events.on_warning(warning)
        if spent is not None:
            return prompts.render("agent_no_budget", agent=self.name, detail=spent).strip()
        return None

    def _observation(self, run: RunResult, caller: Caller | None) -> str:
        """The sub-agent's answer; for a run that did not finish, why it stopped and its best answer."""
        if run.finished and run.answer.strip():
            return run.answer
        prompts = caller.agent.prompts if caller is not None else self.agent.prompts
        template = "agent_finished_empty" if run.finished else "agent_stopped" if run.answer.strip() \
            else "agent_stopped_empty"
        return prompts.render(template, agent=self.name, reason=run.describe_stop(), answer=run.answer).strip()


@contextlib.contextmanager
def _approvals_of(caller: Caller | None, agent: Any) -> Iterator[None]:
    """Within: `agent`'s side-effecting tools ask the approver of the run that calls it (the invocation's, passed
    down every level), where that run has one."""
    approver = caller.agent.toolbox.approver if caller is not None else None
    if approver is None:
        yield
        return
    own, agent.toolbox.approver = agent.toolbox.approver, approver
    try:
        yield
    finally:
        agent.toolbox.approver = own


def check_nesting(tools: Sequence[BaseTool], above: tuple[Any, ...]) -> None:
    """Raise ValueError when agent tools among `tools` nest deeper than MAX_DEPTH below the agent given the task,
    or an agent is among its own tools; `above`: the agents `tools` belong to, that one first."""
    for tool in tools:
        if not isinstance(tool, AgentTool):
            continue
        if any(agent is tool.agent for agent in above):
            raise ValueError(f"the agent tool {tool.name!r} calls an agent above it: agents may not call in a cycle")
        if len(above) > MAX_DEPTH:
            raise ValueError(f"the agent tool {tool.name!r} nests {len(above)} levels deep; "
                             f"agents nest at most {MAX_DEPTH} levels below the one given the task")
        check_nesting(list(tool.agent.toolbox.tools.values()), (*above, tool.agent))
