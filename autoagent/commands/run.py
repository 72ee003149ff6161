"""`autoagent [run]`: one task from the arguments, a resumed run, or an interactive REPL without them."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from ..errors import AutoAgentError
from ..text import encodable
from . import exit_codes as codes
from .run_options import run_options

if TYPE_CHECKING:
    from ..events import RunObserver
    from ..settings import Agent, Settings
    from ..steps import RunResult, StopReason
    from ..terminal.display import AnswerPrinter
    from ..transcripts.reader import Transcript
    from .speaking import SpeechSwitch

EPILOG = f"""\b
Exit codes: {codes.OK} the task finished; {codes.ERROR} a configuration or model error;
{codes.USAGE} bad usage; {codes.NOT_FINISHED} the run stopped before finishing (step limit, budget,
loop, unparseable replies); {codes.INTERRUPTED} interrupted with Ctrl-C.
Budgets apply to each invocation: a resumed run gets them afresh.
Settings also load from $AUTOAGENT_HOME/api_keys.env; ./api_keys.env may set API keys only.
Each run is written to $AUTOAGENT_HOME/runs/<run-id>.jsonl (see `autoagent runs`).
"""


class TaskCommand(click.Command):
    """The default command; its help also lists the group's other commands."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The epilog, then the sibling commands (`autoagent memory`, ...) with their short help."""
        super().format_epilog(ctx, formatter)
        group = ctx.parent.command if ctx.parent else None
        if isinstance(group, click.Group):
            from .help import describe

            rows = [(name, describe(command)) for name, command in group.commands.items() if command is not self]
            if rows:
                with formatter.section("Other commands"):
                    formatter.write_dl(rows)


@click.command("run", cls=TaskCommand, epilog=EPILOG, context_settings={"show_default": True})
@click.argument("task", nargs=-1)
@run_options
@click.version_option(__version__, "--version", prog_name="autoagent")
@click.pass_context
def run(ctx: click.Context, task: tuple[str, ...], resume: str | None, json_output: bool, events_format: str | None,
        trace: str | None, verbose: bool, speak: bool, **options: Any) -> None:
    """Run TASK with an autonomous agent and print its answer; with no TASK, start a REPL.

    The answer goes to stdout and the step trace to stderr, so
    `autoagent "task" > answer.txt` keeps just the answer.
    """
    from ..settings import Settings

    text = encodable(" ".join(task))  # an argument that is not valid UTF-8 arrives with lone surrogates
    if task and not text.strip():
        raise click.UsageError("the task is empty: give a task, or no TASK to start the REPL")
    if json_output and events_format:
        raise click.UsageError("give --json (one object at the end) or --events (one line per event), not both")
    if (json_output or events_format) and not task and not resume:
        flag = "--json" if json_output else "--events"
        raise click.UsageError(f"{flag} needs a TASK or --resume ID (the REPL prints no JSON)")
    output = Output(json_output, bool(events_format), _tracing(ctx, trace))
    settings = settings_from_options(options)
    resumed = None
    if resume:
        if task:
            raise click.UsageError("give a TASK or --resume ID, not both")
        with _failure_as_json(output, ""):
            resumed = _resumable(resume)
        from ..settings import PERMISSIONS  # granted by this invocation (flag, environment, default), never by the run

        given = {name for name in options if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}
        given |= PERMISSIONS
        settings = Settings.from_record({**resumed.settings, **{name: getattr(settings, name) for name in given}})
    if ctx.get_parameter_source("base_url") is click.core.ParameterSource.ENVIRONMENT and not (
        settings.resolved_model().startswith("openai:")
    ):
        settings.base_url = None  # OPENAI_BASE_URL in the environment only concerns OpenAI-compatible models
    try:
        from ..settings import build_agent

        with _failure_as_json(output, resumed.task if resumed else text):
            agent = build_agent(settings)
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        ctx.exit(codes.INTERRUPTED)
    from .speaking import SpeechSwitch

    speech = ctx.with_resource(SpeechSwitch(settings.lang, on=speak))  # at the end, the answer is heard out
    if resumed is not None:
        ctx.exit(run_once(agent, resumed.task, verbose, settings=settings, output=output, resumed=resumed,
                          speech=speech))
    if not task:
        from .repl import run_repl

        run_repl(agent, model_spec=settings.resolved_model(), base_url=settings.base_url, speech=speech,
                 run_task=lambda line: run_once(agent, line, verbose, settings=settings, output=output, speech=speech))
        speech.turn(False)  # leaving the REPL silences it at once
        return
    ctx.exit(run_once(agent, text, verbose, settings=settings, output=output, speech=speech))


def _tracing(ctx: click.Context, choice: str | None) -> tuple[RunObserver, ...]:
    """The observer of `--trace otlp` (or of an OTLP endpoint in the environment), its spans sent when the command
    ends; none when tracing is off. Without the SDK, `--trace otlp` is an error and the environment's a warning."""
    from ..tracing import OtlpTracing, tracing_wanted

    if not tracing_wanted(choice):
        return ()
    try:
        tracing = OtlpTracing()
    except AutoAgentError as err:
        if choice == "otlp":
            raise click.ClickException(str(err)) from err
        click.echo(f"warning: OTEL_EXPORTER_OTLP_ENDPOINT is set, but {err}; no traces are sent", err=True)
        return ()
    ctx.call_on_close(tracing.close)
    return (tracing.observer,)


def settings_from_options(options: dict[str, Any]) -> Settings:
    """The Settings the command-line options describe."""
    from dataclasses import fields

    from ..acting.plugins import parse_tool_names
    from ..settings import Settings

    names = {item.name for item in fields(Settings)}
    values = {name: value for name, value in options.items() if name in names}
    values["tools"] = parse_tool_names(options.get("tools"))
    values["tools_modules"] = [Path(path) for path in options.get("tools_modules") or ()]
    values["checks_modules"] = [Path(path) for path in options.get("checks_modules") or ()]
    return Settings(**values)


@dataclass(frozen=True)
class Output:
    """Where a run is told besides the terminal display: on stdout the answer (neither flag), one JSON object at the
    end (`--json`) or one JSON line per event as it happens (`--events jsonl`); and the observers of `--trace`."""

    json: bool = False
    events: bool = False
    observers: tuple[RunObserver, ...] = ()

    @property
    def answer(self) -> bool:
        """Whether the answer itself is printed."""
        return not (self.json or self.events)


@contextlib.contextmanager
def _failure_as_json(output: Output, task: str) -> Iterator[None]:
    """With --json, a run that cannot start still prints its one object (stop reason error or interrupted); with
    --events, its one event (run_ended)."""
    try:
        yield
    except (AutoAgentError, click.ClickException, KeyboardInterrupt) as err:
        if not output.answer:
            from ..steps import RunResult, StopReason

            stopped = isinstance(err, KeyboardInterrupt)
            reason = StopReason.INTERRUPTED if stopped else StopReason.ERROR
            if output.json:
                print_json(RunResult(task=task, stop_reason=reason, stop_detail="" if stopped else str(err)))
            else:
                from .event_lines import never_started, write_event

                write_event(never_started(reason, "" if stopped else str(err)))
        raise


def print_json(result: RunResult) -> None:
    """The run as its one `--json` object on stdout, every secret in force redacted."""
    from ..redact import redacted
    from ..report import run_to_json

    click.echo(json.dumps(redacted(run_to_json(result)), ensure_ascii=False))


def _resumable(run_id: str) -> Transcript:
    """The stopped run `--resume` names; one readable line when there is none to continue."""
    from ..transcripts.reader import find_transcript, load_transcript
    from ..transcripts.writer import run_lock

    try:
        run_id = find_transcript(run_id).stem
        click.get_current_context().with_resource(run_lock(run_id))  # held until the command ends: one at a time
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
    output: Output | None = None,
    resumed: Transcript | None = None,
    speech: SpeechSwitch | None = None,
) -> int:
    """Run one task with the terminal display and a transcript: the answer as soon as it exists (or, with
    --json, one object for every outcome; with --events, each event as it happens) on stdout, one `stopped:` line
    for an unfinished run; the exit code. With `speech` on, its steps' lines and the answer are said aloud."""
    from ..settings import Settings
    from ..steps import RunResult, StopReason
    from ..terminal.display import AnswerPrinter, TerminalDisplay
    from ..transcripts.writer import TranscriptWriter
    from .interrupts import watched_interrupts

    output = output or Output()
    display = TerminalDisplay(show_steps=verbose and output.answer)
    record = (settings or Settings()).to_record()
    instructions = getattr(getattr(agent, "options", None), "instructions", None)
    if instructions is not None:  # kept with the run, and said once
        record["project_instructions"] = instructions.record()  # not a setting: from_record leaves it
        if verbose:
            from ..text import escape_controls

            click.echo(escape_controls(f"instructions: {instructions.source} ({instructions.chars:,} characters)"),
                       err=True)
    writer = TranscriptWriter(record, run_id=resumed.run_id if resumed else None)
    answer = AnswerPrinter(enabled=output.answer)
    code = codes.OK
    # Ours from the run's start until its exit code is settled: Ctrl-C stops the run even where a library swallows
    # it once, and one that comes once the run has ended (while its answer is printed) still makes the exit code 130.
    with watched_interrupts() as interrupts:
        try:
            observers, callbacks = [interrupts, display, writer, answer, *output.observers], display.callbacks()
            if output.events:
                from .event_lines import EventLines

                observers.append(EventLines())
            speaking = speech.observer() if speech is not None else None
            if speaking is not None:
                observers.append(speaking)
            if resumed is not None:
                result = agent.execute(task, observers=observers, callbacks=callbacks, resume=resumed.steps,
                                       run_id=resumed.run_id, summary=resumed.summary)
            else:
                result = agent.execute(task, observers=observers, callbacks=callbacks)
        except KeyboardInterrupt:
            result, code = _last_run(agent, task, StopReason.INTERRUPTED, ""), codes.INTERRUPTED
        except AutoAgentError as err:
            click.echo(f"Error: {err}", err=True)
            result, code = _last_run(agent, task, StopReason.ERROR, str(err)), codes.ERROR
        finally:
            interrupts.on_run_end(RunResult(task=task))  # from here on a Ctrl-C is noted, not raised
            display.close()
        code = _report(agent, result, codes.INTERRUPTED if interrupts.seen else code, output, answer)
        return codes.INTERRUPTED if interrupts.seen else code


def _report(agent: Agent, result: RunResult, code: int, output: Output, answer: AnswerPrinter) -> int:
    """The run's outcome on stdout and stderr (the answer or the --json object; --events printed it as it came, and
    a `stopped:` line for a run that did not finish, with how to continue it); the exit code."""
    if output.json:
        print_json(result)
    elif output.answer:
        answer.on_answer(result)  # when no event showed it (plan mode)
    if code == codes.INTERRUPTED and result.finished:
        click.echo("interrupted: the answer stands, but this run is not remembered", err=True)
    if code == codes.ERROR or result.finished:
        return code
    resumable = result.run_id and getattr(agent, "resumable", False)
    hint = f" (continue with: autoagent --resume {result.run_id})" if resumable else ""
    from ..text import escape_controls  # the reason may quote a tool's output

    click.echo(escape_controls(f"stopped: {result.describe_stop()}{hint}"), err=True)
    return code or codes.NOT_FINISHED


def _last_run(agent: Agent, task: str, reason: StopReason, detail: str) -> RunResult:
    """The record of the run that just raised (the agent's last run), or a bare one when it never began."""
    from ..steps import RunResult

    run = agent.last_run
    if run is None or run.task != task:
        run = RunResult(task=task, stop_reason=reason, stop_detail=detail)
    return run
