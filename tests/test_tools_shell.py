"""The shell tool: runs in the workspace, caps its output, reports exit codes, and stops what it started."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from autoagent.acting.approval import is_read_only
from autoagent.acting.toolbox import Toolbox
from autoagent.reply import Action
from autoagent.tools import default_tools, make_shell_tool
from autoagent.tools.shell import TOOLBOX_MARGIN_SECONDS

pytestmark = pytest.mark.timeout(30)


def run(workspace: Path, command: str, **options: float) -> str:
    result = make_shell_tool(workspace, **options).invoke({"command": command})  # type: ignore[arg-type]
    assert isinstance(result, str)
    return result


def alive(pid: int) -> bool:
    """Whether a process is running (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def dies_soon(pid: int) -> bool:
    deadline = time.monotonic() + 3
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_runs_in_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    assert run(workspace, "pwd; echo made > made.txt") == str(workspace.resolve())
    assert (workspace / "made.txt").read_text() == "made\n"


def test_stdout_and_stderr_are_both_shown(tmp_path: Path) -> None:
    assert run(tmp_path, "echo out; echo err >&2; echo out again") == "out\nerr\nout again"


def test_a_non_zero_exit_code_is_reported(tmp_path: Path) -> None:
    assert run(tmp_path, "echo failing; exit 3") == "failing\n[exit code 3]"
    assert run(tmp_path, "true") == "(no output)"
    missing = run(tmp_path, "ls no-such-file")
    assert "no-such-file" in missing and missing.endswith("[exit code 2]")


def test_output_is_capped_keeping_its_start_and_end(tmp_path: Path) -> None:
    result = run(tmp_path, "seq 1 100000", max_output_chars=100)
    total = sum(len(f"{n}\n") for n in range(1, 100001))
    assert result.startswith("1\n2\n3\n") and result.endswith("99999\n100000")
    assert f"[... {total - 100:,} bytes of output cut ...]" in result
    assert len(result) < 200


def test_input_is_never_awaited(tmp_path: Path) -> None:
    started = time.monotonic()
    assert run(tmp_path, "cat; read line || echo no input") == "no input"
    assert time.monotonic() - started < 5


def test_a_timeout_stops_the_command_and_its_children(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run(tmp_path, "echo started; sleep 30 & echo $! > child.pid; wait", timeout=0.5)
    assert time.monotonic() - started < 3
    assert result == "started\n[timed out after 0.5 s; the command and everything it started were stopped]"
    assert dies_soon(int((tmp_path / "child.pid").read_text()))


def test_background_jobs_are_stopped_when_the_command_ends(tmp_path: Path) -> None:
    started = time.monotonic()
    pid = int(run(tmp_path, "sleep 30 & echo $!"))
    assert time.monotonic() - started < 3
    assert dies_soon(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the reaper needs Linux's child subreaper")
def test_processes_that_leave_the_group_or_session_are_stopped_too(tmp_path: Path) -> None:
    pids = run(tmp_path, "setsid sleep 425 & echo $!; (setsid sh -c 'sleep 426 & echo $!' &); sleep 0.2")
    assert len(pids.split()) == 2
    assert all(dies_soon(int(pid)) for pid in pids.split())
    started = time.monotonic()
    result = run(tmp_path, "setsid sleep 427 & echo $! > escaped.pid; sleep 30", timeout=0.5)
    assert time.monotonic() - started < 4 and "[timed out after 0.5 s" in result
    assert dies_soon(int((tmp_path / "escaped.pid").read_text()))


def test_exit_codes_and_signals_pass_through_the_reaper(tmp_path: Path) -> None:
    assert run(tmp_path, "exit 7") == "(no output)\n[exit code 7]"
    assert run(tmp_path, "kill -TERM $$") == "(no output)\n[killed by signal 15]"


def test_an_empty_command_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="the command is empty"):
        run(tmp_path, "  ")


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="positive"):
        make_shell_tool(tmp_path, timeout=0)
    with pytest.raises(ValueError, match="positive"):
        make_shell_tool(tmp_path, max_output_chars=0)


def test_marked_side_effecting_with_a_toolbox_limit_past_its_own(tmp_path: Path) -> None:
    shell = make_shell_tool(tmp_path, timeout=12)
    assert shell.name == "shell" and list(shell.args) == ["command"]
    assert "workspace directory" in shell.description and "stopped after 12 s" in shell.description
    assert not is_read_only(shell)
    assert Toolbox([shell], timeout=1).timeout_for(shell) == 12 + TOOLBOX_MARGIN_SECONDS


def test_the_shell_times_out_before_the_toolbox_does(tmp_path: Path) -> None:
    result = Toolbox([make_shell_tool(tmp_path, timeout=0.3)], timeout=0.1).run(
        Action(name="shell", args={"command": "echo begun; sleep 30"})
    )
    assert result.success and result.content.startswith("begun\n[timed out after 0.3 s")


def test_offered_only_when_allowed(tmp_path: Path) -> None:
    assert "shell" not in [made.name for made in default_tools(tmp_path)]
    tools = {made.name: made for made in default_tools(tmp_path, allow_shell=True, shell_timeout=7)}
    assert "stopped after 7 s" in tools["shell"].description
    assert tools["shell"].invoke({"command": "echo hi > hi.txt; cat hi.txt"}) == "hi"
    assert (tmp_path / "hi.txt").exists()
