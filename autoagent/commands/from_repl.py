"""Running a command group (`memory`, `runs`) from a REPL line such as `/memory search "usd to eur"`."""

from __future__ import annotations

import shlex

import click


def run_group_from_line(group: click.Group, line: str, prog_name: str) -> None:
    """Run `group`'s sub-command the line names (empty: `list`); a mistake is one line, and the REPL goes on."""
    try:
        args = shlex.split(line) or ["list"]
    except ValueError as err:  # unbalanced quotes
        click.echo(f"Error: {err}", err=True)
        return
    try:
        group.main(args=args, prog_name=prog_name, standalone_mode=False)
    except click.ClickException as err:
        err.show()
    except click.Abort:
        click.echo("Aborted.", err=True)
