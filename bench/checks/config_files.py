"""Configuration files: INI sections and keys, a vCard, a crontab."""

from __future__ import annotations

import configparser
import re
from collections import defaultdict
from pathlib import Path

from .reading import _lines, _read, numbers_in
from .registry import Check, register


@register
def ini_is(path: str, expected: dict[str, dict[str, str]]) -> Check:
    """`path` is an INI file with exactly the sections and keys of `expected`, each value the same text or the same
    number."""

    def same(got: str, want: str) -> bool:
        if got.strip().lower() == want.lower():
            return True
        got_numbers, want_numbers = numbers_in(got), numbers_in(want)
        return bool(want_numbers) and got_numbers == want_numbers

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(content)
        except configparser.Error:
            return f"{path} is not an INI file: {content[:60]!r}"
        got = {section: dict(parser[section]) for section in parser.sections()}
        if set(got) != set(expected) or any(set(got[s]) != set(keys) for s, keys in expected.items()):
            return f"{path} has other sections or keys: {content[:80]!r}"
        wrong = [key for s, keys in expected.items() for key, value in keys.items() if not same(got[s][key], value)]
        return f"{path} has the wrong {', '.join(wrong)}" if wrong else None

    return check


def _ini(content: str) -> dict[str, dict[str, str]] | None:
    """The sections of an INI text and their keys and values (quotes around a value aside), or None when it is not
    one."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(content)
    except configparser.Error:
        return None
    return {section: {key: value.strip().strip("'\"").strip() for key, value in parser[section].items()}
            for section in parser.sections()}


@register
def ini_like(path: str, expected: dict[str, dict[str, str]]) -> Check:
    """`path` is an INI file with exactly the sections and keys of `expected`, each value the same text (case and
    quotes aside) or the same number."""

    def same(got: str, want: str) -> bool:
        number = r"-?\d+(?:\.\d+)?"
        if re.fullmatch(number, got) and re.fullmatch(number, want):
            return float(got) == float(want)
        return got.lower() == want.lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = _ini(content)
        if got is None:
            return f"{path} is not an INI file: {content[:60]!r}"
        if set(got) != set(expected) or any(set(got[s]) != set(keys) for s, keys in expected.items()):
            return f"{path} has other sections or keys: {content[:80]!r}"
        wrong = [key for s, keys in expected.items() for key, value in keys.items() if not same(got[s][key], value)]
        return f"{path} has the wrong {', '.join(wrong)}" if wrong else None

    return check


@register
def pool_config(path: str, database: dict[str, str]) -> Check:
    """`path` is an INI file with exactly the sections database and pool: database holds the keys and values of
    `database` (case aside; other keys may stand beside them), pool holds whole numbers min_size and max_size, with
    0 < min_size < max_size."""

    def whole(value: str | None) -> int | None:
        return int(value) if value is not None and re.fullmatch(r"\d+", value) else None

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = _ini(content)
        if got is None:
            return f"{path} is not an INI file: {content[:60]!r}"
        if {section.lower() for section in got} != {"database", "pool"}:
            return f"{path} has the sections {sorted(got)}"
        sections = {section.lower(): keys for section, keys in got.items()}
        wrong = [key for key, value in database.items() if sections["database"].get(key, "").lower() != value.lower()]
        if wrong:
            return f"{path} has the wrong database {', '.join(wrong)}"
        low, high = whole(sections["pool"].get("min_size")), whole(sections["pool"].get("max_size"))
        if low is None or high is None:
            return f"{path} has no whole-number min_size and max_size in pool"
        return None if 0 < low < high else f"{path} has min_size {low} and max_size {high}"

    return check


def _unfolded(content: str) -> list[str]:
    """The lines of a vCard, its folded lines (those starting with a blank) joined to the one before."""
    lines: list[str] = []
    for line in content.splitlines():
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += line[1:]
        elif line.strip():
            lines.append(line.strip())
    return lines


@register
def vcard(path: str, given: str, family: str, phone: str, email: str, org: str) -> Check:
    """`path` is one vCard 3.0: BEGIN:VCARD first, END:VCARD last, VERSION:3.0, FN the full name, N the family name
    then the given one, a TEL with the digits of `phone`, an EMAIL `email` and an ORG starting with `org` (property
    names and their parameters case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _unfolded(content)
        if not lines or lines[0].upper() != "BEGIN:VCARD" or lines[-1].upper() != "END:VCARD":
            return f"{path} is not one vCard: {content[:60]!r}"
        props: dict[str, list[str]] = defaultdict(list)
        for line in lines[1:-1]:
            name, _, value = line.partition(":")
            props[name.split(";")[0].strip().upper()].append(value.strip())
        wanted = {"VERSION": lambda v: v == "3.0",
                  "FN": lambda v: " ".join(v.split()).lower() == f"{given} {family}".lower(),
                  "N": lambda v: [part.strip().lower() for part in v.split(";")[:2]] == [family.lower(), given.lower()],
                  "TEL": lambda v: re.sub(r"\D", "", v) == re.sub(r"\D", "", phone),
                  "EMAIL": lambda v: v.lower() == email.lower(),
                  "ORG": lambda v: v.lower().startswith(org.lower())}
        wrong = [name for name, ok in wanted.items() if not any(ok(value) for value in props.get(name, []))]
        return f"{path} lacks a right {', '.join(wrong)}" if wrong else None

    return check


@register
def crontab(path: str, entries: dict[str, tuple[set[str], ...]]) -> Check:
    """`path` is a crontab with one entry per command of `entries` and no other (comments, blank lines and
    NAME=value lines aside): each entry's five time fields are among the values `entries` allows (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = [line for line in _lines(content) if not line.startswith("#") and not re.match(r"\w+\s*=", line)]
        found: dict[str, list[str]] = {}
        for line in lines:
            fields = line.split(None, 5)
            command = fields[5].split()[0] if len(fields) == 6 else ""
            if command not in entries or command in found:
                return f"{path} has a line that is not one of the entries asked for: {line!r}"
            found[command] = [field.lower() for field in fields[:5]]
        if set(found) != set(entries):
            return f"{path} lacks an entry for {', '.join(sorted(set(entries) - set(found)))}"
        wrong = [command for command, allowed in entries.items()
                 if not all(field in ok for field, ok in zip(found[command], allowed, strict=True))]
        return f"{path} runs {', '.join(wrong)} at the wrong times" if wrong else None

    return check
