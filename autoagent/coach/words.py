"""The coach's word lists, per language, from package data (words.toml): what a request is read by."""

from __future__ import annotations

import re
import sys
from functools import cache
from importlib.resources import files
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

LANGUAGES = ("en", "zh")
EN, ZH = ("en",), ("zh",)  # one language's words, for a pattern whose word order is that language's


@cache
def _data() -> dict[str, Any]:
    """words.toml, read once."""
    return tomllib.loads(files(__name__.rpartition('.')[0]).joinpath("words.toml").read_text(encoding="utf-8"))


def entries(key: str, language: str) -> list[Any]:
    """What `language` lists under `key` ("change.write"), as listed; empty where it lists nothing."""
    table: Any = _data().get(language, {})
    for part in key.split("."):
        table = table.get(part, {}) if isinstance(table, dict) else {}
    return table if isinstance(table, list) else []


def words(key: str, languages: tuple[str, ...] = LANGUAGES) -> tuple[str, ...]:
    """The words listed under `key` ("change.write") in every language of `languages`, in order."""
    return tuple(word for language in languages for word in entries(key, language))


def kinds(prefix: str) -> dict[str, tuple[str, ...]]:
    """The lists under `prefix` ("change"), by their last key ("write": its words in every language)."""
    names: list[str] = []
    for language in LANGUAGES:
        for name in _data().get(language, {}).get(prefix, {}):
            if name not in names:
                names.append(name)
    return {name: words(f"{prefix}.{name}") for name in names}


def phrase(word: str) -> str:
    """A regular expression for a listed word or phrase: an ASCII one matches whole words, others as written."""
    body = r"\s+".join(re.escape(part) for part in word.split())
    return rf"\b{body}\b" if word.isascii() else body


def alternation(listed: tuple[str, ...]) -> str:
    """A group matching any of `listed` (longest first, so a phrase wins over a word it starts with), to stand in
    a larger pattern; one that matches nothing when `listed` is empty."""
    return "(?:" + ("|".join(phrase(word) for word in sorted(listed, key=len, reverse=True)) or "(?!)") + ")"


def one_of(key: str, languages: tuple[str, ...] = LANGUAGES) -> str:
    """A group matching any word listed under `key` in `languages` (see `alternation`)."""
    return alternation(words(key, languages))


def any_of(listed: tuple[str, ...], flags: int = re.I) -> re.Pattern[str]:
    """One pattern matching any of `listed` (longest first, so a phrase wins over a word it starts with)."""
    return re.compile("|".join(phrase(word) for word in sorted(listed, key=len, reverse=True)), flags)
