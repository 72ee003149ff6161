"""One run's lifecycle, shared by both agents: start, the agent's own work, then always the wrap-up and the end."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.callbacks import Callbacks
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from ..acting.toolbox import Toolbox
from ..errors import AutoAgentError, ConfigurationError
from ..events import RunObserver
from ..listeners import unheard_if_silent
from ..llm.call import merge_callbacks
from ..observers import CallbackObserver, StepTrace
from ..prompts import PromptTemplateBuilder
from ..steps import RunResult, Step, StopReason
from ..transcripts.writer import new_run_id
from .emitter import Emitter, consumer_of

if TYPE_CHECKING:
    from ..acting.approval import Approver
    from ..advice import Advisor
    from ..checks import CheckContext, Verdict
    from ..instructions import ProjectInstructions
    from ..llm.profile import ModelProfile
    from ..llm.reply_caps import ReplyCaps
    from ..memory.long_term import LongTermMemory
    from ..run_events import RunEvent
    from .budget import Budget

HOOKS = ("on_step", "on_plan")  # the older keywords for plain functions, heard now as an observer


class Agent(Protocol):
    """What the CLI, the REPL and a script need of an agent, whichever mode built it."""

    llm: BaseChatModel
    toolbox: Toolbox
    prompts: PromptTemplateBuilder
    last_run: RunResult | None
    resumable: bool  # `execute(resume=...)` continues a stopped run

    def run(self, task: str, verbose: bool = False) -> str:
        """Run `task` and return the final answer."""
        ...

    def execute(
        self,
        task: str,
        verbose: bool = False,
        *,
        observers: Sequence[RunObserver] = (),
        callbacks: Callbacks = None,
        resume: Sequence[Step] = (),
        run_id: str = "",
        summary: tuple[str, int] = ("", 0),
    ) -> RunResult:
        """Run `task` and return the whole record of the run."""
        ...


@dataclass(frozen=True)
class AgentOptions:
    """Everything that shapes an agent beyond the constructor's first arguments; plan mode reads only `lang`,
    `callbacks`, `observers`, `approver`, `tool_timeout`, `advisors`, `checks` and `profile`."""

    lang: str = "en"  # the prompts' language: en or zh
    memory_window: int = 5  # steps shown to the model
    max_parse_retries: int = 3
    compact_thoughts: bool = False  # ask for a one-sentence thought: small models do better
    protocol: str = "json"  # or tools, react, code; auto: code for the embedded model with the sandboxed python tool
    long_term_memory: LongTermMemory | None = None
    callbacks: Callbacks = None  # LangChain callbacks: every model and tool call
    observers: Sequence[RunObserver] = ()  # every run's events
    budget: Budget | None = None  # None: no limit
    context_window: int | None = None  # tokens; None: what the model is known to hold
    approver: Approver | None = None  # None: no approvals (a script decides)
    tool_timeout: float | None = None  # seconds; None: the toolbox's default, 0: none
    reply_caps: ReplyCaps | None = None  # tokens per reply; None: the defaults
    advisors: Sequence[Advisor] = ()  # policies with a hook per stage of a turn (the coach is one), in order
    checks: Sequence[Callable[[CheckContext], Verdict | bool | None]] = ()  # the user's checks of a finish, in order
    profile: ModelProfile | None = None  # what kind of model it is; None: worked out from the model
    # what the final answer must be: a pydantic model, a type pydantic validates, or a JSON Schema (a dict); the
    # run's `output` holds the value (autoagent/typed_output.py)
    output_type: Any = None
    instructions: ProjectInstructions | None = None  # a project's standing instructions (AGENTS.md): prompt text
    fallback: BaseChatModel | None = None  # the model a run goes on with when its own fails after its retries
    # steps that leave the window are told in a running summary (autoagent/loop/compaction.py); None: auto, for runs
    # whose step limit passes twice the window
    compaction: bool | None = None


def gather_options(
    owner: str, options: AgentOptions | None, keywords: dict[str, Any], accepted: Collection[str]
) -> AgentOptions:
    """`options` (the defaults when None) with the keyword arguments `owner` was given, each one an option's field
    as before options were grouped; `on_step=` and `on_plan=` functions become the first observer."""
    unknown = [key for key in keywords if key not in accepted and key not in HOOKS]
    if unknown:
        raise TypeError(f"{owner}() got an unexpected keyword argument '{unknown[0]}'")
    hooks = {key: keywords.pop(key) for key in HOOKS if key in keywords}
    options = replace(options or AgentOptions(), **keywords)
    if any(hook is not None for hook in hooks.values()):
        options = replace(options, observers=[CallbackObserver(**hooks), *options.observers])
    return options


ALL_OPTIONS = frozenset(field.name for field in fields(AgentOptions))


class RunLifecycle:
    """What both agents share: the constructor's plumbing and a run's lifecycle around the agent's own work.

    A run: on_run_start → `_work` (the steps and the answer) → `_wrap_up` (also after an error or Ctrl-C) →
    on_run_end, with the stop reason set for an interrupted or failed run and the wall time measured."""

    resumable = False  # `execute(resume=...)` continues a stopped run
    not_resumable = "this agent's runs cannot be resumed"  # why not, for people

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        prompts_path: str | Path | None,
        agent_name: str,
        agent_role: str | None,
        max_thought_steps: int,
        options: AgentOptions,
    ) -> None:
        self.llm = llm
        self.options = options
        self.prompts = PromptTemplateBuilder(prompts_path, options.lang)
        self.toolbox = Toolbox(tools, **toolbox_options(options.approver, options.tool_timeout),
                               prompts=self.prompts)  # the tools' notes to the model in the run's language
        role = agent_role if agent_role is not None else self.prompts.render("default_role").strip()
        if options.instructions is not None:  # the project's standing instructions, after the role in every prompt
            role = self.prompts.render("role_with_instructions", role=role, source=options.instructions.source,
                                       text=options.instructions.text).strip()
        self.identity = {"ai_name": agent_name, "ai_role": role}
        self.max_thought_steps = max_thought_steps
        self.callbacks = options.callbacks
        self.observers = list(options.observers)
        self.last_run: RunResult | None = None

    def execute(
        self,
        task: str,
        verbose: bool = False,
        *,
        observers: Sequence[RunObserver] = (),
        callbacks: Callbacks = None,
        resume: Sequence[Step] = (),
        run_id: str = "",
        summary: tuple[str, int] = ("", 0),
    ) -> RunResult:
        """Run `task` and return the whole record of the run; `observers` and `callbacks` hear this run besides
        the agent's own; `resume` continues after a stopped run's steps (and `summary`, its compaction's summary and
        the step it tells up to)."""
        if resume and not self.resumable:
            raise ConfigurationError(self.not_resumable)
        result = self.last_run = RunResult(task=task, run_id=run_id or new_run_id(), steps=list(resume),
                                           summary=summary[0], summarized=summary[1])
        events = self._events(verbose, observers)
        parent = getattr(callbacks, "parent_run_id", None)  # a sub-agent's: the tool call it runs under
        callbacks = merge_callbacks(merge_callbacks(self.callbacks, callbacks), events.callbacks(parent))
        callbacks = unheard_if_silent(callbacks)  # nothing listening: direct calls
        started = time.monotonic()
        events.on_run_start(result, self.max_thought_steps)
        try:
            self._work(result, events, callbacks, started)
        except KeyboardInterrupt:
            result.stop_reason = StopReason.INTERRUPTED
            raise
        except AutoAgentError as err:
            result.stop_reason, result.stop_detail = StopReason.ERROR, str(err)
            raise
        finally:
            result.seconds = time.monotonic() - started
            try:
                self._wrap_up(result, events)
            finally:
                result.seconds = time.monotonic() - started  # the wall time, the wrap-up included
                events.on_run_end(result)
        return result

    def stream(self, task: str, verbose: bool = False, **options: Any) -> Iterator[RunEvent]:
        """Run `task`, yielding its typed events as they come (autoagent/run_events.py); `options` are `execute`'s,
        and `reply_text=True` adds the reply's pieces as the model writes them (reply_delta). Leaving the loop
        early stops the run where it next calls the model, as Ctrl-C does (its wrap-up and transcript kept): the
        step under way ends first."""
        from .streaming import stream

        return stream(self, task, {"verbose": verbose, **options})

    def astream(self, task: str, verbose: bool = False, **options: Any) -> AsyncIterator[RunEvent]:
        """`stream` for asyncio (`async for event in agent.astream(task)`): the run works in a thread."""
        from .streaming import astream

        return astream(self, task, {"verbose": verbose, **options})

    async def aexecute(self, task: str, verbose: bool = False, **options: Any) -> RunResult:
        """`execute` for asyncio: the run works in a thread; cancelling the task stops it as Ctrl-C would."""
        from .streaming import aexecute

        return await aexecute(self, task, {"verbose": verbose, **options})

    def _work(self, result: RunResult, events: RunObserver, callbacks: Callbacks, started: float) -> None:
        """The agent's own part of a run: its steps, then `result.stop_reason` and `result.answer`."""
        raise NotImplementedError

    def _wrap_up(self, result: RunResult, events: RunObserver) -> None:
        """After the steps, whether they ended well or not (nothing by default)."""

    def _events(self, verbose: bool, extra: Sequence[RunObserver]) -> Emitter:
        """The run's event stream, heard by its observers (with the plain step trace on stderr when `verbose`)."""
        observers = [*self.observers, *extra]
        if verbose:
            observers.append(StepTrace(self.max_thought_steps))
        return Emitter([consumer_of(observer) for observer in observers], agent=self.identity["ai_name"])


def toolbox_options(approver: Approver | None, tool_timeout: float | None) -> dict[str, Any]:
    """Toolbox keywords for what was set: unset ones keep the toolbox's defaults; a timeout of 0 means none."""
    options: dict[str, Any] = {}
    if approver is not None:
        options["approver"] = approver
    if tool_timeout is not None:
        options["timeout"] = tool_timeout if tool_timeout > 0 else None
    return options
