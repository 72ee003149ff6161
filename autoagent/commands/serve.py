"""`autoagent serve`: the agent behind the Agent Protocol over HTTP, for other programs to drive."""

from __future__ import annotations

import ipaddress
from typing import Any

import click

from .run_options import settings_options

EPILOG = """\b
Routes (Agent Protocol v1): POST/GET /ap/v1/agent/tasks, GET /ap/v1/agent/tasks/{id},
POST/GET /ap/v1/agent/tasks/{id}/steps, GET .../steps/{step_id}, GET/POST .../artifacts,
GET .../artifacts/{artifact_id}. Each POST .../steps runs one step; a step that waits for approval
has status "running" and asks for y, n or feedback as the next step's input (--yes: no questions).
Each task has its own workspace and transcript under $AUTOAGENT_HOME/serve/tasks/<id>/ and
$AUTOAGENT_HOME/runs/; a restarted server lists its tasks and continues them. On the embedded model
the steps of several tasks queue for the one model, and a step that waited says so.
"""


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (localhost, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command("serve", epilog=EPILOG, context_settings={"show_default": True})
@click.option("--host", default="127.0.0.1", envvar="AUTOAGENT_SERVE_HOST", show_envvar=True,
              help="Address to listen on; any other than loopback needs --token.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, envvar="AUTOAGENT_SERVE_PORT", show_envvar=True,
              help="Port to listen on.")
@click.option("--token", envvar="AUTOAGENT_SERVE_TOKEN", show_envvar=True,
              help="Bearer token every request must carry (Authorization: Bearer <token>); required unless --host is "
                   "loopback.")
@settings_options
def serve(host: str, port: int, token: str | None, **options: Any) -> None:
    """Serve the agent over HTTP through the Agent Protocol (tasks, steps, artifacts)."""
    if not token and not is_loopback(host):
        raise click.UsageError(f"--host {host} reaches beyond this machine: give a --token (or AUTOAGENT_SERVE_TOKEN) "
                               "that every request must carry")
    import uvicorn

    from ..serve.app import create_app
    from .run import settings_from_options

    app = create_app(settings_from_options(options), token=token or None)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"autoagent serve: http://{shown}:{port}/ap/v1/agent/tasks (Agent Protocol v1); Ctrl-C stops", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
