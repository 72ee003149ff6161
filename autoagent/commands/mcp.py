"""`autoagent mcp`: the agent as a Model Context Protocol server, for editors, desktop clients and other agents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .run_options import settings_options
from .serve import access_options, served_on, tell_token

EPILOG = """\b
Tools: run_task (the agent runs a task: a progress notification per step, the answer as text, the
run's JSON report as structured content, isError where it stopped unsure; cancelling the call stops
the run, its transcript kept so that it can be resumed), and the read-only recall_memory, list_runs
and show_run.
An action with side effects asks the client through elicitation where the client offers it; where it
does not, it is refused (the agent is told why) unless the server runs with --yes. Runs go one at a
time, in --workspace, each with its transcript under $AUTOAGENT_HOME/runs/.

\b
On stdio (the default) nothing but the protocol is written to stdout. With --http the endpoint is
http://HOST:PORT/mcp (streamable HTTP), under the rules of `autoagent serve`: the bearer token (made
anew at each start and written to $AUTOAGENT_HOME/serve/token unless given), the Host header and
the Origin of a request that changes state.

\b
An editor's configuration (stdio):
  {"mcpServers": {"autoagent": {"command": "autoagent", "args": ["mcp", "--workspace", "/path/to/dir"]}}}
"""


@click.command("mcp", epilog=EPILOG, context_settings={"show_default": True})
@click.option("--http", "over_http", is_flag=True,
              help="Serve streamable HTTP at /mcp instead of stdio; --host up to --allow-origin apply to it.")
@access_options
@click.option("--workspace", type=click.Path(file_okay=False, path_type=Path), default=Path("workspace"),
              envvar="AUTOAGENT_WORKSPACE", show_envvar=True,
              help="Directory the file tools (and the shell) work in, for every task; created when needed.")
@settings_options
def mcp(over_http: bool, host: str, port: int, token: str | None, no_token: bool, allow_hosts: tuple[str, ...],
        allow_origins: tuple[str, ...], **options: Any) -> None:
    """Serve the agent as a Model Context Protocol server (stdio, or streamable HTTP with --http)."""
    from ..serve.mcp import http_app, serve_stdio
    from .run import settings_from_options

    settings = settings_from_options(options)
    if not over_http:
        serve_stdio(settings)
        return
    from ..serve.connections import serve_on

    with served_on(host, port, token, no_token, allow_hosts, allow_origins) as (sock, access, url, made):
        click.echo(f"autoagent mcp: {url}/mcp (Model Context Protocol, streamable HTTP); Ctrl-C stops", err=True)
        tell_token(no_token, made, f"{url}/mcp")
        serve_on(http_app(settings, access), sock)
