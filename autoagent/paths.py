"""Where autoagent keeps per-user state; AUTOAGENT_HOME overrides it so tests never touch ~. What it keeps
(transcripts, memory, REPL history) is readable by the user alone."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def autoagent_home() -> Path:
    """The user's autoagent directory: $AUTOAGENT_HOME, else ~/.autoagent."""
    configured = os.environ.get("AUTOAGENT_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".autoagent"


def models_dir() -> Path:
    """Where assembled model weights are cached."""
    return autoagent_home() / "models"


def private_dir(path: Path) -> Path:
    """`path`, created when missing, readable by the user alone (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(OSError):  # e.g. a folder another account owns: using it may still work
        os.chmod(path, 0o700)
    return path


def private_file(path: Path) -> Path:
    """`path`, created empty when missing, readable by the user alone (0600), also when an older version made it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)
    return path
