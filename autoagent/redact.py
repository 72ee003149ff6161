"""Keeping what we write safe to write: API keys and tokens become `[REDACTED]` in any string (text no UTF-8 file
accepts is made encodable by `autoagent.text.encodable`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .api_keys import SETTINGS_FILE
from .paths import autoagent_home

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6  # shorter values would blank out ordinary words and numbers
PARTIAL_SECRET_CHARS = 10  # a secret cut short (at a truncation point) is recognised by this much of its start
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
    from dotenv import dotenv_values  # here: importing this module stays cheap (`autoagent --help`)

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
        forms = {form for secret in secrets if len(secret) >= MIN_SECRET_CHARS for form in written_forms(secret)}
        # Longest first, so a secret containing another is replaced whole.
        self.secrets = sorted(forms, key=len, reverse=True)

    @classmethod
    def from_environment(cls) -> Redactor:
        """A redactor for the secrets of the current environment and api_keys.env files."""
        return cls(collect_secrets())

    def text(self, value: str) -> str:
        """`value` with every secret replaced, and the start of one cut short (by a truncation) too."""
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
            if len(secret) > PARTIAL_SECRET_CHARS and secret[:PARTIAL_SECRET_CHARS] in value:
                value = _replace_starts(value, secret)
        return value

    def settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of a settings mapping with the values of secret-named keys replaced."""
        return {key: REDACTED if is_secret_name(str(key)) and value not in (None, "") else value
                for key, value in settings.items()}

    def record(self, value: Any) -> Any:
        """A JSON-ready copy of `value` (nested dicts, lists, scalars) with every string redacted.

        Walked with a stack, not recursion: a reply nested thousands of levels deep is copied too."""
        root: list[Any] = [None]
        pending: list[tuple[Any, Any, Any]] = [(value, root, 0)]  # (value, the copy it goes into, its key there)
        while pending:
            item, parent, key = pending.pop()
            if isinstance(item, str):
                parent[key] = self.text(item)
            elif item is None or isinstance(item, (bool, int, float)):
                parent[key] = item
            elif isinstance(item, Mapping):
                copy: dict[str, Any] = {}
                parent[key] = copy
                for name, inner in item.items():
                    name = self.text(str(name))
                    copy[name] = None  # holds the key's place, so the copy keeps the order
                    pending.append((inner, copy, name))
            elif isinstance(item, (list, tuple, set, frozenset)):
                items: list[Any] = [None] * len(item)
                parent[key] = items
                pending.extend((inner, items, index) for index, inner in enumerate(item))
            else:
                parent[key] = self.text(str(item))  # anything else is written as its text, redacted too
        return root[0]


def written_forms(secret: str) -> set[str]:
    """A secret as it may be written: raw, and inside a JSON string (a `"` or `\\` escaped, `\\uXXXX` escapes)."""
    return {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}


def _replace_starts(value: str, secret: str) -> str:
    """`value` with each start of `secret` (at least PARTIAL_SECRET_CHARS of it) replaced: a secret cut short."""
    head, start = secret[:PARTIAL_SECRET_CHARS], 0
    while (start := value.find(head, start)) >= 0:
        end = start + PARTIAL_SECRET_CHARS
        while end < len(value) and end - start < len(secret) and value[end] == secret[end - start]:
            end += 1
        value = value[:start] + REDACTED + value[end:]
        start += len(REDACTED)
    return value
