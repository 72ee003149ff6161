"""`autoagent runs`: list past runs and show one in full, from the transcripts in $AUTOAGENT_HOME/runs."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

from ..errors import AutoAgentError
from ..text import escape_controls, shorten
from .from_repl import run_group_from_line

if TYPE_CHECKING:
    from ..steps import Step
    from ..transcripts.reader import Transcript, TranscriptSummary

TASK_CHARS = 60
RUN_LABEL, STEP_LABEL = 9, 13  # label widths, so values line up
THOUGHT_PARTS = ("text", "reasoning", "plan", "criticism", "speak")


@contextlib.contextmanager
def _reported() -> Iterator[None]:
    """Our errors (unknown or ambiguous id, damaged transcript, unreadable file) as one line and exit code 1."""
    try:
        yield
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    except OSError as err:
        raise click.ClickException(f"cannot read the transcript: {err}") from err


def format_runs(summaries: Sequence[TranscriptSummary], total: int | None = None) -> str:
    """A table of runs (id, time, status, steps, task), newest first; what `list` and the REPL's /runs print."""
    if not summaries:
        return "No runs yet."
    id_width = max(len("ID"), *(len(summary.run_id) for summary in summaries))
    status_width = max(len("STATUS"), *(len(summary.status) for summary in summaries))
    lines = [f"{'ID':{id_width}}  {'WHEN (UTC)':16}  {'STATUS':{status_width}}  STEPS  TASK"]
    for summary in summaries:
        when = summary.started.replace("T", " ")[:16]
        task = shorten(" ".join(summary.task.split()), TASK_CHARS)  # one line
        status = f"{summary.status:{status_width}}"
        lines.append(f"{summary.run_id:{id_width}}  {when:16}  {status}  {summary.steps:5}  {task}")
    if total is not None and total > len(summaries):
        lines.append(f"({len(summaries)} of {total} shown)")
    return "\n".join(lines)


def format_run(transcript: Transcript) -> str:
    """A whole run for people: task and settings, each step in full, then the outcome and usage."""
    lines = [_field("Run", transcript.run_id), _field("Task", transcript.task),
             _field("Started", transcript.started), _field("Status", transcript.status)]
    lines += [_field("Resumed", f"{record.get('time', '?')}, from step {record.get('from_step', '?')}")
              for record in transcript.records if record["type"] == "resume"]
    lines.append("Settings:" if transcript.settings else _field("Settings", "(none recorded)"))
    lines += [f"  {key}: {_text(value)}" for key, value in transcript.settings.items()]
    for plan in transcript.plans:
        lines += ["", "Plan:", *(f"  {number}. {item}" for number, item in enumerate(plan, start=1))]
    for step in transcript.steps:
        lines += ["", *format_step(step)]
    if transcript.warnings:
        lines += ["", "Warnings:", *(f"  - {warning}" for warning in transcript.warnings)]
    lines += ["", *_outcome(transcript)]
    return "\n".join(lines)


def format_step(step: Step) -> list[str]:
    """A step's heading, then its thought, action (or raw reply) and full observation."""
    tokens = f"{step.input_tokens} in / {step.output_tokens} out tokens"
    failed = "" if step.success else ", failed"
    lines = [f"Step {step.number} ({step.kind.value}{failed}, {step.seconds:.2f} s, {tokens})"]
    if step.decision is None:
        lines.append(_field("Reply", step.reply, indent=2))
    else:
        thought = step.decision.thought
        for part in THOUGHT_PARTS:
            value = getattr(thought, part)
            if value:
                label = "Thought" if part == "text" else part.capitalize()
                lines.append(_field(label, "\n".join(value) if isinstance(value, list) else value, indent=2))
        action = step.decision.action
        lines.append(_field("Action", f"{action.name} {json.dumps(action.args, ensure_ascii=False)}", indent=2))
    if step.observation:
        lines.append(_field("Observation", step.observation, indent=2))
    if step.sub_run is not None:
        lines += _sub_run_lines(step)
    return lines


def _sub_run_lines(step: Step) -> list[str]:
    """The run of the sub-agent `step` called, indented under it: its task, every step, and how it ended."""
    assert step.sub_run is not None
    agent, run = step.sub_run.agent, step.sub_run.run
    outcome = run.stop_reason.describe() + (f": {run.stop_detail}" if run.stop_detail else "")
    usage = {name: getattr(run.usage, name) for name in ("calls", "input_tokens", "output_tokens", "estimated",
                                                         "cost_usd")}
    inner = [line for step_of_run in run.steps for line in ["", *format_step(step_of_run)]]
    inner += ["", _field("Outcome", outcome), _field("Usage", _usage(usage, run.seconds))]
    nested = [f"    | {line}".rstrip() for text in inner for line in text.splitlines() or [""]]
    lines = [_field("Sub-agent", f"{agent}, given: {run.task}", indent=2), *nested]
    return lines


def _outcome(transcript: Transcript) -> list[str]:
    """How the run ended (or that it did not), its answer and usage."""
    if transcript.stop_reason is None:
        outcome = "no end record: the process was killed (or is still running)"
    else:
        outcome = transcript.stop_reason.describe() + (f": {transcript.stop_detail}" if transcript.stop_detail else "")
    if transcript.resumable:
        outcome += f"; continue it with `autoagent --resume {transcript.run_id}`"
    lines = [_field("Outcome", outcome)]
    if transcript.answer:
        lines.append(_field("Answer", transcript.answer))
    if transcript.usage is not None:
        lines.append(_field("Usage", _usage(transcript.usage, transcript.seconds)))
    return lines


def _usage(usage: dict[str, Any], seconds: float) -> str:
    """`3 calls, 400 input + 50 output tokens (estimated), $0.001200, 4.2 s`."""
    text = f"{usage.get('calls', 0)} calls, {usage.get('input_tokens', 0)} input + {usage.get('output_tokens', 0)} " \
           f"output tokens"
    text += " (estimated)" if usage.get("estimated") else ""
    cost = usage.get("cost_usd")
    text += f", ${cost:.6f}" if isinstance(cost, (int, float)) else ", cost unknown"
    return f"{text}, {seconds:.1f} s"


@click.group("runs", context_settings={"help_option_names": ["-h", "--help"]})
def runs() -> None:
    """Inspect past runs: the transcripts kept in $AUTOAGENT_HOME/runs."""


@runs.command("list")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="Show at most this many runs, newest first.")
def list_runs(limit: int) -> None:
    """List past runs, newest first, with how each ended."""
    from ..transcripts.reader import list_transcripts, transcript_paths

    with _reported():
        click.echo(format_runs(list_transcripts(limit=limit), total=len(transcript_paths())))


@runs.command("show")
@click.argument("run_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the transcript's raw records, one JSON object a line.")
def show(run_id: str, as_json: bool) -> None:
    """Show one run in full: every step's thought, action and observation, then the outcome.

    ID may be any unique prefix of a run id.
    """
    from ..transcripts.reader import load_transcript

    with _reported():
        transcript = load_transcript(run_id)
    if as_json:
        for record in transcript.records:
            click.echo(json.dumps(record, ensure_ascii=False))
    else:
        click.echo(escape_controls(format_run(transcript)))


def run_runs_command(line: str) -> None:
    """Run `runs` sub-commands from a REPL line such as `show 2026` (empty: `list`)."""
    run_group_from_line(runs, line, "/runs")


def _field(label: str, value: str, indent: int = 0) -> str:
    """`Label:  value` (a step's when indented), a multi-line value's further lines aligned under its first."""
    head = " " * indent + f"{label + ':':{STEP_LABEL if indent else RUN_LABEL}} "
    first, *rest = value.splitlines() or [""]
    return "\n".join(line.rstrip() for line in [head + first, *(" " * len(head) + line for line in rest)])


def _text(value: Any) -> str:
    """A setting's value on one line."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
