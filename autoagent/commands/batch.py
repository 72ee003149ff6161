"""`autoagent batch TASKS.jsonl --out RESULTS.jsonl`: many tasks, each in its own workspace, on a local process pool
or a Ray cluster; a re-run skips the tasks the results file already holds."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import exit_codes as codes
from .run_options import settings_options

if TYPE_CHECKING:
    from ..batch.tasks import BatchTask
    from ..batch.worker import Job
    from ..settings import Settings

EPILOG = f"""\b
Each line of TASKS_FILE: {{"id": "t1", "task": "...", "settings": {{"max_steps": 5, "lang": "zh"}},
"files": {{"data.csv": "..."}}}} (settings and files optional; files start the task's workspace).
Per task: model, budgets, lang, protocol, mode and the like; permissions, --base-url and code to load
are the command line's. A task may lower a budget, not raise it, and may pick only --model or a model
--allow-model names; it may pick the code protocol only where the python tool is granted (--allow-python
or --protocol code), and turn memory off, not on. Each task runs in
$AUTOAGENT_HOME/batch/<out-name>-<hash>/<id>/, its transcript in $AUTOAGENT_HOME/runs/. Nobody is
asked to approve: without --yes a side-effecting action is refused.
Results: one JSON line per task, appended as it ends; a re-run skips every task with a result, except
those that ended on an error. Exit codes: {codes.OK} every task finished; {codes.ERROR} a task ended on an
error (a model or configuration failure); {codes.USAGE} a bad tasks file or flag; {codes.NOT_FINISHED} a task stopped
before finishing; {codes.INTERRUPTED} interrupted with Ctrl-C (a re-run continues).
"""


@click.command("batch", epilog=EPILOG, context_settings={"show_default": True})
@click.argument("tasks_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The results file: one JSON line per task, appended as each ends; a re-run skips the tasks it "
                   "holds. One batch at a time writes it: a second one on it ends at once (exit 1).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Tasks run at once on this machine (a process each); with --ray, the CPUs of a local Ray "
                   "instance.  [default: 1]")
@click.option("--ray", "ray_address", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
              help="Run each task as a Ray task: on the cluster at ADDRESS (ray://host:10001, or auto), or on a "
                   "new local Ray instance when none is given (needs: pip install 'autoagent[ray]').")
@click.option("--allow-model", "allowed_models", multiple=True, metavar="SPEC",
              help="A model a task's own settings may pick besides --model (repeatable; * matches anything, as in "
                   "'openai:*').")
@settings_options
@click.pass_context
def batch(ctx: click.Context, tasks_file: Path, out: Path, workers: int | None, ray_address: str | None,
          allowed_models: tuple[str, ...], **options: Any) -> None:
    """Run every task of TASKS_FILE (JSONL) and append each result to --out, with a progress bar and a summary."""
    from ..batch.results import done_ids, hold_results, read_results
    from ..batch.tasks import TaskFileError, read_tasks
    from ..batch.worker import forwarded_environment
    from ..errors import AutoAgentError
    from .run import settings_from_options

    settings = settings_from_options(options)
    try:
        check = task_check(settings, [settings.resolved_model(), *allowed_models], ctx.command.params)
        tasks = read_tasks(tasks_file, check)
    except TaskFileError as err:
        for problem in err.problems:
            click.echo(f"error: {problem}", err=True)
        ctx.exit(codes.USAGE)
    if ctx.get_parameter_source("base_url") is click.core.ParameterSource.ENVIRONMENT and not (
        settings.resolved_model().startswith("openai:")
    ):
        settings.base_url = None  # OPENAI_BASE_URL in the environment only concerns OpenAI-compatible models
    try:
        with hold_results(out):  # one batch at a time on a results file, and on its tasks' workspaces
            done = done_ids(read_results(out))
            todo = [task for task in tasks if task.id not in done]
            folder, environment = batch_folder(out), forwarded_environment()
            jobs = (make_job(task, settings, folder, environment) for task in todo)  # each made as a worker is free
            interrupted = run_jobs(jobs, out, workers, ray_address, skipped=len(tasks) - len(todo), total=len(todo))
            final = {record["id"]: record for record in read_results(out)}
    except AutoAgentError as err:
        raise click.ClickException(str(err)) from err
    ctx.exit(exit_code([final.get(task.id) for task in tasks], interrupted))


def task_check(settings: Settings, models: Sequence[str],
               params: Sequence[click.Parameter]) -> Callable[[BatchTask], list[str]]:
    """The command line's rules for a task: each value in the range its flag takes, budgets at most the command
    line's, a model the command line allows."""
    from ..batch.limits import limit_problems

    ranges = {param.name: param for param in params
              if isinstance(param, click.Option) and isinstance(param.type, (click.IntRange, click.FloatRange))}

    def check(task: BatchTask) -> list[str]:
        problems = []
        for name, value in task.settings.items():
            option = ranges.get(name)
            if option is None or value is None:
                continue
            try:
                option.type.convert(value, option, None)
            except click.BadParameter as err:
                problems.append(f"task {task.id}: the setting {name!r}: {err.message.rstrip('.')} "
                                f"(as {option.opts[0]})")
        return problems or limit_problems(task, settings, models)

    return check


def batch_folder(out: Path) -> Path:
    """Where the tasks' workspaces go: one folder per results file (its name, and a hash of its full path)."""
    from ..paths import autoagent_home

    digest = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:8]
    return autoagent_home() / "batch" / f"{out.stem}-{digest}"


def make_job(task: BatchTask, settings: Settings, folder: Path, environment: dict[str, str] | None = None) -> Job:
    """The job of one task: the batch's settings with the task's own, in its own workspace, granting nothing the
    command line does not; `environment` (shared by the batch's jobs) is what a remote worker needs (None: made)."""
    from ..batch.worker import Job, forwarded_environment
    from ..settings import Settings, held_to

    record = {**settings.to_record(), **task.settings, "workspace": str(folder / task.id)}
    bounded = held_to(Settings.from_record(record), settings)
    environment = environment if environment is not None else forwarded_environment()
    return Job(task.id, task.task, bounded.to_record(), task.files, environment)


def run_jobs(jobs: Iterable[Job], out: Path, workers: int | None, ray_address: str | None, *, skipped: int,
             total: int | None = None) -> bool:
    """Run the jobs (`total` of them: a list's length when not given), appending each result to `out` and showing
    progress, then the summary; True when interrupted with Ctrl-C or SIGTERM."""
    from ..batch.pool import LocalPool, RayPool
    from ..batch.progress import BatchProgress, Tally
    from ..batch.results import ResultsWriter
    from ..batch.stopping import StopRequest
    from ..batch.worker import NOT_SETTLED

    writer = ResultsWriter(out)
    count = total if total is not None else len(jobs)  # type: ignore[arg-type]
    tally = Tally(total=count, skipped=skipped)
    runner = RayPool(ray_address, workers) if ray_address is not None and count else LocalPool(workers or 1)
    progress = BatchProgress(tally, runner.slots)

    def take(record: dict[str, Any]) -> None:
        if record["stop_reason"] != NOT_SETTLED:  # an interrupted task's record is not written: it runs again
            writer.write(record)
            tally.add(record)
            progress.update(record)

    stop = StopRequest()  # Ctrl-C and SIGTERM are noted, and acted on between waits (batch/stopping.py)
    results = runner.results(jobs, stop)
    try:
        with stop.heard():
            try:
                for record in results:
                    if record["stop_reason"] == NOT_SETTLED:  # its worker was interrupted: the batch stops here
                        stop.requested.set()
                        break
                    take(record)
            except KeyboardInterrupt:  # raised where no handler of ours was in place
                stop.requested.set()
            finally:
                results.close()
                for record in runner.stop(stop.hurried):  # the tasks that end while the batch stops are written
                    take(record)
    finally:
        writer.close()
        progress.close()
    interrupted = stop.requested.is_set()
    if interrupted:
        click.echo("interrupted: the tasks still running were dropped; run the same command again to continue",
                   err=True)
    return interrupted


def exit_code(records: list[dict[str, Any] | None], interrupted: bool) -> int:
    """The batch's exit code from each task's latest result (None: it has none yet)."""
    if interrupted:
        return codes.INTERRUPTED
    if any(record is not None and record["stop_reason"] == "error" for record in records):
        return codes.ERROR
    if any(record is None or not record["finished"] for record in records):
        return codes.NOT_FINISHED
    return codes.OK
