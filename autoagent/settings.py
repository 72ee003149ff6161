"""The settings object the CLI fills from its flags, and `build_agent`, which turns it into an agent."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langchain_core.callbacks import Callbacks
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from .advice import Advisor
    from .checks import NamedCheck
    from .events import RunObserver
    from .instructions import ProjectInstructions
    from .llm.profile import ModelProfile
    from .loop.lifecycle import Agent, AgentOptions


# Settings each invocation grants itself; a resumed run keeps none, and a batch's task sets none (held_to)
PERMISSIONS = frozenset({"yes", "allow_shell", "allow_python", "python_sandbox", "allow_private_urls"})
AUTO = "auto"  # the protocol that picks code or json for the model (protocols.AUTO, not imported: startup is cheap)


@dataclass
class Settings:
    """Everything that shapes an agent; each field is the CLI flag of the same name."""

    model: str | None = None  # openai:<name>, local, local:/path.gguf; None: the default for this machine
    base_url: str | None = None
    max_steps: int = 10
    max_seconds: float | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    max_reply_tokens: int | None = None  # tokens in one step's reply; None: reply_caps.DEFAULT_STEP_TOKENS
    context_window: int | None = None  # tokens; None: what the model is known to hold
    memory_window: int = 5
    compaction: str = "auto"  # on, off, or auto: on where max_steps passes twice memory_window (loop/compaction.py)
    workspace: Path = Path("workspace")
    prompts_dir: Path | None = None
    lang: str = "en"
    name: str = "AutoAgent"
    role: str | None = None
    protocol: str = "json"  # or tools, react, code; auto: code for the embedded model where bubblewrap runs it
    mode: str = "loop"
    thoughts: str = "auto"
    json_schema: bool = True  # hold JSON replies to their schema where the backend can (constrained decoding)
    coach: str = "auto"  # small-model help (autoagent/coach/): auto (embedded or small-named model), on or off
    use_memory: bool = True
    yes: bool = False  # run side-effecting tools without asking
    allow_shell: bool = False
    allow_python: bool | None = None  # None: offered where the protocol is code (auto's code included)
    python_sandbox: str = "bwrap"  # where the python tool runs code: bwrap (bubblewrap) or none (unsandboxed)
    allow_private_urls: bool = False  # the web tools may reach loopback, private and link-local addresses
    tool_timeout: float | None = 60.0
    tools: list[str] | None = None  # names of the tools to enable; None: all
    tools_modules: list[Path] = field(default_factory=list)
    checks_modules: list[Path] = field(default_factory=list)  # Python files whose CHECKS judge each finish
    mcp_config: Path | None = None
    agents_file: Path | None = None  # a TOML file of agents that call each other as tools (autoagent/subagents/)
    output_schema: Path | None = None  # a JSON Schema the final answer must meet (autoagent/typed_output.py)
    fallback_model: str | None = None  # the model a run goes on with when its own fails after its retries
    fallback_base_url: str | None = None  # an OpenAI-compatible server of the fallback model
    instructions: Path | None = None  # standing instructions (autoagent/instructions.py); None: the workspace's
    no_instructions: bool = False  # AGENTS.md, unless this is set

    def resolved_model(self) -> str:
        """The model spec in use: the configured one, else this machine's default."""
        from .llm import default_model_spec

        return self.model or default_model_spec()

    def to_record(self) -> dict[str, Any]:
        """JSON-ready settings, as a transcript stores them."""
        record = asdict(self)
        for key, value in record.items():
            if isinstance(value, Path):
                record[key] = str(value)
            elif isinstance(value, list):
                record[key] = [str(item) if isinstance(item, Path) else item for item in value]
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Settings:
        """Settings back from `to_record` (unknown keys from other versions are ignored)."""
        known = {item.name for item in fields(cls)}
        values = {key: value for key, value in record.items() if key in known}
        for key in ("workspace", "prompts_dir", "mcp_config", "agents_file", "output_schema", "instructions"):
            if values.get(key) is not None:
                values[key] = Path(values[key])
        values["tools_modules"] = [Path(item) for item in values.get("tools_modules") or []]
        values["checks_modules"] = [Path(item) for item in values.get("checks_modules") or []]
        return cls(**values)


def python_granted(invocation: Settings) -> bool | None:
    """What an invocation grants the python tool: its --allow-python or --no-allow-python; else --protocol code
    grants it, `auto` leaves it to auto (the embedded model where bubblewrap runs), and any other protocol does not."""
    if invocation.allow_python is not None:
        return invocation.allow_python
    if invocation.protocol == "code":
        return True
    return None if invocation.protocol == AUTO else False


def held_to(settings: Settings, invocation: Settings) -> Settings:
    """`settings` (a batch task's: the invocation's with the task's own) granting nothing `invocation` does not: its
    permissions exactly, the python tool only where it grants it (whatever protocol the task picks), and long-term
    memory only where it is on."""
    python = python_granted(invocation)
    if python is None and settings.protocol != AUTO:  # auto's choice was granted, not the protocol picked instead
        python = False
    granted = {name: getattr(invocation, name) for name in PERMISSIONS}
    return replace(settings, **{**granted, "allow_python": python},
                   use_memory=settings.use_memory and invocation.use_memory)


def build_agent(
    settings: Settings,
    *,
    observers: Sequence[RunObserver] = (),
    callbacks: Callbacks = None,
    extra_tools: Sequence[BaseTool] = (),
) -> Agent:
    """The agent `settings` describe: model, tools (built-in, user, MCP), prompts, approvals and budgets."""
    from .acting.approval import Approver
    from .agent import AutoGPT
    from .llm.profile import ModelProfile
    from .llm.reply_caps import ReplyCaps
    from .loop.budget import Budget
    from .loop.lifecycle import AgentOptions
    from .plan_mode import PlanAndExecute

    spec = settings.resolved_model()
    base_url = settings.base_url  # for a local model, load_chat_model says a base URL does not apply
    llm = _chat_model(settings, spec)
    profile = ModelProfile.of(llm, spec, base_url)  # what kind of model it is, worked out once
    tools = _tools(settings, spec, base_url, profile, extra_tools)
    role = settings.role or None  # None: the prompts' default role, in their language
    options = AgentOptions(lang=settings.lang, callbacks=callbacks, observers=observers,
                           approver=Approver(auto_approve=settings.yes), tool_timeout=settings.tool_timeout,
                           advisors=_advisors(settings, profile), checks=_checks(settings), profile=profile,
                           output_type=_output_type(settings), instructions=project_instructions(settings))
    if settings.mode == "plan":
        from .errors import ConfigurationError

        if settings.agents_file is not None:
            raise ConfigurationError("--agents runs its agents in loop mode: leave out --mode plan")
        if settings.output_schema is not None:
            raise ConfigurationError("--output-schema holds a loop's final answer: leave out --mode plan")
        return PlanAndExecute(llm, tools, settings.prompts_dir, settings.name, role, settings.max_steps,
                              options=options)
    memory = None
    if settings.use_memory:
        from .memory.long_term import LongTermMemory

        memory = LongTermMemory.open(spec, base_url=base_url)
    budget = Budget(settings.max_seconds, settings.max_tokens, settings.max_cost)
    if settings.fallback_model:  # loaded now: a fallback that cannot load is said at the start, not mid-run
        fallback = _chat_model(replace(settings, base_url=settings.fallback_base_url), settings.fallback_model)
        options = replace(options, fallback=fallback)
    options = replace(options, long_term_memory=memory, memory_window=settings.memory_window,
                      compaction={"on": True, "off": False}.get(settings.compaction),
                      compact_thoughts=_compact(settings, profile), protocol=settings.protocol, budget=budget,
                      context_window=settings.context_window,
                      reply_caps=ReplyCaps.from_setting(settings.max_reply_tokens))
    if settings.agents_file is not None:
        agent = _team(settings, llm, tools, options)
    else:
        agent = AutoGPT(llm, tools, settings.prompts_dir, settings.name, role, settings.max_steps, options=options)
    if memory is not None:
        memory.prompts = agent.prompts  # the run's summary is asked for in the agent's prompts and language
    return agent


def _advisors(settings: Settings, profile: ModelProfile) -> list[Advisor]:
    """The coach where --coach asks for it for this model, then the advisors installed packages add."""
    from .advice import entry_point_advisors
    from .coach import Coach, coach_wanted

    return [*([Coach()] if coach_wanted(settings.coach, profile) else []), *entry_point_advisors()]


def _compact(settings: Settings, profile: ModelProfile) -> bool:
    """One-sentence thoughts: asked for, or for `auto` a model served nearby, where small models run."""
    return settings.thoughts == "compact" or (settings.thoughts == "auto" and profile.nearby)


def _chat_model(settings: Settings, spec: str) -> BaseChatModel:
    """The chat model `spec` names, held to free replies when --no-json-schema says so."""
    from . import llm as models  # looked up at the call: the tests put a scripted loader there

    llm = models.load_chat_model(spec, base_url=settings.base_url)
    if not settings.json_schema:
        llm.metadata = {**(llm.metadata or {}), models.FREE_REPLIES: True}
    return llm


def _team(settings: Settings, llm: BaseChatModel, tools: list[BaseTool], options: AgentOptions) -> Agent:
    """The entry agent of the --agents file, with the agents it calls: each its own model, role, tools, steps and
    budget, the invocation's other settings (approvals, permissions, prompts); the entry alone gets the run's
    budget, long-term memory and checks (a sub-agent's spending counts against the run's budget all the same)."""
    from .agent import AutoGPT
    from .llm.profile import ModelProfile
    from .loop.budget import Budget, tightest
    from .subagents.team import AgentSpec, build_team, load_agents_file

    assert settings.agents_file is not None
    models = {settings.resolved_model(): llm}  # one model object per spec: the local model loads once

    def make(spec: AgentSpec, agent_tools: list[BaseTool], entry: bool) -> AutoGPT:
        model = spec.model or settings.resolved_model()
        if model not in models:
            models[model] = _chat_model(settings, model)
        budget = Budget(spec.max_seconds, spec.max_tokens, spec.max_cost)
        profile = ModelProfile.of(models[model], model, settings.base_url)
        own = replace(options, budget=tightest(budget, options.budget or Budget()) if entry else budget,
                      compact_thoughts=_compact(settings, profile), profile=profile,
                      advisors=_advisors(settings, profile),
                      long_term_memory=options.long_term_memory if entry else None,
                      checks=options.checks if entry else ())
        return AutoGPT(models[model], agent_tools, settings.prompts_dir, spec.name, spec.role,
                       spec.max_steps or settings.max_steps, options=own)

    return build_team(load_agents_file(settings.agents_file), tools, make, str(settings.agents_file))


def _offers_python(settings: Settings, profile: ModelProfile) -> bool:
    """Whether the python tool is offered: as --allow-python or --no-allow-python say; else for --protocol code
    (its only tool), and for `auto` with the embedded model where bubblewrap can run it (sandboxed: a program that
    would change a file still asks first)."""
    granted = python_granted(settings)
    if granted is not None:
        return granted
    if settings.python_sandbox != "bwrap" or not profile.embedded:
        return False
    from .tools.sandbox import bwrap_problem

    return bwrap_problem() is None


def project_instructions(settings: Settings) -> ProjectInstructions | None:
    """The standing instructions a run of `settings` reads: --instructions FILE, else the workspace's AGENTS.md;
    none with --no-instructions. A file cut to its first part says so, once."""
    if settings.no_instructions:
        return None
    from .instructions import read_instructions

    instructions = read_instructions(settings.workspace, settings.instructions)
    if instructions is not None and instructions.cut:
        logging.getLogger("autoagent").warning(instructions.warning())
    return instructions


def _output_type(settings: Settings) -> Any:
    """The output type of `--output-schema`, or None."""
    if settings.output_schema is None:
        return None
    from .typed_output import OutputType

    return OutputType.from_file(settings.output_schema)


def _checks(settings: Settings) -> list[NamedCheck]:
    """The user's checks of a finish: those installed packages add (entry points), then each --checks-module's."""
    from .checks import entry_point_checks, load_checks_module

    return [*entry_point_checks(), *(check for path in settings.checks_modules for check in load_checks_module(path))]


def _tools(settings: Settings, spec: str, base_url: str | None, profile: ModelProfile,
           extra: Sequence[BaseTool]) -> list[BaseTool]:
    """Built-in tools, then the user's (modules, entry points, MCP servers), narrowed to `settings.tools`."""
    from .acting.plugins import entry_point_tools, load_tools_module, merge_tools, select_tools
    from .llm.embeddings import load_embeddings
    from .tools import default_tools

    embeddings = load_embeddings(spec, base_url=base_url)
    built_in = default_tools(settings.workspace, embeddings, allow_shell=settings.allow_shell,
                             allow_python=_offers_python(settings, profile), python_sandbox=settings.python_sandbox,
                             allow_private_urls=settings.allow_private_urls)
    groups = [built_in, entry_point_tools()]
    groups += [load_tools_module(path) for path in settings.tools_modules]
    if settings.mcp_config is not None:
        from .acting.mcp import load_mcp_tools

        groups.append(load_mcp_tools(settings.mcp_config))
    tools = merge_tools(*groups, list(extra))
    return select_tools(tools, settings.tools) if settings.tools else tools


def __getattr__(name: str) -> Any:
    # `Agent` (the protocol both agents meet) is imported on first use, so the CLI's start does not pay for LangChain.
    if name == "Agent":
        from .loop.lifecycle import Agent

        return Agent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
