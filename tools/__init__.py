"""Built-in tools: calculator, dates and sandboxed workspace files."""

from __future__ import annotations

from pathlib import Path

from langchain_core.tools import BaseTool

from .calculator import calculator
from .dates import calendar, current_datetime, make_calendar_tool, make_current_datetime_tool
from .files import file_tools
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
]


def default_tools(workspace: Path) -> list[BaseTool]:
    """Every built-in tool, with the file tools confined to the workspace directory."""
    return [calculator, calendar, current_datetime, *file_tools(workspace)]
