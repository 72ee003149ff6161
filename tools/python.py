"""The python tool: a snippet run in a new interpreter with the workspace as its working directory, under
bubblewrap (tools/sandbox.py), with limits on its time, memory, CPU time, file sizes and output. Within an agent's
run, the names a snippet defines are defined again for the next one (its state is kept in an unnamed file that only
this process and the run's programs hold, gone with the run or the process however it ends); outside a run each
starts afresh."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import math
import os
import signal
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from langchain_core.tools import BaseTool, tool

from ..acting.effects import Effects, Session, current_session, writes_allowed
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
from .workspace import WORKSPACE_KEY, Workspace

PYTHON_TIMEOUT_SECONDS = 30.0
# Its start and end kept, the output and its notes fit the toolbox's 2,000 characters, which would keep the start
# only: the end (a traceback, the last value) is what matters most.
MAX_OUTPUT_CHARS = 1800
MEMORY_BYTES = 1024**3  # address space: an allocation past it raises MemoryError
FILE_BYTES = 256 * 1024**2  # the largest file the code may write
MAX_CODE_BYTES = 100_000  # the code travels as one program argument, which Linux caps at 128 KiB
_RUNNER = Path(__file__).with_name("_python_runner.py")
_LINES = Path(__file__).with_name("_python_lines.py")  # the runner imports it; in the sandbox its code stands there
_IMPORT = "from ._python_lines import split_joined"
_INLINED_FROM = "# --- from here on, written into the runner (tools/python.py) ---"
CARRIED = "names_from_earlier_programs"  # what an approval question shows beside the code: what runs with it
WRITES_REFUSED = 75  # _python_runner's exit status for code that set out to change a file in a read-only run
READ_ONLY_ERROR = "Read-only file system"  # what a program it started met (the runner sees only its own steps)
SNAPSHOT_FILES = 5000  # workspaces with more files are not compared before and after a run
MAX_NAMED = 10  # files named per kind of change


def runner_program() -> str:
    """The runner as one program for `python -c`: its text, with the code of the module it imports in place of the
    import line (the sandbox has nothing of autoagent but this text)."""
    runner, lines = _RUNNER.read_text(encoding="utf-8"), _LINES.read_text(encoding="utf-8")
    start = runner.index(_IMPORT)
    end = runner.index("\n", start) + 1
    return runner[:start] + lines[lines.index(_INLINED_FROM):] + runner[end:]


def snapshot(root: Path, limit: int = SNAPSHOT_FILES) -> dict[str, tuple[int, int]] | None:
    """Each workspace file's size and time of change, by its path in the workspace (symlinks not followed); None
    when the workspace holds more than `limit` files (too many to compare cheaply)."""
    found: dict[str, tuple[int, int]] = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            try:
                info = path.lstat()
            except OSError:
                continue
            found[path.relative_to(root).as_posix()] = (info.st_size, info.st_mtime_ns)
            if len(found) > limit:
                return None
    return found


def changes(before: dict[str, tuple[int, int]] | None,
            after: dict[str, tuple[int, int]] | None) -> tuple[str, tuple[str, ...]] | None:
    """What a run did to the workspace's files: a line for the observation (empty when nothing) and the files it
    created, changed or deleted (a move: both names); None when too many files to tell."""
    if before is None or after is None:
        return None
    created, deleted = sorted(after.keys() - before.keys()), sorted(before.keys() - after.keys())
    moved = []
    for name in list(created):  # a rename keeps the file's size and time of change
        source = next((old for old in deleted if before[old] == after[name]), None)
        if source is not None:
            moved.append(f"{source} to {name}")
            created.remove(name)
            deleted.remove(source)
    changed = sorted(name for name in after.keys() & before.keys() if after[name] != before[name])
    parts = [(label, names[:MAX_NAMED]) for label, names in (
        ("created", created), ("changed", changed), ("moved", moved), ("deleted", deleted)) if names]
    touched = (after.keys() ^ before.keys()) | set(changed)
    return "; ".join(f"{label} {', '.join(names)}" for label, names in parts), tuple(sorted(touched))


@dataclass
class _Kept:
    """What a run's programs carry over: the unnamed file they keep their names in (each program inherits it open;
    it has no name anywhere, so nothing is left behind when the process is killed), and the programs that ran without
    anyone asked (read-only) since the last one that ran with writes: the names they left are not yet approved."""

    file: IO[bytes]
    unseen: list[str] = field(default_factory=list)

    def shown(self) -> dict[str, str]:
        """For the approval question: the code behind the names the next program finds defined, none approved."""
        if not self.unseen:
            return {}
        return {CARRIED: "\n\n".join(f"# ran without asking:\n{code}" for code in self.unseen)}


class _States:
    """What each run's programs carry over (a new file per run, closed when the run is gone)."""

    def __init__(self) -> None:
        self._kept: weakref.WeakKeyDictionary[Session, _Kept] = weakref.WeakKeyDictionary()

    def of(self, run: Session) -> _Kept:
        if run not in self._kept:
            file = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the run); unlinked at once, no name left behind
            weakref.finalize(run, file.close)
            self._kept[run] = _Kept(file)
        return self._kept[run]


def _describe(output: str, code: int | None, timeout: float, changed: str = "") -> str:
    """The observation: the output, then how the code ended unless it succeeded, then the files it changed."""
    text = _ended(output, code, timeout)
    return f"{text}\n[workspace files: {changed}]" if changed else text


def _ended(output: str, code: int | None, timeout: float) -> str:
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
    `sandbox="none"` as the user, unconfined. It is side-effecting, so a toolbox with an approver asks before a
    program runs; under bubblewrap it tries read-only first (metadata `tries_read_only`): a program that only reads
    runs without asking, and one that would change a workspace file stops there, is asked about, and runs again."""
    if sandbox not in SANDBOXES:
        raise ValueError(f"unknown sandbox {sandbox!r}: choose one of {', '.join(SANDBOXES)}")
    if not timeout > 0 or max_output_chars < 1 or memory_bytes < 1:
        raise ValueError("the python tool's timeout, output cap and memory limit must be positive")
    if sandbox == "bwrap" and (problem := bwrap_problem()) is not None:
        raise SandboxUnavailableError(problem)
    space, runner, states = Workspace(workspace), runner_program(), _States()
    limits = [str(memory_bytes), str(math.ceil(timeout)), str(FILE_BYTES)]
    tries_read_only = sandbox == "bwrap"  # only a sandbox can mount the workspace read-only

    @tool(parse_docstring=True, response_format="content_and_artifact")
    def python(code: str) -> tuple[str, Effects]:
        """Run Python code in the workspace; return what it printed and its last value.

        Args:
            code: A Python program, one statement a line; a last expression or assignment has its value shown.
                It opens workspace files by their names, and cannot read input. Variables, functions and imports
                of the task's earlier programs are still defined.
        """
        if not code.strip():
            raise ValueError("the code is empty")
        if "\0" in code or len(code.encode(errors="surrogatepass")) > MAX_CODE_BYTES:
            raise ValueError(f"the code holds a NUL character or is over {MAX_CODE_BYTES:,} bytes")
        executable, extra = interpreter()
        writes = not tries_read_only or writes_allowed()
        run = current_session()
        carried = states.of(run) if run is not None else None
        kept = (carried.file.fileno(),) if carried is not None else ()  # inherited by the program, by its number
        state = str(kept[0]) if kept else ""
        program = [executable, "-I", "-X", "utf8", "-u", "-c", runner, *limits, "rw" if writes else "ro", state, code]
        root = space.root
        if sandbox == "bwrap":
            env = clean_environment("/tmp")
            command = bwrap_argv(root, env, program, extra, writable=writes)
        else:
            env, command = clean_environment(tempfile.gettempdir()), program
        before = snapshot(root) if writes else None  # a read-only mount changes nothing: no need to look
        output, status = run_command(command, root, timeout, max_output_chars, env=env, pass_fds=kept)
        shown = carried.shown() if carried is not None else {}
        if carried is not None:  # a read-only run nobody approved may leave names; one with writes was approved
            carried.unseen = [*carried.unseen, code] if not writes else []
        if not writes and (status == WRITES_REFUSED or READ_ONLY_ERROR in output):
            return "(not run: it changes workspace files)", Effects(failed=True, needs_to_write=True, also_shown=shown)
        changed = changes(before, snapshot(root)) if writes else ("", ())
        text = _describe(output, status, timeout, changed[0] if changed else "")
        return text, Effects(failed=status != 0, changed=changed[1] if changed else None)

    where = ("sandboxed: of your files it sees only the workspace (its working directory, mounted at "
             f"{WORKSPACE_MOUNT}), and it has no network" if sandbox == "bwrap" else "unsandboxed, as the user")
    python.description += (f" Code runs {where}. Only the standard library is sure to be installed. It is stopped "
                           f"after {timeout:g} s, and may use {memory_bytes / 1024**2:g} MiB of memory.")
    python.metadata = {"side_effects": True, "timeout": timeout + TOOLBOX_MARGIN_SECONDS, "sandbox": sandbox,
                       "tries_read_only": tries_read_only, WORKSPACE_KEY: str(workspace)}
    return python
