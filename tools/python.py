"""The python tool: a snippet run in a fresh interpreter with the workspace as its working directory, under
bubblewrap (tools/sandbox.py), with limits on its time, memory, CPU time, file sizes and output."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import math
import signal
import tempfile
from pathlib import Path

from langchain_core.tools import BaseTool, tool

from .sandbox import (
    SANDBOXES,
    WORKSPACE_MOUNT,
    SandboxUnavailableError,
    bwrap_argv,
    bwrap_problem,
    clean_environment,
    interpreter,
)
from .shell import TOOLBOX_MARGIN_SECONDS, run_command
from .workspace import Workspace

PYTHON_TIMEOUT_SECONDS = 30.0
# Its start and end kept, the output and its notes fit the toolbox's 2,000 characters, which would keep the start
# only: the end (a traceback, the last value) is what matters most.
MAX_OUTPUT_CHARS = 1800
MEMORY_BYTES = 1024**3  # address space: an allocation past it raises MemoryError
FILE_BYTES = 256 * 1024**2  # the largest file the code may write
MAX_CODE_BYTES = 100_000  # the code travels as one program argument, which Linux caps at 128 KiB
_RUNNER = Path(__file__).with_name("_python_runner.py")


def _describe(output: str, code: int | None, timeout: float) -> str:
    """The observation: the output, then how the code ended unless it succeeded."""
    text = output.rstrip("\n") or "(no output)"
    if code is None:
        return f"{text}\n[timed out after {timeout:g} s; the code and everything it started were stopped]"
    if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):  # bubblewrap passes a signal on as 128 + its number
        return f"{text}\n[stopped: it used up its CPU time]"
    if code < 0:
        return f"{text}\n[killed by signal {-code}]"
    return f"{text}\n[exit code {code}]" if code else text


def make_python_tool(
    workspace: Path,
    sandbox: str = "bwrap",
    timeout: float = PYTHON_TIMEOUT_SECONDS,
    max_output_chars: int = MAX_OUTPUT_CHARS,
    memory_bytes: int = MEMORY_BYTES,
) -> BaseTool:
    """The python tool, running code in the workspace (created on first use): under bubblewrap, or with
    `sandbox="none"` as the user, unconfined. Offer it only when the user allows (--allow-python), under approval."""
    if sandbox not in SANDBOXES:
        raise ValueError(f"unknown sandbox {sandbox!r}: choose one of {', '.join(SANDBOXES)}")
    if not timeout > 0 or max_output_chars < 1 or memory_bytes < 1:
        raise ValueError("the python tool's timeout, output cap and memory limit must be positive")
    if sandbox == "bwrap" and (problem := bwrap_problem()) is not None:
        raise SandboxUnavailableError(problem)
    space, runner = Workspace(workspace), _RUNNER.read_text(encoding="utf-8")
    limits = [str(memory_bytes), str(math.ceil(timeout)), str(FILE_BYTES)]

    @tool(parse_docstring=True)
    def python(code: str) -> str:
        """Run Python code in a fresh interpreter in the workspace; return what it printed and its last value.

        Args:
            code: A Python program, one statement a line; a last expression or assignment has its value shown.
                It opens workspace files by their names, and cannot read input.
        """
        if not code.strip():
            raise ValueError("the code is empty")
        if "\0" in code or len(code.encode(errors="surrogatepass")) > MAX_CODE_BYTES:
            raise ValueError(f"the code holds a NUL character or is over {MAX_CODE_BYTES:,} bytes")
        executable, extra = interpreter()
        program = [executable, "-I", "-X", "utf8", "-u", "-c", runner, *limits, code]
        root = space.root
        if sandbox == "bwrap":
            env = clean_environment("/tmp")
            command = bwrap_argv(root, env, program, extra)
        else:
            env, command = clean_environment(tempfile.gettempdir()), program
        output, status = run_command(command, root, timeout, max_output_chars, env=env)
        return _describe(output, status, timeout)

    where = ("sandboxed: of your files it sees only the workspace (its working directory, mounted at "
             f"{WORKSPACE_MOUNT}), and it has no network" if sandbox == "bwrap" else "unsandboxed, as the user")
    python.description += (f" Code runs {where}. Only the standard library is sure to be installed. It is stopped "
                           f"after {timeout:g} s, and may use {memory_bytes / 1024**2:g} MiB of memory.")
    python.metadata = {"side_effects": True, "timeout": timeout + TOOLBOX_MARGIN_SECONDS, "sandbox": sandbox}
    return python
