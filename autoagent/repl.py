"""The interactive loop: each line is a task; quit, exit or Ctrl-D leave; Ctrl-C stops the current run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .commands.run import run_once

if TYPE_CHECKING:
    from .commands.run import Agent

PROMPT = "autoagent> "
QUIT_WORDS = {"quit", "exit"}


def run_repl(agent: Agent, verbose: bool = True) -> None:
    """Read tasks until quit/exit/EOF; a failed or interrupted run returns to the prompt."""
    click.echo("autoagent: type a task and press Enter; /memory lists what it remembers; "
               "quit, exit or Ctrl-D to leave.", err=True)
    while True:
        try:
            line = input(PROMPT).strip()
        except EOFError:
            click.echo("", err=True)
            return
        except KeyboardInterrupt:  # Ctrl-C at the prompt clears the line, as in a shell
            click.echo("", err=True)
            continue
        if not line:
            continue
        if line.lower() in QUIT_WORDS:
            return
        if line.startswith("/memory"):
            from .commands.memory import run_memory_command

            run_memory_command(line.removeprefix("/memory"))
            continue
        run_once(agent, line, verbose)  # a failed or interrupted run reports itself; the prompt comes back
