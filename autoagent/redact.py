"""Keeping what we print and write safe to show: API keys and tokens become `[REDACTED]` in any string, written as
they are or encoded (in a JSON string, base64 anywhere in a longer base64 text, hex, a URL's percent-encoding). Every
record that leaves the process (the terminal, `--json`, a batch's results, the server's replies and files,
transcripts, memory) passes through `redacted`, the redactor of the secrets in force (text no UTF-8 file accepts is
made encodable by `autoagent.text.encodable`)."""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .api_keys import SETTINGS_FILE
from .paths import autoagent_home

REDACTED = "[REDACTED]"
MIN_SECRET_CHARS = 6  # shorter values would blank out ordinary words and numbers
PARTIAL_SECRET_CHARS = 10  # a secret cut short (at a truncation point) is recognised by this much of its start
MIN_ENCODED_CHARS = 12  # a shorter piece of a secret's base64 could be any base64 text's
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
        kept = [secret for secret in secrets if len(secret) >= MIN_SECRET_CHARS]
        forms = {form for secret in kept for form in written_forms(secret) | encoded_forms(secret)}
        # Longest first, so a secret containing another is replaced whole.
        self.secrets = sorted(forms, key=len, reverse=True)
        self.cut = sorted({form for secret in kept for form in written_forms(secret)}, key=len, reverse=True)

    @classmethod
    def from_environment(cls) -> Redactor:
        """The redactor for the secrets of the current environment and api_keys.env files (`current()`)."""
        return current()

    def text(self, value: str) -> str:
        """`value` with every secret replaced, and the start of one cut short (by a truncation) too."""
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        for secret in self.cut:
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


def encoded_forms(secret: str) -> set[str]:
    """A secret as an encoding shows it: hex, percent-encoded, and base64 (standard and URL-safe), whole and as the
    run of characters it gives at each of the three places it may start in a longer base64 text (an encoded
    `user:key`, a header, a file)."""
    data = secret.encode("utf-8", "surrogatepass")
    forms = {data.hex(), data.hex().upper(), quote(secret, safe="")}
    for skipped, first in ((0, 0), (1, 2), (2, 3)):  # bytes before it in its group; the first character all its own
        encoded = base64.b64encode(b"\0" * skipped + data).decode()
        pieces = [encoded[first:(len(data) + skipped) // 3 * 4], *([encoded] if not skipped else [])]
        forms |= {form for piece in pieces for form in (piece, piece.replace("+", "-").replace("/", "_"))
                  if len(form) >= MIN_ENCODED_CHARS}
    return forms - {secret}


_cached: list[tuple[Any, Redactor]] = []  # (what the secrets were read from, the redactor of them)


def current() -> Redactor:
    """The redactor of the secrets in force now (the environment's and the api_keys.env files'), made again only
    when the environment or a file changed."""
    files = settings_files()
    key = (frozenset((name, value) for name, value in os.environ.items() if is_secret_name(name)),
           tuple((path, _stamp(path)) for path in files))
    if not _cached or _cached[0][0] != key:
        _cached[:] = [(key, Redactor(collect_secrets(files=files)))]
    return _cached[0][1]


def _stamp(path: Path) -> tuple[int, int] | None:
    """When a file last changed, and its size (None: there is none)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def redacted(value: Any) -> Any:
    """`value` (a string, or a JSON-ready record) with every secret in force replaced: what is printed or stored."""
    redactor = current()
    return redactor.text(value) if isinstance(value, str) else redactor.record(value)


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
