"""Where autoagent keeps per-user state; AUTOAGENT_HOME overrides it so tests never touch ~."""

from __future__ import annotations

import os
from pathlib import Path


def autoagent_home() -> Path:
    """The user's autoagent directory: $AUTOAGENT_HOME, else ~/.autoagent."""
    configured = os.environ.get("AUTOAGENT_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".autoagent"


def models_dir() -> Path:
    """Where assembled model weights are cached."""
    return autoagent_home() / "models"
