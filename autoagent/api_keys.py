"""Settings files: API keys and AUTOAGENT_* values from api_keys.env, below the real environment.

The user's own $AUTOAGENT_HOME/api_keys.env may set anything. The api_keys.env of the current directory
(a cloned repository's, say) may set API keys only (`*_API_KEY`): permissions, the workspace, endpoints,
MCP servers and tool modules must not come from whatever directory the user happens to stand in.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .paths import autoagent_home

SETTINGS_FILE = "api_keys.env"
LOCAL_SUFFIX = "_API_KEY"  # what a project directory's file may set
_from_current_directory: dict[str, tuple[Path, str]] = {}  # name -> (file, value) of the keys ./api_keys.env set
_unreadable: list[str] = []  # why each settings file that is there could not be read


def is_local_setting(name: str) -> bool:
    """True for a name the current directory's api_keys.env may set: an API key, never an AUTOAGENT_* setting."""
    normal = name.strip().upper()
    return normal.endswith(LOCAL_SUFFIX) and not normal.startswith("AUTOAGENT_")


def load_settings_files() -> None:
    """Load the API keys of ./api_keys.env, then all of $AUTOAGENT_HOME/api_keys.env; variables already set win."""
    local_file, home_file = project_settings_file(), autoagent_home() / SETTINGS_FILE
    _from_current_directory.clear()
    _unreadable.clear()
    if local_file is not None:
        _load(local_file, local=True)
    if home_file.is_file():
        _load(home_file, local=False)


def project_settings_file() -> Path | None:
    """The current directory's api_keys.env (API keys only), unless there is none or it is the user's own."""
    path = Path.cwd() / SETTINGS_FILE
    return path if path.is_file() and not _same_file(path, autoagent_home() / SETTINGS_FILE) else None


def _load(path: Path, *, local: bool) -> None:
    """Set the file's variables not set yet; a local file's settings other than API keys are named and ignored."""

    from dotenv import dotenv_values  # only when there is a file: `autoagent --help` stays quick

    try:
        values = dotenv_values(path)
    except (OSError, UnicodeDecodeError) as err:
        _unreadable.append(f"the settings file {path} cannot be read ({err}), so its settings are not in force: make "
                           "it readable UTF-8, or move it away (`autoagent doctor` still runs)")
        return
    allowed = {name: value for name, value in values.items()
               if value is not None and (not local or is_local_setting(name))}
    ignored = [name for name, value in values.items() if value and name not in allowed]
    for name, value in allowed.items():
        if local and name not in os.environ:
            _from_current_directory[name] = (path, value)
        os.environ.setdefault(name, value)
    if ignored:
        print(f"autoagent: ignored {', '.join(ignored)} in {path}: the current directory's {SETTINGS_FILE} may "
              f"set API keys (*{LOCAL_SUFFIX}) only; put other settings in {home_file_hint()}, the environment "
              "or a flag", file=sys.stderr)


def unreadable_settings() -> list[str]:
    """Why each settings file that is there could not be read (the last load_settings_files); the commands refuse to
    run without the settings it would have set."""
    return list(_unreadable)


def set_by_current_directory(name: str) -> Path | None:
    """The current directory's api_keys.env when it set the variable `name` now in use; else None."""
    path, value = _from_current_directory.get(name, (None, None))
    return path if path is not None and os.environ.get(name) == value else None


def home_file_hint() -> str:
    """Where settings beyond API keys belong, as the user would type it."""
    return f"$AUTOAGENT_HOME/{SETTINGS_FILE} ({autoagent_home() / SETTINGS_FILE})"


def _same_file(first: Path, second: Path) -> bool:
    try:
        return second.is_file() and first.samefile(second)
    except OSError:
        return False
