"""The shell tool: one command in the workspace directory, with a time limit and a cap on its output."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from langchain_core.tools import BaseTool, tool

from .workspace import WORKSPACE_KEY, Workspace

SHELL_TIMEOUT_SECONDS = 30.0
MAX_OUTPUT_CHARS = 4000
TOOLBOX_MARGIN_SECONDS = 5.0  # the toolbox's own limit must not fire before the shell's
DRAIN_SECONDS = 1.0  # after the command ends, how long to wait for output still in the pipe
STOP_SECONDS = 2.0  # how long the reaper may take to kill what the command started, before it is killed too
_CHUNK_BYTES = 65536
_POLL_SECONDS = 0.1
# On Linux the command runs under a reaper that kills all it started, even what left the process group.
_REAPER = Path(__file__).with_name("_reaper.py") if sys.platform.startswith("linux") else None


class _Output:
    """The first and last bytes of a stream, and how many bytes there were in all."""

    def __init__(self, limit: int) -> None:
        self.head_limit, self.tail_limit = limit - limit // 2, limit // 2
        self.head, self.tail, self.total = bytearray(), bytearray(), 0

    def add(self, chunk: bytes) -> None:
        """Keep what fits at the head, then the latest bytes at the tail."""
        self.total += len(chunk)
        room = self.head_limit - len(self.head)
        self.head += chunk[: max(room, 0)]
        rest = chunk[max(room, 0):]
        if rest and self.tail_limit:
            self.tail = (self.tail + rest)[-self.tail_limit:]

    def text(self) -> str:
        """The kept output, with a note saying how much was cut from the middle."""
        head, tail = self.head.decode(errors="replace"), self.tail.decode(errors="replace")
        cut = self.total - len(self.head) - len(self.tail)
        return f"{head}\n[... {cut:,} bytes of output cut ...]\n{tail}" if cut else head + tail


def _exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether the shell has ended, leaving it unreaped so its process group id cannot be reused yet."""
    if not hasattr(os, "waitid"):  # macOS before Python 3.13
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # already reaped
        return True


def _read(fd: int, selector: selectors.BaseSelector, output: _Output, wait: float) -> bool:
    """Read one chunk if one comes within `wait` seconds; False once the pipe is closed."""
    if not selector.select(wait):
        return True
    chunk = os.read(fd, _CHUNK_BYTES)
    output.add(chunk)
    return bool(chunk)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the command and everything it started: the reaper kills its descendants, even those in a session of
    their own; then (and without a reaper) the process group is killed."""
    if _REAPER is not None and not _exited(process):
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        while not _exited(process) and time.monotonic() < deadline:
            time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def run_command(
    command: str | Sequence[str], cwd: Path, timeout: float, max_output_chars: int, env: dict[str, str] | None = None,
    pass_fds: Sequence[int] = (),
) -> tuple[str, int | None]:
    """Run `command` (a line for /bin/sh, or a program and its arguments) in `cwd`, in `env` (None: ours), with the
    open files `pass_fds` inherited: its interleaved stdout and stderr, capped, and its exit code (None when it ran
    past `timeout` seconds). Whatever it started is stopped when it ends."""
    argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
    if _REAPER is not None:
        argv = [sys.executable, "-I", "-S", str(_REAPER), *argv]
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True, pass_fds=tuple(pass_fds),
    )
    assert process.stdout is not None
    output, fd = _Output(max_output_chars), process.stdout.fileno()
    deadline = time.monotonic() + timeout
    with process.stdout, selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        try:
            pipe_open, timed_out = True, False
            while not _exited(process):
                left = deadline - time.monotonic()
                if left <= 0:
                    timed_out = True
                    break
                if pipe_open:
                    pipe_open = _read(fd, selector, output, min(left, _POLL_SECONDS))
                else:
                    time.sleep(min(left, _POLL_SECONDS))
        finally:  # on Ctrl-C too: nothing is left running
            _stop(process)
        drained = time.monotonic() + DRAIN_SECONDS
        while pipe_open and time.monotonic() < drained:
            pipe_open = _read(fd, selector, output, max(drained - time.monotonic(), 0))
    code = process.wait()
    return output.text(), None if timed_out else code


def _describe(output: str, code: int | None, timeout: float) -> str:
    """The observation: the output, then how the command ended unless it succeeded."""
    text = output.rstrip("\n") or "(no output)"
    if code is None:
        return f"{text}\n[timed out after {timeout:g} s; the command and everything it started were stopped]"
    if code < 0:
        return f"{text}\n[killed by signal {-code}]"
    return f"{text}\n[exit code {code}]" if code else text


def make_shell_tool(
    workspace: Path, timeout: float = SHELL_TIMEOUT_SECONDS, max_output_chars: int = MAX_OUTPUT_CHARS
) -> BaseTool:
    """The shell tool, running commands in the workspace directory (created on first use). It can reach
    anything the user can: offer it only when the user allows (--allow-shell), and under approval."""
    if not timeout > 0 or max_output_chars < 1:
        raise ValueError("the shell's timeout and output cap must be positive")
    space = Workspace(workspace)

    @tool(parse_docstring=True)
    def shell(command: str) -> str:
        """Run a shell command in the workspace directory and return its output and exit code.

        Args:
            command: A command line for /bin/sh; it cannot read input.
        """
        if not command.strip():
            raise ValueError("the command is empty")
        output, code = run_command(command, space.root, timeout, max_output_chars)
        return _describe(output, code, timeout)

    shell.description += f" Commands are stopped after {timeout:g} s."
    shell.metadata = {"side_effects": True, "timeout": timeout + TOOLBOX_MARGIN_SECONDS, WORKSPACE_KEY: str(workspace)}
    return shell
