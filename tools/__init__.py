"""Built-in tools: calculator, dates, sandboxed workspace files, the web, and (when allowed) a shell and Python."""

from __future__ import annotations

import logging
from pathlib import Path

from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool

from .calculator import calculator
from .dates import calendar, current_datetime, make_calendar_tool, make_current_datetime_tool
from .files import file_tools
from .python import PYTHON_TIMEOUT_SECONDS, make_python_tool
from .sandbox import bwrap_problem
from .shell import SHELL_TIMEOUT_SECONDS, make_shell_tool
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
    "make_python_tool",
    "make_shell_tool",
    "web_tools",
]

logger = logging.getLogger(__name__)


def default_tools(
    workspace: Path,
    embeddings: Embeddings | None = None,
    *,
    browser: BrowserMode = "auto",
    allow_shell: bool = False,
    shell_timeout: float = SHELL_TIMEOUT_SECONDS,
    allow_python: bool = False,
    python_sandbox: str = "bwrap",
    python_timeout: float = PYTHON_TIMEOUT_SECONDS,
    allow_private_urls: bool = False,
) -> list[BaseTool]:
    """Every built-in tool, the file tools confined to `workspace`; the web tools too when `embeddings`
    are given (they rank a page's passages; public addresses only unless `allow_private_urls`); the shell,
    running in `workspace`, only when `allow_shell`; Python, in `workspace` under `python_sandbox`, only when
    `allow_python` (and, under bubblewrap, only where it can run: a warning says why not)."""
    tools = [calculator, calendar, current_datetime, *file_tools(workspace)]
    if allow_shell:
        tools.append(make_shell_tool(workspace, timeout=shell_timeout))
    problem = bwrap_problem() if allow_python and python_sandbox == "bwrap" else None
    if problem is not None:
        logger.warning("the python tool is not offered: %s; --python-sandbox none runs code unsandboxed", problem)
    elif allow_python:
        tools.append(make_python_tool(workspace, sandbox=python_sandbox, timeout=python_timeout))
    if embeddings is None:
        return tools
    return [*tools, *web_tools(embeddings, browser=browser, allow_private_urls=allow_private_urls)]
