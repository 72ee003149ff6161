"""Running a command group (`memory`, `runs`) from a REPL line such as `/memory search "usd to eur"`."""

from __future__ import annotations

import shlex

import click


def run_group_from_line(group: click.Group, line: str, prog_name: str, defaults: dict[str, str] | None = None) -> None:
    """Run `group`'s sub-command the line names (empty: `list`); a mistake is one line, and the REPL goes on.

    `defaults` (option name: value, such as the session's `model`) fill the options the sub-command has and
    the line does not give."""
    try:
        args = shlex.split(line) or ["list"]
    except ValueError as err:  # unbalanced quotes
        click.echo(f"Error: {err}", err=True)
        return
    args = with_defaults(group, args, defaults or {})
    try:
        group.main(args=args, prog_name=prog_name, standalone_mode=False)
    except click.ClickException as err:
        err.show()
    except click.Abort:
        click.echo("Aborted.", err=True)


def with_defaults(group: click.Group, args: list[str], defaults: dict[str, str]) -> list[str]:
    """`args` with an option added after the sub-command's name for each default it takes and was not given."""
    command = group.commands.get(args[0])
    if command is None:
        return args
    added: list[str] = []
    for param in command.params:
        value = defaults.get(param.name or "")
        given = any(arg == opt or arg.startswith(f"{opt}=") for arg in args for opt in param.opts)
        if isinstance(param, click.Option) and value and not given:
            added += [param.opts[-1], value]
    return [args[0], *added, *args[1:]]
