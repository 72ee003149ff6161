"""`autoagent mcp`: the agent as a Model Context Protocol server, built on the official `mcp` SDK (FastMCP), on stdio
for editors and desktop clients or on streamable HTTP behind the same access rules as `autoagent serve`.

Tools: `run_task` runs a task (one progress notification per step, from the run's event stream; the answer as text,
the `--json` report as structured content, `isError` for a run that did not finish; cancelled, the run stops as
Ctrl-C stops it, its transcript kept and resumable), and the read-only `recall_memory`, `list_runs` and `show_run`.
A side effect asks the client through elicitation where it offers it; where it does not, it is refused (the model
reads why) unless the server was started with --yes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import TYPE_CHECKING, Any

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, ClientCapabilities, ElicitationCapability, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from ..acting.approval import ALLOWED, DENIED, Approver, Verdict, show_args
from ..events import RunObserver
from ..redact import redacted
from ..run_json import run_to_json
from ..text import shorten
from . import readers
from .access import Access, AccessGuard
from .limits import BodyLimit, Limits

if TYPE_CHECKING:
    from ..run_events import RunEvent
    from ..settings import Agent, Settings

NO_CLIENT = Verdict(False, "approval_no_client")  # no elicitation, no --yes: the model reads why
INSTRUCTIONS = ("An autonomous agent (autoagent): give run_task a whole task; it uses its own tools (files in its "
                "workspace, a calculator, the date, the web) and answers, or says it is unsure. recall_memory, "
                "list_runs and show_run read what earlier runs left.")


class ApprovalAnswer(BaseModel):
    """What the client is asked for an action with side effects."""

    allow: bool = Field(description="Let the agent run this action")
    feedback: str = Field("", description="Where not allowed: what the agent should do instead (optional)")


class ElicitingApprover(Approver):
    """Asks the MCP client (elicitation) from the run's thread, and waits on the server's event loop for the answer;
    a client that cannot be asked gets its side effects refused, unless the server runs with --yes."""

    def __init__(self, auto_approve: bool, ctx: Context[Any, Any, Any], loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(auto_approve=auto_approve)
        self.ctx, self.loop = ctx, loop
        self.can_ask = ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability()))
        self.pending: concurrent.futures.Future[Any] | None = None

    def ask(self, tool_name: str, args: dict[str, Any]) -> Verdict:
        if not self.can_ask:
            return NO_CLIENT
        message = f"autoagent wants to run {tool_name} with these arguments:\n{show_args(redacted(args))}\nAllow it?"
        self.pending = asyncio.run_coroutine_threadsafe(self.ctx.elicit(message, ApprovalAnswer), self.loop)
        try:
            answer = self.pending.result()
        except concurrent.futures.CancelledError:  # the call was cancelled while it waited: the run stops
            raise KeyboardInterrupt from None
        if answer.action != "accept" or answer.data is None:
            return DENIED
        if answer.data.allow:
            return ALLOWED
        return Verdict(False, "approval_feedback", answer.data.feedback) if answer.data.feedback else DENIED

    def cancel(self) -> None:
        """The call was cancelled: a question still open is dropped."""
        if self.pending is not None:
            self.pending.cancel()


class _Progress(RunObserver):
    """Hands each completed step (of the run itself, not a sub-agent's) to the event loop as a progress note."""

    def __init__(self, report: Any) -> None:
        self.report = report

    def on_event(self, event: RunEvent) -> None:
        if event.type == "step_completed" and not event.agents:
            self.report(event)


def progress_message(event: Any) -> str:
    """One line for a step: `step 2: calculator {"expression": "6*7"} -> 42`."""
    action = event.action or {}
    arguments = json.dumps(action.get("args", {}), ensure_ascii=False)
    call = f"{action.get('name', '?')} {shorten(arguments, 80)}" if action else event.kind
    return redacted(f"step {event.step}: {call} -> {shorten(event.observation.strip(), 120)}")


class McpAgent:
    """The agent behind the server: built once (the embedded model loads once), one run at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._agent: Agent | None = None
        self._lock = asyncio.Lock()

    def agent(self) -> Agent:
        if self._agent is None:
            from ..settings import build_agent

            self._agent = build_agent(self.settings)
        return self._agent

    async def run(self, task: str, ctx: Context[Any, Any, Any]) -> CallToolResult:
        """Run `task`, its steps reported as progress; a cancelled call stops the run (kept, resumable)."""
        from ..errors import AutoAgentError
        from ..loop.streaming import aexecute
        from ..transcripts.writer import TranscriptWriter

        limit = Limits().input_chars
        if len(task) > limit:  # as serve refuses an input this long
            return CallToolResult(content=[TextContent(type="text", text=f"the task has {len(task):,} characters; "
                                                                         f"at most {limit:,} are taken")],
                                  isError=True)
        async with self._lock:
            loop = asyncio.get_running_loop()
            agent = await asyncio.to_thread(self.agent)
            approver = ElicitingApprover(self.settings.yes, ctx, loop)
            agent.toolbox.approver = approver
            steps = max(self.settings.max_steps, 1)

            def report(event: Any) -> None:  # from the run's thread: the note is sent by the event loop
                asyncio.run_coroutine_threadsafe(ctx.report_progress(event.step, steps, progress_message(event)), loop)

            observers = [TranscriptWriter(self.settings.to_record()), _Progress(report)]
            try:
                run = await aexecute(agent, task, {"observers": observers}, on_cancel=approver.cancel)
            except AutoAgentError as err:  # the model or a service failed: the client reads why
                return CallToolResult(content=[TextContent(type="text", text=f"the run failed: {err}")], isError=True)
            return result_of(run)


def result_of(run: Any) -> CallToolResult:
    """A run as the tool's result: its answer (with why it stopped, where it did), the --json report as structured
    content, and isError where it did not finish."""
    report = redacted(run_to_json(run))
    text = run.answer if run.finished else f"{run.answer}\n\n(unsure: {run.describe_stop()}; run {run.run_id})"
    return CallToolResult(content=[TextContent(type="text", text=redacted(text).strip())], structuredContent=report,
                          isError=not run.finished)


def create_server(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> FastMCP:
    """The MCP server of the agent `settings` describe."""
    server = FastMCP("autoagent", instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING",
                     transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    backing = McpAgent(settings)

    @server.tool(annotations=ToolAnnotations(title="Run a task", readOnlyHint=False, openWorldHint=True))
    async def run_task(task: str, ctx: Context[Any, Any, Any]) -> CallToolResult:
        """Give the agent a whole task, with every detail it needs; it works in steps with its own tools and
        answers (isError: it stopped unsure; the report says why). Each step is a progress notification."""
        return await backing.run(task, ctx)

    @server.tool(annotations=ToolAnnotations(title="Recall memories", readOnlyHint=True))
    async def recall_memory(query: str, k: int = 5) -> dict[str, Any]:
        """The long-term memories of earlier runs nearest to `query`, best first (what a run of it would recall)."""
        return await asyncio.to_thread(readers.recall, settings, query, k)

    @server.tool(annotations=ToolAnnotations(title="List runs", readOnlyHint=True))
    async def list_runs(limit: int = 20) -> dict[str, Any]:
        """The newest runs: id, when, task, status and steps."""
        return await asyncio.to_thread(readers.runs, limit)

    @server.tool(annotations=ToolAnnotations(title="Show a run", readOnlyHint=True))
    async def show_run(run_id: str) -> dict[str, Any]:
        """One run whole from its transcript: task, status, every step, the answer (any unique prefix of an id)."""
        return await asyncio.to_thread(readers.run, run_id, False)

    return server


def serve_stdio(settings: Settings) -> None:
    """Serve on stdin and stdout until the client closes them."""
    create_server(settings).run("stdio")


def http_app(settings: Settings, access: Access, limits: Limits | None = None) -> AccessGuard:
    """The streamable HTTP app (at /mcp), behind the token, Host, Origin and size rules of `autoagent serve`."""
    return AccessGuard(BodyLimit(create_server(settings).streamable_http_app(), limits or Limits()), access)


__all__ = ["ElicitingApprover", "create_server", "http_app", "serve_stdio"]
