"""Settings files: API keys and AUTOAGENT_* values from api_keys.env, below the real environment."""

from __future__ import annotations

from pathlib import Path

from .paths import autoagent_home

SETTINGS_FILE = "api_keys.env"


def load_settings_files() -> None:
    """Load ./api_keys.env, then $AUTOAGENT_HOME/api_keys.env; variables already set win."""
    for path in (Path.cwd() / SETTINGS_FILE, autoagent_home() / SETTINGS_FILE):
        if path.is_file():
            from dotenv import load_dotenv  # only when there is a file: `autoagent --help` stays quick

            load_dotenv(path, override=False)
