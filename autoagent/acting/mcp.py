"""Tools from Model Context Protocol servers (`--mcp servers.json`), callable synchronously by the loop.

Each server runs for the whole process in one session, owned by a background event loop: the adapter's
tools are async-only, and a stateful server (a browser, a REPL) must see every call in the same session.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import json
import shlex
import threading
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

STARTUP_SECONDS = 30.0  # for a server to start and list its tools (npx may fetch a package first)
MCP_INSTALL_HINT = "pip install langchain-mcp-adapters"
CALL_SECONDS = 300.0  # the longest one call may take; the toolbox's own limit usually ends it first
_HTTP_TRANSPORTS = {"http": "streamable_http", "streamable-http": "streamable_http",
                    "streamable_http": "streamable_http", "sse": "sse"}


def read_mcp_config(config_path: Path) -> dict[str, dict[str, Any]]:
    """The adapter's connection for each server in a `{"mcpServers": {name: {...}}}` file."""
    path = Path(config_path).expanduser()
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigurationError(f"MCP config {path}: cannot be read ({err.strerror or err})") from None
    except ValueError as err:
        raise ConfigurationError(f"MCP config {path}: not valid JSON ({err})") from None
    servers = document.get("mcpServers") if isinstance(document, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise ConfigurationError(
            f'MCP config {path}: expected {{"mcpServers": {{"<name>": {{"command": ..., "args": [...]}}}}}}'
        )
    return {str(name): _connection(path, str(name), entry) for name, entry in servers.items()}


def _connection(path: Path, name: str, entry: Any) -> dict[str, Any]:
    """One server's entry as the adapter's stdio or HTTP connection."""
    where = f"MCP config {path}: server {name!r}"
    if not isinstance(entry, dict):
        raise ConfigurationError(f"{where} must be an object with a command or a url")
    if isinstance(entry.get("command"), str) and entry["command"]:
        args, env = entry.get("args", []), entry.get("env")
        if not isinstance(args, list) or not all(isinstance(arg, (str, int, float)) for arg in args):
            raise ConfigurationError(f"{where}: args must be a list of strings")
        if env is not None and not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
            raise ConfigurationError(f"{where}: env must map names to strings")
        connection: dict[str, Any] = {"transport": "stdio", "command": entry["command"],
                                      "args": [str(arg) for arg in args], "env": env}
        if entry.get("cwd"):
            connection["cwd"] = str(entry["cwd"])
        return connection
    if isinstance(entry.get("url"), str) and entry["url"]:
        kind = str(entry.get("transport") or entry.get("type") or "")
        transport = _HTTP_TRANSPORTS.get(kind) or ("sse" if entry["url"].rstrip("/").endswith("/sse") else "")
        if kind and kind not in _HTTP_TRANSPORTS:
            raise ConfigurationError(f"{where}: unknown transport {kind!r} (use http or sse)")
        connection = {"transport": transport or "streamable_http", "url": entry["url"]}
        if isinstance(entry.get("headers"), dict):
            connection["headers"] = {str(key): str(value) for key, value in entry["headers"].items()}
        return connection
    raise ConfigurationError(f"{where} has neither a command (stdio) nor a url (HTTP)")


class McpSessions:
    """MCP server sessions kept open on a background event loop until `close()` (or exit)."""

    def __init__(self, connections: dict[str, dict[str, Any]], *, call_seconds: float = CALL_SECONDS) -> None:
        try:
            from langchain_mcp_adapters.client import MultiServerMCPClient
        except ImportError:
            raise ConfigurationError(f"--mcp needs langchain-mcp-adapters: {MCP_INSTALL_HINT}") from None

        self.client = MultiServerMCPClient(connections)  # type: ignore[arg-type]
        self.call_seconds = call_seconds
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-sessions", daemon=True)
        self._thread.start()
        self._stop: asyncio.Event | None = None
        self._owners: list[concurrent.futures.Future[None]] = []

    def open(self, startup_seconds: float = STARTUP_SECONDS) -> dict[str, list[BaseTool]]:
        """Start every server and list its tools; a server that fails to start closes all and raises."""
        self._stop = self._submit(_make_event()).result()
        ready = {name: concurrent.futures.Future[list[Any]]() for name in self.client.connections}
        self._owners = [self._submit(self._serve(name, future)) for name, future in ready.items()]
        tools: dict[str, list[BaseTool]] = {}
        for name, future in ready.items():
            try:
                tools[name] = future.result(timeout=startup_seconds)
            except concurrent.futures.TimeoutError:
                self.close()
                raise ConfigurationError(f"MCP server {name!r} did not start within {startup_seconds:g} s") from None
            except Exception as err:
                self.close()
                raise ConfigurationError(
                    f"MCP server {name!r} failed to start: {_describe(err)}{_try_hint(self.client.connections[name])}"
                ) from None
        return tools

    def call(self, tool: BaseTool, args: dict[str, Any]) -> Any:
        """Run an adapter tool in its session and wait for its output."""
        future = self._submit(tool.ainvoke(args))
        try:
            return future.result(timeout=self.call_seconds)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"MCP tool {tool.name} gave no result within {self.call_seconds:g} s") from None

    async def acall(self, tool: BaseTool, args: dict[str, Any]) -> Any:
        """`call` for async callers."""
        return await asyncio.wait_for(asyncio.wrap_future(self._submit(tool.ainvoke(args))), self.call_seconds)

    def close(self) -> None:
        """End every session (stopping stdio servers) and the background loop; safe to call twice."""
        if not self._loop.is_running():
            return
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        _, pending = concurrent.futures.wait(self._owners, timeout=5)
        for owner in pending:  # a server that ignores the end of its session
            owner.cancel()
        concurrent.futures.wait(pending, timeout=2)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _submit(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    async def _serve(self, name: str, ready: concurrent.futures.Future[list[Any]]) -> None:
        """Open one server's session, hand over its tools, and hold the session until asked to stop."""
        from langchain_mcp_adapters.tools import load_mcp_tools

        assert self._stop is not None
        try:
            async with self.client.session(name) as session:
                # Errors raise (ToolException), so the toolbox reports a failed call to the model.
                tools = await load_mcp_tools(session, server_name=name, handle_tool_errors=False)
                ready.set_result(tools)
                await self._stop.wait()
        except BaseException as err:
            if not ready.done():
                ready.set_exception(err if isinstance(err, Exception) else RuntimeError(repr(err)))
            if not isinstance(err, Exception):
                raise


async def _make_event() -> asyncio.Event:
    """An Event created on the background loop."""
    return asyncio.Event()


def _describe(err: BaseException) -> str:
    """One line for a start-up failure, looking inside exception groups for the real cause."""
    while getattr(err, "exceptions", None):  # an ExceptionGroup from the transport's task group
        err = err.exceptions[0]  # type: ignore[attr-defined]
    text = " ".join(str(err).split()) or "the server closed the connection"
    return f"{type(err).__name__}: {text}"


def _try_hint(connection: Any) -> str:
    """For a stdio server, the command line to run by hand to see why it stops."""
    if connection.get("transport") != "stdio":
        return f" (is {connection.get('url')} up?)"
    return f" (run it by hand to see why: {shlex.join([connection['command'], *connection['args']])})"


def tool_output_text(output: Any) -> str:
    """An MCP tool's content (a string, or text/image/file blocks) as the text the model reads."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        parts = []
        for block in output:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, dict):
                parts.append(f"[{block.get('type', 'content')}: {block.get('url') or block.get('mime_type') or ''}]")
            else:
                parts.append(str(block))
        return "\n".join(parts)
    return str(getattr(output, "content", output))


def synchronous_tool(tool: BaseTool, sessions: McpSessions, server: str, name: str | None = None) -> BaseTool:
    """The adapter's async-only tool as one that also runs synchronously (from any thread), marked
    read-only only when the server's annotations say readOnlyHint."""
    from langchain_core.tools import StructuredTool

    def run(**kwargs: Any) -> str:
        return tool_output_text(sessions.call(tool, kwargs))

    async def arun(**kwargs: Any) -> str:
        return tool_output_text(await sessions.acall(tool, kwargs))

    annotations = dict(tool.metadata or {})
    return StructuredTool(
        name=name or tool.name,
        description=tool.description or f"{tool.name} from the MCP server {server!r}",
        args_schema=tool.args_schema,
        func=run,
        coroutine=arun,
        metadata={**annotations, "read_only": annotations.get("readOnlyHint") is True, "mcp_server": server},
    )


_OPEN: list[McpSessions] = []


def load_mcp_tools(
    config_path: Path, *, startup_seconds: float = STARTUP_SECONDS, call_seconds: float = CALL_SECONDS
) -> list[BaseTool]:
    """Start the servers an `mcpServers` JSON file lists and return their tools; a name two servers share
    is prefixed with the server's name (`server_tool`). The servers stop at exit or `close_mcp_servers()`."""
    connections = read_mcp_config(config_path)
    sessions = McpSessions(connections, call_seconds=call_seconds)
    by_server = sessions.open(startup_seconds)
    _OPEN.append(sessions)
    counts = Counter(tool.name for tools in by_server.values() for tool in tools)
    return [
        synchronous_tool(tool, sessions, server, f"{server}_{tool.name}" if counts[tool.name] > 1 else None)
        for server, tools in by_server.items()
        for tool in tools
    ]


def close_mcp_servers() -> None:
    """Stop every MCP server this process started."""
    while _OPEN:
        _OPEN.pop().close()


atexit.register(close_mcp_servers)
