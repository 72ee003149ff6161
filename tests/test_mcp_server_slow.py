"""`autoagent mcp` on the embedded model, through the official MCP client over stdio: the quick-start task comes back
right, with a progress notification per step (a property of any good run: other CPUs give other tokens)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def test_the_embedded_model_answers_through_the_mcp_server(tmp_path: Path) -> None:
    progress: list[float] = []

    async def heard(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async def main() -> Any:
        server = StdioServerParameters(command=sys.executable, env=dict(os.environ), args=[
            "-m", "autoagent", "mcp", "--model", "local", "--no-memory", "--workspace", str(tmp_path / "ws")])
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool("run_task", {"task": "What is 1234 * 5678 + 17?"},
                                           progress_callback=heard)

    result = anyio.run(main)
    report = result.structuredContent
    print(f"\n[measure] mcp on the embedded model: {report['stop_reason']}, {len(report['steps'])} steps, "
          f"{report['seconds']:.1f} s, answer {report['answer']!r}")
    assert not result.isError and "7006669" in result.content[0].text.replace(",", "")
    assert progress == [float(number) for number in range(1, len(report["steps"]) + 1)]
