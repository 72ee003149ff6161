"""`autoagent help [COMMAND]...`: the program's help, or one command's (`autoagent help memory search`)."""

from __future__ import annotations

import inspect

import click


def describe(command: click.Command) -> str:
    """A command's first paragraph, whole (click's short help cuts it at 45 characters)."""
    return command.short_help or " ".join(inspect.cleandoc(command.help or "").split("\n\n")[0].split())


@click.command("help")
@click.argument("words", nargs=-1, metavar="[COMMAND]...")
@click.pass_context
def help_command(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Show this help, or a command's (`autoagent help memory`)."""
    context = ctx.parent
    assert context is not None
    for word in words:
        group = context.command
        command = group.get_command(context, word) if isinstance(group, click.Group) else None
        if command is None:
            raise click.UsageError(f"no command {' '.join(words)!r}; a task that starts with 'help' runs with: "
                                   f"{ctx.find_root().command_path} run help {' '.join(words)}", ctx)
        context = click.Context(command, info_name=word, parent=context, **command.context_settings)
    click.echo(context.get_help())
