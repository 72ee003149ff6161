"""The agents file (`--agents FILE`): agents that call each other as tools, read from TOML and checked whole before
any is built: each its name, description, role, tools (other agents among them), model, steps and budget.

    main = "router"                    # the agent given the task (default: the first one)

    [[agent]]
    name = "router"
    role = "sends each question to the agent that knows"
    tools = ["calendar", "math"]       # agents of this file, or the invocation's tools (none given: all of those)

    [[agent]]
    name = "calendar"
    description = "answers questions about dates"   # what a calling model reads of it
    tools = ["current_datetime", "calendar"]
    model = "local:1.5b"               # none given: the invocation's --model
    max_steps = 4                      # and max_seconds, max_tokens, max_cost: its own budget
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigurationError
from .calls import MAX_DEPTH

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,63}$"  # a tool's name, as every model's function calling takes it


class AgentsFileError(ConfigurationError):
    """The agents file cannot be read, or describes no team that can run: one line per problem."""


class AgentSpec(BaseModel):
    """One [[agent]] of the agents file."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME)
    description: str = ""  # what a calling agent's model reads of this one: needed by any agent another calls
    role: str | None = None  # None: the prompts' default role
    tools: list[str] | None = None  # the invocation's tools and this file's agents, by name; None: every tool
    model: str | None = None  # None: the invocation's --model
    max_steps: int | None = Field(default=None, ge=1)  # None: the invocation's --max-steps
    max_seconds: float | None = Field(default=None, gt=0)
    max_tokens: int | None = Field(default=None, ge=1)
    max_cost: float | None = Field(default=None, gt=0)


class AgentsFile(BaseModel):
    """The whole file: its agents, and which one is given the task."""

    model_config = ConfigDict(extra="forbid")

    main: str | None = None  # None: the first agent
    agent: list[AgentSpec] = Field(min_length=1)

    @property
    def entry(self) -> AgentSpec:
        """The agent given the task."""
        return next(spec for spec in self.agent if spec.name == (self.main or self.agent[0].name))

    def calls(self, spec: AgentSpec) -> list[str]:
        """The agents of this file `spec` may call."""
        names = {other.name for other in self.agent}
        return [name for name in spec.tools or () if name in names]


def load_agents_file(path: Path) -> AgentsFile:
    """The agents file at `path`, checked: its shape, unique names, a `main` that exists, a description for every
    agent another calls, no cycle of calls and no chain deeper than MAX_DEPTH; else AgentsFileError."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise AgentsFileError(f"cannot read the agents file {path}: {err.strerror or err}") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise AgentsFileError(f"{path}: not TOML: {err}") from err
    try:
        team = AgentsFile.model_validate(data)
    except ValidationError as err:
        raise AgentsFileError("\n".join(f"{path}: {problem}" for problem in _problems(err, data))) from None
    problems = _team_problems(team)
    if problems:
        raise AgentsFileError("\n".join(f"{path}: {problem}" for problem in problems))
    return team


def _problems(err: ValidationError, data: dict[str, Any]) -> list[str]:
    """Each validation error as `agent 'math': max_steps: Input should be ...`, the agent named where it has one."""
    listed = data.get("agent")
    agents: list[Any] = listed if isinstance(listed, list) else []
    lines = []
    for error in err.errors():
        where = list(error["loc"])
        if len(where) >= 2 and where[0] == "agent" and isinstance(where[1], int):
            entry = agents[where[1]] if where[1] < len(agents) else {}
            name = entry.get("name") if isinstance(entry, dict) else None
            where[:2] = [f"agent {name!r}" if isinstance(name, str) else f"agent #{where[1] + 1}"]
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            known = AgentSpec.model_fields if len(where) > 1 else AgentsFile.model_fields
            message = f"not a known key (known: {', '.join(known)})"
        elif error["type"] == "string_pattern_mismatch":
            message = "a name is a letter, then letters, digits, _ or - (at most 64)"
        lines.append(f"{': '.join(str(part) for part in where) or 'the file'}: {message}")
    return lines


def _team_problems(team: AgentsFile) -> list[str]:
    """What makes the team unable to run: a name twice, an unknown `main`, a called agent with no description,
    a cycle of calls, a chain of calls deeper than MAX_DEPTH."""
    names = [spec.name for spec in team.agent]
    problems = [f"two agents are named {name!r}" for name in sorted({n for n in names if names.count(n) > 1})]
    if team.main is not None and team.main not in names:
        problems.append(f"main names no agent: {team.main!r} (agents: {', '.join(names)})")
    specs = {spec.name: spec for spec in team.agent}
    for spec in team.agent:
        for name in team.calls(spec):
            if not specs[name].description.strip():
                problems.append(f"agent {name!r} needs a description: {spec.name} calls it, and its model reads it")
    if problems:
        return problems
    cycle = _cycle(team)
    if cycle:
        return [f"agents call each other in a cycle: {' -> '.join(cycle)} (an agent may not call itself, directly "
                "or through others)"]
    chain = _longest_chain(team, team.entry)
    if len(chain) - 1 > MAX_DEPTH:
        return [f"agents nest {len(chain) - 1} levels deep ({' -> '.join(chain)}); at most {MAX_DEPTH} levels "
                f"below {team.entry.name}"]
    return []


def _cycle(team: AgentsFile) -> list[str]:
    """The first cycle of calls found (its first agent repeated at the end), or none."""
    specs = {spec.name: spec for spec in team.agent}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return []
        for callee in team.calls(specs[name]):
            found = visit(callee, [*path, name])
            if found:
                return found
        done.add(name)
        return []

    for spec in team.agent:
        found = visit(spec.name, [])
        if found:
            return found
    return []


def _longest_chain(team: AgentsFile, spec: AgentSpec) -> list[str]:
    """The longest chain of calls from `spec` down (the file has no cycle)."""
    specs = {other.name: other for other in team.agent}
    chains = [_longest_chain(team, specs[name]) for name in team.calls(spec)]
    return [spec.name, *max(chains, key=len, default=[])]


def build_team(team: AgentsFile, tools: Sequence[BaseTool], make: Callable[[AgentSpec, list[BaseTool], bool], Any],
               where: str) -> Any:
    """The entry agent of `team`, each agent it calls built once, bottom up: `make(spec, its tools, is_entry)`
    builds one agent from its tools, the invocation's `tools` and the agents it calls (as their tools)."""
    pool = {tool.name: tool for tool in tools}
    specs = {spec.name: spec for spec in team.agent}
    problems = [f"agent {name!r} has the name of a tool; rename it" for name in specs if name in pool]
    for spec in team.agent:
        unknown = [name for name in spec.tools or () if name not in pool and name not in specs]
        if unknown:
            problems.append(f"agent {spec.name!r}: unknown tool{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                            f"(tools: {', '.join(sorted(pool)) or 'none'}; agents: {', '.join(specs)})")
    if problems:
        raise AgentsFileError("\n".join(f"{where}: {problem}" for problem in problems))
    built: dict[str, Any] = {}

    def agent(spec: AgentSpec) -> Any:
        if spec.name not in built:
            names = spec.tools if spec.tools is not None else list(pool)
            own = [agent(specs[name]).as_tool(name, specs[name].description.strip()) if name in specs else pool[name]
                   for name in names]
            built[spec.name] = make(spec, own, spec is team.entry)
        return built[spec.name]

    return agent(team.entry)
