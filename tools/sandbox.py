"""The sandbox the python tool runs code in: bubblewrap (`bwrap`), where the workspace is the only folder it can
write, the system's programs and libraries the only others it can read, with no network and no way to outlive us."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

SANDBOXES = ("bwrap", "none")  # --python-sandbox: bubblewrap, or none (the code runs as the user, unconfined)
WORKSPACE_MOUNT = "/workspace"  # where the workspace appears inside the sandbox
TMP_BYTES = 64 * 1024 * 1024  # the sandbox's /tmp lives in memory: it holds this much at most
SHM_BYTES = 16 * 1024 * 1024  # and so does /dev/shm (multiprocessing's semaphores)
INSTALL_HINT = "sudo apt-get install bubblewrap"
PROBE_SECONDS = 10.0
# Merged-/usr systems link these into /usr; elsewhere they are folders of their own, bound read-only.
_SYSTEM_FOLDERS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs under /usr read from /etc (the linker's cache, the time zone, Debian's alternatives): no secrets.
_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives")


class SandboxUnavailableError(RuntimeError):
    """Code cannot run under bubblewrap on this machine: not installed, or it cannot start a sandbox."""


def clean_environment(home: str) -> dict[str, str]:
    """The environment code runs in: a PATH, a home, UTF-8 and the time zone; never ours (no API keys)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"}
    if "TZ" in os.environ:
        env["TZ"] = os.environ["TZ"]
    return env


def interpreter() -> tuple[str, Path | None]:
    """The Python that runs code, and the folder the sandbox must bind for it (None: it lives under /usr).

    Ours without its packages when it lives under /usr, else the system's /usr/bin/python3, else ours (a pyenv,
    conda or uv build) with its installation bound read-only."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    ours = Path(sys.base_prefix) / "bin" / version
    if not ours.exists():
        ours = Path(sys.base_prefix) / "bin" / "python3"
    system = Path("/usr/bin/python3")
    if ours.resolve().is_relative_to("/usr") and ours.exists():
        return str(ours), None
    if system.exists():
        return str(system), None
    return str(ours), Path(sys.base_prefix).resolve()


def bwrap_path() -> str | None:
    """Where bubblewrap is installed; None when it is not."""
    return shutil.which("bwrap")


def bwrap_argv(workspace: Path, env: dict[str, str], program: Sequence[str], extra: Path | None = None,
               *, writable: bool = True) -> list[str]:
    """`program` under bubblewrap: in new namespaces of every kind (so no network), with no capabilities, killed
    with its parent; /usr (and `extra`) read-only, the workspace at WORKSPACE_MOUNT (read-write unless not
    `writable`), a small /tmp and /dev/shm, nothing else writable (files it inherits open stay open)."""
    bwrap = bwrap_path()
    if bwrap is None:
        raise SandboxUnavailableError(f"bubblewrap (bwrap) is not installed ({INSTALL_HINT})")
    argv = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv"]
    for name, value in env.items():
        argv += ["--setenv", name, value]
    argv += ["--ro-bind", "/usr", "/usr"]
    for folder in _SYSTEM_FOLDERS:
        if os.path.islink(folder):
            argv += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            argv += ["--ro-bind", folder, folder]
    for path in _SYSTEM_FILES:
        argv += ["--ro-bind-try", path, path]
    if extra is not None:
        argv += ["--ro-bind", str(extra), str(extra)]
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm"]
    argv += ["--size", str(TMP_BYTES), "--tmpfs", "/tmp", "--bind" if writable else "--ro-bind", str(workspace),
             WORKSPACE_MOUNT]
    # The root and /dev are unbounded folders in memory: read-only, so that writes go to the workspace or a small one.
    argv += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", WORKSPACE_MOUNT, "--", *program]
    return argv


@functools.lru_cache(maxsize=1)
def bwrap_problem() -> str | None:
    """Why code cannot run under bubblewrap here (None: it can): not installed, or it cannot make a sandbox
    (user namespaces turned off, an old version). Tried once per process, with the arguments every run uses."""
    if bwrap_path() is None:
        return f"bubblewrap (bwrap) is not installed ({INSTALL_HINT})"
    python, extra = interpreter()
    with tempfile.TemporaryDirectory() as folder:
        argv = bwrap_argv(Path(folder), clean_environment("/tmp"), [python, "-I", "-c", "pass"], extra)
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=PROBE_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"bubblewrap cannot start a sandbox ({err})"
    if done.returncode:
        reason = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        return f"bubblewrap cannot start a sandbox here ({reason[0]})"
    return None
