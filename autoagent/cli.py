"""The `autoagent` command group; a first argument that is no sub-command runs it as a task."""

from __future__ import annotations

import click

from .commands.doctor import doctor
from .commands.memory import memory
from .commands.run import run
from .commands.runs import runs
from .settings import load_settings_files

DEFAULT_COMMAND = "run"


class DefaultCommandGroup(click.Group):
    """A group whose default command takes over when the first argument names no sub-command,
    so `autoagent "task"` and `autoagent --max-steps 3 "task"` need no `run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Insert the default command unless the arguments start with a sub-command's name."""
        if not args or args[0] not in self.commands:
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultCommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """autoagent: an autonomous agent."""


cli.add_command(run)
cli.add_command(memory)
cli.add_command(runs)
cli.add_command(doctor)


def main() -> None:
    """Entry point of the `autoagent` script, `python -m autoagent` and `python main.py`."""
    load_settings_files()
    cli(prog_name="autoagent")
