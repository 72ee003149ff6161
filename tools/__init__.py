"""Built-in tools: calculator, dates, sandboxed workspace files, and the web."""

from __future__ import annotations

from pathlib import Path

from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool

from .calculator import calculator
from .dates import calendar, current_datetime, make_calendar_tool, make_current_datetime_tool
from .files import file_tools
from .web import BrowserMode, web_tools
from .workspace import OutsideWorkspaceError, Workspace

__all__ = [
    "OutsideWorkspaceError",
    "Workspace",
    "calculator",
    "calendar",
    "current_datetime",
    "default_tools",
    "file_tools",
    "make_calendar_tool",
    "make_current_datetime_tool",
    "web_tools",
]


def default_tools(
    workspace: Path, embeddings: Embeddings | None = None, *, browser: BrowserMode = "auto"
) -> list[BaseTool]:
    """Every built-in tool, the file tools confined to `workspace`; the web tools too when `embeddings`
    are given (they rank a page's passages)."""
    tools = [calculator, calendar, current_datetime, *file_tools(workspace)]
    return [*tools, *web_tools(embeddings, browser=browser)] if embeddings is not None else tools
