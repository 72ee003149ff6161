"""Runs one program and, when it ends or on SIGTERM, kills everything it started, even what left its
process group or session (`setsid cmd &`, double forks): as a child subreaper, this process inherits every
orphan below it, so all of them stay findable in /proc.

The shell and python tools run it as `python -I -S _reaper.py PROGRAM ARGS...` (Linux only), the shell's
program being `/bin/sh -c COMMAND`; it exits as the program did.
"""

import contextlib
import ctypes
import os
import signal
import sys
import time

_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER = 1, 36


class _Stop(Exception):
    """SIGTERM: the tool gave up on the command."""


def _stop(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stop


def _descendants() -> list[int]:
    """Every process below this one."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as status:
                    parent = int(status.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                continue
            children.setdefault(parent, []).append(int(name))
    found, queue = [], [os.getpid()]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def _kill_everything() -> None:
    """SIGKILL every descendant and reap them, until no child is left (orphans keep coming back to us)."""
    while True:
        found = _descendants()
        for pid in found:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:  # none left
            return
        time.sleep(0.005)


def main(argv: list[str]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)  # the agent gone (even by kill -9): stop too
    signal.signal(signal.SIGTERM, _stop)
    child = os.fork()
    if child == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            os.execv(argv[0], argv)
        except OSError as err:  # the child must never run on as a copy of the reaper
            print(f"cannot run {argv[0]}: {err.strerror}", file=sys.stderr)
            os._exit(127)
    status = None
    with contextlib.suppress(_Stop):
        status = os.waitpid(child, 0)[1]
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _kill_everything()
    if status is None:
        os._exit(128 + signal.SIGTERM)
    if os.WIFSIGNALED(status):  # die as the program died, so the tool reports the same signal
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv[1:])
