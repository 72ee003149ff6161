"""`autoagent serve`: the agent behind the Agent Protocol over HTTP, for other programs to drive."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..serve.access import is_loopback, token_problem
from .run_options import settings_options

if TYPE_CHECKING:
    from ..serve.access import Access
    from ..serve.connections import GatedSocket

EPILOG = """\b
Routes (Agent Protocol v1): POST/GET /ap/v1/agent/tasks, GET /ap/v1/agent/tasks/{id},
POST/GET /ap/v1/agent/tasks/{id}/steps, POST .../steps/stream (the step's events as Server-Sent
Events, then the step), GET .../steps/{step_id}, GET/POST .../artifacts, GET .../artifacts/{artifact_id}.
A2A v1.0: the card at GET /.well-known/agent-card.json, JSON-RPC at POST /a2a (SendMessage,
SendStreamingMessage, GetTask, ListTasks, CancelTask; an approval is INPUT_REQUIRED, answered by the
next message on the task). The web page is at / (opened once with ?token=, then a session
cookie), its routes under /ui. Each POST .../steps runs one step; a step that waits for approval
has status "running" and asks for y, n or feedback as the next step's input (--yes: no questions).
Each task has its own workspace and transcript under $AUTOAGENT_HOME/serve/tasks/<id>/ and
$AUTOAGENT_HOME/runs/; a restarted server lists its tasks and continues them. On the embedded model
the steps of several tasks queue for the one model, and a step that waited says so.

\b
Every request, /docs included, carries the token (Authorization: Bearer <token>): without
--token or AUTOAGENT_SERVE_TOKEN the server makes a new one at each start and writes it to
$AUTOAGENT_HOME/serve/token (0600); a token given has at least 16 characters. The port is bound
before anything is printed. The Host header must be a loopback name, the address served on or an
--allow-host name (else 400); a request from a web page of another origin may not change anything
(403) unless --allow-origin names it. A JSON body over 1 MiB, an input over 100,000 characters or an upload
over --max-upload-mb gets 413. A connection that sends no request head within 10 s is closed, and
past the cap on connections the one that has waited longest for a head makes room.
"""

__all__ = ["access_options", "is_loopback", "serve"]
_F = TypeVar("_F", bound=Callable[..., Any])


_ACCESS_OPTIONS = [
    click.option("--host", default="127.0.0.1", envvar="AUTOAGENT_SERVE_HOST", show_envvar=True,
                 help="Address to listen on."),
    click.option("--port", type=click.IntRange(0, 65535), default=8000, envvar="AUTOAGENT_SERVE_PORT",
                 show_envvar=True, help="Port to listen on."),
    click.option("--token", envvar="AUTOAGENT_SERVE_TOKEN", show_envvar=True,
                 help="Bearer token every request must carry, at least 16 characters [default: a new one at each "
                      "start, written to $AUTOAGENT_HOME/serve/token]. "
                      "Given as this flag it is visible to every local user in /proc/<pid>/cmdline: prefer "
                      "AUTOAGENT_SERVE_TOKEN, or let the server make one."),
    click.option("--no-token", is_flag=True,
                 help="Loopback only: serve without a token, so that any account on this machine can drive the "
                      "agent."),
    click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME", envvar="AUTOAGENT_SERVE_ALLOW_HOSTS",
                 show_envvar=True, help="Another name the server answers to in the Host header (repeatable; * for "
                                        "any, which needs the token)."),
    click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
                 envvar="AUTOAGENT_SERVE_ALLOW_ORIGINS", show_envvar=True,
                 help="A web page origin (http://localhost:3000) allowed to change state, with CORS (repeatable)."),
]


def access_options(command: _F) -> _F:
    """The options of a server's address and access rules (`autoagent serve`, `autoagent mcp --http`)."""
    for option in reversed(_ACCESS_OPTIONS):
        command = option(command)
    return command


@click.command("serve", epilog=EPILOG, context_settings={"show_default": True})
@access_options
@click.option("--max-upload-mb", type=click.IntRange(min=1), default=100, envvar="AUTOAGENT_SERVE_MAX_UPLOAD_MB",
              show_envvar=True, help="Largest artifact upload, in MiB (413 past it).")
@click.option("--max-live-tasks", type=click.IntRange(min=1), default=8, envvar="AUTOAGENT_SERVE_MAX_LIVE_TASKS",
              show_envvar=True,
              help="Runs held in memory at once; past it the least recently used idle one is closed, and its "
                   "task's next step resumes it from its transcript.")
@click.option("--batch-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The results file of a batch (autoagent batch --out) for the page to follow as its results come "
                   "in.")
@click.option("--batch-tasks", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="That batch's tasks file, so the page lists the tasks still waiting too (needs --batch-out).")
@settings_options
def serve(host: str, port: int, token: str | None, no_token: bool, allow_hosts: tuple[str, ...],
          allow_origins: tuple[str, ...], max_upload_mb: int, max_live_tasks: int, batch_out: Path | None,
          batch_tasks: Path | None, **options: Any) -> None:
    """Serve the agent over HTTP: the Agent Protocol (tasks, steps, artifacts), A2A, and a web page to follow and
    steer runs."""
    from ..serve.app import create_app
    from ..serve.connections import serve_on
    from ..serve.limits import MIB, Limits
    from ..serve.page import BatchFiles
    from .run import settings_from_options

    if batch_tasks is not None and batch_out is None:
        raise click.UsageError("--batch-tasks names the tasks of the batch whose --batch-out the page follows: give "
                               "--batch-out too")

    with served_on(host, port, token, no_token, allow_hosts, allow_origins) as (sock, access, url, made):
        limits = Limits(artifact_bytes=max_upload_mb * MIB, live_tasks=max_live_tasks)
        batch = BatchFiles(batch_out, batch_tasks) if batch_out is not None else None
        app = create_app(settings_from_options(options), access, limits=limits, url=url, batch=batch)
        click.echo(f"autoagent serve: {url}/ap/v1/agent/tasks (Agent Protocol v1), {url}/a2a (A2A, its card at "
                   f"{url}/.well-known/agent-card.json); Ctrl-C stops", err=True)
        tell_token(no_token, made, f"{url}/ap/v1/agent/tasks", f"  docs: {url}/docs?token=<token>")
        click.echo(f"  the page: {page_link(url, no_token, made)}", err=True)
        serve_on(app, sock)  # slow clients shed: a late request head is let go, and the oldest goes when it is full


@contextlib.contextmanager
def served_on(host: str, port: int, token: str | None, no_token: bool, allow_hosts: tuple[str, ...],
              allow_origins: tuple[str, ...]) -> Iterator[tuple[GatedSocket, Access, str, bool]]:
    """The listening socket, the access rules, the server's URL and whether its token was made here, for a server
    of `autoagent serve`'s options (usage errors first; the port bound before a word is said)."""
    if no_token and not is_loopback(host):
        raise click.UsageError(f"--no-token is for loopback only; --host {host} reaches beyond this machine, so every "
                               "request must carry a token")
    if no_token and token:
        raise click.UsageError("--no-token and a token (--token or AUTOAGENT_SERVE_TOKEN) contradict each other")
    if no_token and "*" in _split(allow_hosts):
        raise click.UsageError("--no-token with --allow-host '*' lets any web page whose name points at this machine "
                               "drive the agent: keep the token, or name the hosts")
    if token and (problem := token_problem(token)) is not None:
        raise click.UsageError(problem)
    from ..serve.access import Access, host_name, server_token
    from ..serve.connections import listening_socket

    shown = f"[{host}]" if ":" in host else host
    try:  # the port is ours before a word is said: a program holding it hears nothing about the server or its token
        sock = listening_socket(host, port)
    except OSError as err:
        raise click.ClickException(f"cannot listen on {shown}:{port}: {err.strerror or err}") from None
    port = sock.getsockname()[1]  # --port 0: the one the system picked
    made = not no_token and not token
    with sock, server_token() if made else contextlib.nullcontext(token) as served:
        access = Access(token=None if no_token else served, bind=host, cookie=f"autoagent-{port}",
                        hosts=frozenset(host_name(name) if name != "*" else name for name in _split(allow_hosts)),
                        origins=frozenset(origin.rstrip("/").lower() for origin in _split(allow_origins)))
        yield sock, access, f"http://{shown}:{port}", made


def tell_token(no_token: bool, made: bool, url: str, more: str = "") -> None:
    """How a client sends the token, on stderr."""
    from ..serve.access import token_path

    if no_token:
        click.echo("  no token (--no-token): any account on this machine can drive the agent", err=True)
    elif made:
        click.echo(f"  its token, new at each start, is in {token_path()} (0600); send it with each request, e.g.\n"
                   f"  curl -H \"Authorization: Bearer $(cat {token_path()})\" {url}" + (f"\n{more}" if more else ""),
                   err=True)
    else:
        click.echo("  send the token with every request: Authorization: Bearer <token>", err=True)


def page_link(url: str, no_token: bool, made: bool) -> str:
    """How to open the web page: its address, with the token read from the file where the server made it (the
    token itself is printed nowhere)."""
    from ..serve.access import token_path

    if no_token:
        return f"{url}/"
    if made:
        return f'xdg-open "{url}/?token=$(cat {token_path()})"   (or open {url}/?token=<token> in a browser)'
    return f"{url}/?token=<token>"


def _split(values: tuple[str, ...]) -> list[str]:
    """Repeated options, and an environment variable's space- or comma-separated list."""
    return [part for value in values for part in value.replace(",", " ").split() if part]
