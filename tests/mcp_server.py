"""A tiny stdio MCP server for the tests: `python tests/mcp_server.py [name]` serves add, echo, count and fail."""

from __future__ import annotations

import sys

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

server = FastMCP(sys.argv[1] if len(sys.argv) > 1 else "test", log_level="WARNING")
_calls = {"count": 0}


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Say the text back."""
    return text


@server.tool()
def count() -> int:
    """How many times this server's count was called, this one included (the session persists)."""
    _calls["count"] += 1
    return _calls["count"]


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ValueError(reason)


if __name__ == "__main__":
    server.run("stdio")
