"""The `autoagent` command group: a task needs no `run`, and a word that names (or nearly names) a command
is never taken for a task."""

from __future__ import annotations

import logging
import shlex

import click

from .api_keys import load_settings_files, unreadable_settings
from .commands.batch import batch
from .commands.doctor import doctor
from .commands.help import describe, help_command
from .commands.mcp import mcp
from .commands.memory import memory
from .commands.run import EPILOG, run
from .commands.runs import runs
from .commands.serve import serve

DEFAULT_COMMAND = "run"
UNSETTLED_COMMANDS = ("doctor", "help")  # they run even where a settings file cannot be read, to say so
HELP_FLAGS = ("-h", "--help")
ROUTING = """\b
How the first argument is read: a command's name runs that command (`autoagent memory list`);
a one-word argument a typo away from a command's name is a usage error (`autoagent memroy list`:
"did you mean 'memory'?"); anything else is the task. `autoagent run TEXT` runs any text as a task.
Options before a command's name apply to it when it has them (`autoagent --model local doctor`);
any other is a usage error. Nothing that looks like a command ever reaches the model."""


class DefaultCommandGroup(click.Group):
    """A group whose default command takes over when the first argument names no sub-command,
    so `autoagent "task"` and `autoagent --max-steps 3 "task"` need no `run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Route the arguments to a sub-command, the default one unless a command's name comes first."""
        return super().parse_args(ctx, self.route(ctx, args))

    def route(self, ctx: click.Context, args: list[str]) -> list[str]:
        """`args` with the command to run first and any leading options moved after its name."""
        leading, rest = split_leading_options(args, self.commands[DEFAULT_COMMAND])
        name = rest[0] if rest and not rest[0].startswith("-") else None
        if any(group[0] in HELP_FLAGS for group in leading):
            return [name, "--help"] if name is not None and name in self.commands else ["--help"]
        if name is None:
            return [DEFAULT_COMMAND, *args]
        if name in self.commands:
            return [name, *self.options_for(ctx, name, leading), *rest[1:]]
        near = near_command(name, list(self.commands))
        if near is not None:
            raise click.UsageError(f"no command {name!r}; did you mean {near!r}? (to run it as a task: "
                                   f"{ctx.command_path} run {shlex.join(rest)})", ctx)
        return [DEFAULT_COMMAND, *args]

    def options_for(self, ctx: click.Context, name: str, leading: list[list[str]]) -> list[str]:
        """The leading options, each of which `name` must also take; else a usage error."""
        command = self.commands[name]
        taken = set() if isinstance(command, click.Group) else option_names(command)
        foreign = [group[0].split("=")[0] for group in leading if group[0].split("=")[0] not in taken]
        if foreign:
            verb = "is not an option" if len(foreign) == 1 else "are not options"
            path = f"{ctx.command_path} {name}"
            raise click.UsageError(f"{', '.join(foreign)} {verb} of `{path}`; give a command's options after its "
                                   f"name (`{path} --help` lists them)", ctx)
        return [part for group in leading for part in group]

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Both forms: a task (the default command) and a named command."""
        formatter.write_usage(ctx.command_path, "[OPTIONS] [TASK]...")
        formatter.write_usage(ctx.command_path, "COMMAND [ARGS]...", prefix="       ")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The default command's options (they are the program's), then every command in full."""
        default = self.commands[DEFAULT_COMMAND]
        context = click.Context(default, info_name=DEFAULT_COMMAND, parent=ctx, **default.context_settings)
        default.format_options(context, formatter)
        rows = [(name, describe(command)) for name, command in self.commands.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """How arguments are read, then the exit codes and files."""
        for text in (ROUTING, EPILOG):
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)


def split_leading_options(args: list[str], command: click.Command) -> tuple[list[list[str]], list[str]]:
    """The options (each with its value) before the first argument that is not one of `command`'s options,
    and the arguments from there on; `--` and an unknown option end the options."""
    valued = {name for param in command.params if isinstance(param, click.Option) and not param.is_flag
              and not param.count for name in param.opts}
    known = option_names(command) | set(HELP_FLAGS)
    leading: list[list[str]] = []
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "--":
        name = args[index].split("=")[0]
        if name not in known:
            break
        takes_next = name in valued and "=" not in args[index]
        leading.append(args[index:index + 2] if takes_next else [args[index]])
        index += len(leading[-1])
    return leading, args[index:]


def option_names(command: click.Command) -> set[str]:
    """Every spelling of `command`'s options (`-m`, `--model`, `--no-memory`, ...)."""
    return {name for param in command.params if isinstance(param, click.Option)
            for name in (*param.opts, *param.secondary_opts)}


def near_command(word: str, names: list[str]) -> str | None:
    """The command `word` is a typo of: one edit away (two for names of five letters or more), in any case."""
    if any(character.isspace() for character in word):
        return None
    lowered = word.lower()
    for name in names:
        if edit_distance(lowered, name) <= (1 if len(name) < 5 else 2):
            return name
    return None


def edit_distance(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


class WarningLines(logging.Handler):
    """Our log's warnings as `warning: ...` lines on stderr (the stderr of the moment: a spinner's, too)."""

    def emit(self, record: logging.LogRecord) -> None:
        """One line, prefixed with the level: `warning:`, `error:`."""
        click.echo(f"{record.levelname.lower()}: {record.getMessage()}", err=True)


@click.group(cls=DefaultCommandGroup, context_settings={"help_option_names": list(HELP_FLAGS)})
@click.pass_context
def cli(ctx: click.Context) -> None:
    """autoagent: an autonomous agent. Give it a TASK and it thinks, calls tools and observes until it can
    answer (the answer on stdout, the steps on stderr); with no TASK it starts a REPL."""
    unread = unreadable_settings()
    if unread and ctx.invoked_subcommand not in UNSETTLED_COMMANDS:  # its settings might be what keeps a run safe
        raise click.ClickException("; ".join(unread))
    logger, handler = logging.getLogger("autoagent"), WarningLines(logging.WARNING)
    logger.addHandler(handler)  # while the command runs: a memory summary's retries say `warning:` too
    ctx.call_on_close(lambda: logger.removeHandler(handler))


cli.add_command(run)
cli.add_command(memory)
cli.add_command(runs)
cli.add_command(doctor)
cli.add_command(batch)
cli.add_command(serve)
cli.add_command(mcp)
cli.add_command(help_command)


def main() -> None:
    """Entry point of the `autoagent` script, `python -m autoagent` and `python main.py`."""
    load_settings_files()
    cli(prog_name="autoagent")
