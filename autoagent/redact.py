"""Keeping secrets out of what we write: API keys and tokens become `[REDACTED]` in any string."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from .paths import autoagent_home
from .settings import SETTINGS_FILE

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6  # shorter values would blank out ordinary words and numbers
KNOWN_SECRET_NAMES = frozenset(
    {"OPENAI_API_KEY", "SERPAPI_API_KEY", "AMAP_API_KEY", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"}
)
_SECRET_NAME = re.compile(r"(^|_)(API_KEY|KEY|TOKEN|SECRET|PASSWORD)$")


def is_secret_name(name: str) -> bool:
    """True for a setting whose value must never be written: *_API_KEY, *_KEY, *_TOKEN, *_SECRET, *_PASSWORD."""
    normal = name.strip().upper().replace("-", "_")
    return normal in KNOWN_SECRET_NAMES or bool(_SECRET_NAME.search(normal))


def settings_files() -> list[Path]:
    """The api_keys.env files settings load from: ./api_keys.env and $AUTOAGENT_HOME/api_keys.env."""
    return [Path.cwd() / SETTINGS_FILE, autoagent_home() / SETTINGS_FILE]


def collect_secrets(environ: Mapping[str, str] | None = None, files: Iterable[Path] | None = None) -> frozenset[str]:
    """The values of secret-named variables in the environment and in the api_keys.env files."""
    pairs: list[tuple[str, str | None]] = list((os.environ if environ is None else environ).items())
    for path in settings_files() if files is None else files:
        if path.is_file():
            try:
                pairs.extend(dotenv_values(path).items())
            except (OSError, UnicodeDecodeError):  # unreadable: its keys were not loaded either
                continue
    return frozenset(value.strip() for name, value in pairs
                     if value and is_secret_name(name) and len(value.strip()) >= MIN_SECRET_CHARS)


class Redactor:
    """Replaces known secret values in strings, and the values of secret-named keys, anywhere in a record."""

    def __init__(self, secrets: Iterable[str]) -> None:
        # Longest first, so a secret containing another is replaced whole.
        self.secrets = sorted({secret for secret in secrets if len(secret) >= MIN_SECRET_CHARS}, key=len, reverse=True)

    @classmethod
    def from_environment(cls) -> Redactor:
        """A redactor for the secrets of the current environment and api_keys.env files."""
        return cls(collect_secrets())

    def text(self, value: str) -> str:
        """`value` with every secret replaced."""
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value

    def settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of a settings mapping with the values of secret-named keys replaced."""
        return {key: REDACTED if is_secret_name(str(key)) and value not in (None, "") else value
                for key, value in settings.items()}

    def record(self, value: Any) -> Any:
        """A JSON-ready copy of `value` (nested dicts, lists, scalars) with every string redacted."""
        if isinstance(value, str):
            return self.text(str(value))
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, Mapping):
            return {self.text(str(key)): self.record(item) for key, item in value.items()}
        if isinstance(value, (list, tuple, set, frozenset)):
            return [self.record(item) for item in value]
        return self.text(str(value))  # anything else is written as its text, redacted too
