"""JSON files: a value, an object with its keys, a list of records."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .reading import _read
from .registry import Check, register


@register
def file_json(path: str, expected: object) -> Check:
    """`path` holds JSON whose value is `expected`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        return None if value == expected else f"{path} holds {content[:80]!r}"

    return check


@register
def json_object(path: str, keys: tuple[str, ...], at: str) -> Check:
    """`path` holds one JSON object with exactly the keys `keys`, each a non-empty text, `at` holding an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or sorted(value) != sorted(keys):
            return f"{path} does not hold one object with the keys {', '.join(keys)}: {content[:80]!r}"
        if not all(isinstance(value[key], str) and value[key].strip() for key in keys):
            return f"{path} has a value that is not a non-empty text"
        return None if "@" in value[at] else f"{path} has no @ in {at}"

    return check


@register
def json_records(path: str, count: int, fields: tuple[str, ...], at: str) -> Check:
    """`path` holds a JSON list of `count` objects, each with non-empty text in every one of `fields`, `at` holding
    an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, list) or len(value) != count:
            return f"{path} does not hold a list of {count}: {content[:80]!r}"
        for record in value:
            if not isinstance(record, dict) or not all(isinstance(record.get(f), str) and record[f].strip()
                                                       for f in fields):
                return f"{path} has a record without {', '.join(fields)}: {record!r:.80}"
            if "@" not in record[at]:
                return f"{path} has a record without an address in {at}"
        return None

    return check


@register
def json_list_is(path: str, expected: list[dict[str, str]]) -> Check:
    """`path` holds a JSON list of objects with exactly the keys and values of `expected`, in that order (values
    compared without case or surrounding blanks)."""

    def norm(value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        want = [{key: norm(item) for key, item in record.items()} for record in expected]
        got = ([{key: norm(item) for key, item in record.items()} for record in value]
               if isinstance(value, list) and all(isinstance(record, dict) for record in value) else None)
        return None if got == want else f"{path} holds {content[:80]!r}"

    return check


_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@register
def app_settings(path: str) -> Check:
    """`path` holds one JSON object with exactly the keys name (non-empty text), port (a whole number from 1024 to
    65535), debug (true or false) and admins (a list of at least two email addresses)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or set(value) != {"name", "port", "debug", "admins"}:
            return f"{path} does not hold an object with exactly name, port, debug and admins: {content[:80]!r}"
        if not isinstance(value["name"], str) or not value["name"].strip():
            return f"{path} has no name"
        port = value["port"]
        if isinstance(port, bool) or not isinstance(port, int) or not 1024 <= port <= 65535:
            return f"{path} has the port {port!r}"
        if not isinstance(value["debug"], bool):
            return f"{path} has debug {value['debug']!r}, not true or false"
        admins = value["admins"]
        ok = isinstance(admins, list) and len(admins) >= 2 and all(
            isinstance(email, str) and _EMAIL.fullmatch(email.strip()) for email in admins)
        return None if ok else f"{path} has the admins {admins!r}"

    return check


@register
def invented_record(path: str) -> Check:
    """`path` holds one JSON object with exactly the keys title, author (non-empty text), year (a whole number) and
    genres (a list of at least two non-empty strings)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, dict) or set(value) != {"title", "author", "year", "genres"}:
            return f"{path} does not have exactly the four keys: {content[:80]!r}"
        if not all(isinstance(value[key], str) and value[key].strip() for key in ("title", "author")):
            return f"{path}: title and author are not both text"
        if not isinstance(value["year"], int) or isinstance(value["year"], bool):
            return f"{path}: year is not a whole number"
        genres = value["genres"]
        if not isinstance(genres, list) or len(genres) < 2 or not all(isinstance(g, str) and g.strip() for g in genres):
            return f"{path}: genres is not a list of at least two strings"
        return None

    return check


@register
def quiz(path: str, count: int, options: int) -> Check:
    """`path` holds a JSON list of `count` objects with exactly the keys question (a text, each a different one),
    options (`options` different non-empty texts) and answer (one of its options, word for word)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        try:
            value = json.loads(content)
        except ValueError:
            return f"{path} is not JSON: {content[:60]!r}"
        if not isinstance(value, list) or len(value) != count or not all(isinstance(item, dict) for item in value):
            return f"{path} does not hold a list of {count} objects: {content[:80]!r}"
        for place, item in enumerate(value, start=1):
            if set(item) != {"question", "options", "answer"}:
                return f"question {place} of {path} has the keys {sorted(item)}"
            choices = item["options"]
            if not isinstance(item["question"], str) or not item["question"].strip():
                return f"question {place} of {path} has no question text"
            if (not isinstance(choices, list) or len(choices) != options
                    or not all(isinstance(choice, str) and choice.strip() for choice in choices)
                    or len({choice.strip().lower() for choice in choices}) != options):
                return f"question {place} of {path} does not have {options} different options"
            if item["answer"] not in choices:
                return f"the answer to question {place} of {path} is not one of its options"
        if len({" ".join(item["question"].lower().split()) for item in value}) != count:
            return f"{path} asks a question twice"
        return None

    return check
