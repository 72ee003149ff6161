"""The REPL's slash commands: /help, /tools, /memory, /runs, /model, /speak, /clear and /quit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

import click

from .conversation import Conversation

if TYPE_CHECKING:
    from ..settings import Agent
    from .speaking import SpeechSwitch

QUIT_WORDS = {"quit", "exit"}  # also leave the REPL without the slash
BARE_WORDS = {*QUIT_WORDS, "help"}  # commands that work without the slash: never sent to the model as a task
KEYS = [
    ("Enter", "run the entry"),
    ("Esc-Enter", "start a new line (Alt-Enter too, or end the line with \\)"),
    ("Up, Down", "earlier entries (saved in $AUTOAGENT_HOME/repl_history)"),
    ("Ctrl-C", "stop a run, or clear the line; twice on an empty line to leave"),
    ("Ctrl-D", "leave"),
]


class Next(Enum):
    """What the REPL does after a command."""

    PROMPT = "prompt"
    QUIT = "quit"


@dataclass
class ReplSession:
    """What the commands act on: the agent, the model spec and base URL it was built from, the conversation, and
    whether runs are spoken (None: this REPL cannot speak)."""

    agent: Agent
    model_spec: str = ""
    base_url: str | None = None
    conversation: Conversation = field(default_factory=Conversation)
    speech: SpeechSwitch | None = None


def is_command(entry: str) -> bool:
    """Whether a REPL entry is a command rather than a task."""
    return entry.startswith("/") or entry.lower() in BARE_WORDS


def run_command(entry: str, session: ReplSession) -> Next:
    """Run a command line such as `/memory search usd`; unknown ones are reported."""
    word, _, args = entry.partition(" ")
    name = word.lower().removeprefix("/")
    if name in QUIT_WORDS:
        return Next.QUIT
    command = COMMANDS.get(name)
    if command is None:
        click.echo(f"Unknown command {word}; /help lists them.", err=True)
        return Next.PROMPT
    command.run(session, args.strip())
    return Next.PROMPT


def describe_model(session: ReplSession) -> str:
    """The model spec (or, without one, the model's own name) and its LangChain class."""
    llm = session.agent.llm
    name = session.model_spec or getattr(llm, "model_name", None) or getattr(llm, "model", None) or "unknown"
    return f"{name} ({type(llm).__name__})"


def _help(session: ReplSession, args: str) -> None:
    rows = [(command.usage, command.summary) for command in COMMANDS.values()]
    width = max(len(name) for name, _ in rows + KEYS)
    lines = ["Commands:", *(f"  {name:<{width}}  {text}" for name, text in rows),
             "Keys:", *(f"  {name:<{width}}  {text}" for name, text in KEYS),
             "Anything else is a task; it sees the last few exchanges of this conversation."]
    click.echo("\n".join(lines))


def _tools(session: ReplSession, args: str) -> None:
    toolbox = session.agent.toolbox
    lines = [f"{name}: {' '.join(tool.description.split())}" for name, tool in toolbox.tools.items()]
    click.echo("\n".join(lines) or "No tools.")


def _memory(session: ReplSession, args: str) -> None:
    from .memory import run_memory_command

    run_memory_command(args, session.model_spec, session.base_url)


def _runs(session: ReplSession, args: str) -> None:
    try:
        from .runs import run_runs_command
    except ImportError:
        click.echo("Error: /runs is not available in this version of autoagent.", err=True)
        return
    run_runs_command(args)


def _model(session: ReplSession, args: str) -> None:
    click.echo(f"Model: {describe_model(session)}")


def _speak(session: ReplSession, args: str) -> None:
    if session.speech is None:
        click.echo("Error: this REPL cannot speak.", err=True)
        return
    choice = args.lower()
    if choice not in ("", "on", "off"):
        click.echo(f"Error: /speak takes on or off, not {args!r}.", err=True)
        return
    session.speech.turn(not session.speech.on if not choice else choice == "on")
    click.echo(f"Speech: {session.speech.describe()}.")


def _clear(session: ReplSession, args: str) -> None:
    session.conversation.clear()
    click.echo("Conversation cleared.")


def _quit(session: ReplSession, args: str) -> None:
    """Never called: run_command leaves before looking /quit up; listed here for /help."""


@dataclass(frozen=True)
class Command:
    """A slash command: how to call it, what it does, and its handler."""

    usage: str
    summary: str
    run: Callable[[ReplSession, str], None]


COMMANDS: dict[str, Command] = {
    "help": Command("/help", "this list (also help)", _help),
    "tools": Command("/tools", "the tools the agent may call", _tools),
    "memory": Command("/memory [ARGS]", "long-term memory: list, search TEXT, show ID, forget ID, ...", _memory),
    "runs": Command("/runs [ARGS]", "recorded runs", _runs),
    "model": Command("/model", "the model in use", _model),
    "speak": Command("/speak", "say each step and the answer aloud, or stop (also /speak on, off)", _speak),
    "clear": Command("/clear", "forget this conversation's earlier exchanges", _clear),
    "quit": Command("/quit", "leave (also quit, exit, Ctrl-D)", _quit),
}
