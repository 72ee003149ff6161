"""`autoagent [run]`: one task from the arguments, a resumed run, or an interactive REPL without them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from .. import exit_codes as codes
from ..errors import AutoAgentError
from .run_options import run_options

if TYPE_CHECKING:
    from ..agent import AutoGPT
    from ..config import Settings
    from ..plan import PlanAndExecute
    from ..transcript_reader import Transcript

    Agent = AutoGPT | PlanAndExecute

EPILOG = f"""\b
Exit codes: {codes.OK} the task finished; {codes.ERROR} a configuration or model error;
{codes.USAGE} bad usage; {codes.NOT_FINISHED} the run stopped before finishing (step limit, budget,
loop, unparseable replies); {codes.INTERRUPTED} interrupted with Ctrl-C.
Budgets apply to each invocation: a resumed run gets them afresh.
Settings also load from ./api_keys.env and $AUTOAGENT_HOME/api_keys.env.
Each run is written to $AUTOAGENT_HOME/runs/<run-id>.jsonl (see `autoagent runs`).
"""


class TaskCommand(click.Command):
    """The default command; its help also lists the group's other commands."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The epilog, then the sibling commands (`autoagent memory`, ...) with their short help."""
        super().format_epilog(ctx, formatter)
        group = ctx.parent.command if ctx.parent else None
        if isinstance(group, click.Group):
            rows = [(name, command.get_short_help_str()) for name, command in group.commands.items()
                    if command is not self]
            if rows:
                with formatter.section("Other commands"):
                    formatter.write_dl(rows)


@click.command("run", cls=TaskCommand, epilog=EPILOG, context_settings={"show_default": True})
@click.argument("task", nargs=-1)
@run_options
@click.version_option(__version__, "--version", prog_name="autoagent")
@click.pass_context
def run(ctx: click.Context, task: tuple[str, ...], resume: str | None, json_output: bool, verbose: bool,
        **options: Any) -> None:
    """Run TASK with an autonomous agent and print its answer; with no TASK, start a REPL.

    The answer goes to stdout and the step trace to stderr, so
    `autoagent "task" > answer.txt` keeps just the answer.
    """
    from ..config import Settings

    settings = settings_from_options(options)
    resumed = None
    if resume:
        if task:
            raise click.UsageError("give a TASK or --resume ID, not both")
        resumed = _resumable(resume)
        given = {name for name in options if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}
        settings = Settings.from_record({**resumed.settings, **{name: getattr(settings, name) for name in given}})
    if ctx.get_parameter_source("base_url") is click.core.ParameterSource.ENVIRONMENT and not (
        settings.resolved_model().startswith("openai:")
    ):
        settings.base_url = None  # OPENAI_BASE_URL in the environment only concerns OpenAI-compatible models
    try:
        from ..config import build_agent

        agent = build_agent(settings)
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        ctx.exit(codes.INTERRUPTED)
    if resumed is not None:
        ctx.exit(run_once(agent, resumed.task, verbose, settings=settings, json_output=json_output, resumed=resumed))
    if not task:
        from ..repl import run_repl

        run_repl(agent, verbose=verbose, model_spec=settings.resolved_model(),
                 run_task=lambda line: run_once(agent, line, verbose, settings=settings))
        return
    ctx.exit(run_once(agent, " ".join(task), verbose, settings=settings, json_output=json_output))


def settings_from_options(options: dict[str, Any]) -> Settings:
    """The Settings the command-line options describe."""
    from dataclasses import fields

    from ..config import Settings
    from ..plugins import parse_tool_names

    names = {item.name for item in fields(Settings)}
    values = {name: value for name, value in options.items() if name in names}
    values["tools"] = parse_tool_names(options.get("tools"))
    values["tools_modules"] = [Path(path) for path in options.get("tools_modules") or ()]
    return Settings(**values)


def _resumable(run_id: str) -> Transcript:
    """The stopped run `--resume` names; one readable line when there is none to continue."""
    from ..transcript_reader import load_transcript

    try:
        transcript = load_transcript(run_id)
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    if not transcript.resumable:
        raise click.ClickException(f"run {transcript.run_id} finished its task; there is nothing to resume")
    if transcript.settings.get("mode") == "plan":
        raise click.ClickException(f"run {transcript.run_id} ran in plan mode, which cannot be resumed")
    return transcript


def run_once(
    agent: Agent,
    task: str,
    verbose: bool,
    *,
    settings: Settings | None = None,
    json_output: bool = False,
    resumed: Transcript | None = None,
) -> int:
    """Run one task with the terminal display and a transcript: the answer (or JSON) to stdout, the exit code."""
    from ..display import TerminalDisplay, print_answer
    from ..transcript import TranscriptWriter

    display = TerminalDisplay(show_steps=verbose and not json_output)
    from ..config import Settings

    record = (settings or Settings()).to_record()
    writer = TranscriptWriter(record, run_id=resumed.run_id if resumed else None)
    observers, callbacks = [display, writer], display.callbacks()  # the callbacks hear streamed tokens
    try:
        if resumed is not None:
            result = agent.execute(task, observers=observers, callbacks=callbacks, resume=resumed.steps,
                                   run_id=resumed.run_id)
        else:
            result = agent.execute(task, observers=observers, callbacks=callbacks)
    except KeyboardInterrupt:
        click.echo("interrupted: the run was stopped; its transcript is kept (autoagent runs list)", err=True)
        return codes.INTERRUPTED
    except AutoAgentError as err:
        click.echo(f"Error: {err}", err=True)
        return codes.ERROR
    finally:
        display.close()
    if json_output:
        from ..report import run_to_json

        click.echo(json.dumps(run_to_json(result), ensure_ascii=False))
    elif result.answer:
        print_answer(result.answer)
    if not result.finished:
        resumable = result.run_id and getattr(agent, "resumable", False)
        hint = f" (continue with: autoagent --resume {result.run_id})" if resumable else ""
        click.echo(f"stopped: {result.describe_stop()}{hint}", err=True)
        return codes.NOT_FINISHED
    return codes.OK
