# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""A file's lines: exactly these, in this order, numbered, added to, or led by a word."""

from __future__ import annotations

import re
from pathlib import Path

from .reading import _MARKER, _WEEKDAYS, _lines, _read, numbers_in
from .registry import Check, register


@register
def file_is_lines(path: str, expected: list[str], *, ordered: bool = True, spaces: bool = True) -> Check:
    """`path` holds exactly the lines `expected` (case, blank lines and surrounding blanks aside; `spaces=False`:
    blanks inside a line aside too; `ordered=False`: in any order)."""

    def norm(line: str) -> str:
        return (line.strip() if spaces else re.sub(r"\s+", "", line)).lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got, want = [norm(line) for line in _lines(content)], [norm(line) for line in expected]
        if (got if ordered else sorted(got)) != (want if ordered else sorted(want)):
            return f"{path} holds {content[:80]!r}"
        return None

    return check


@register
def file_is_exactly(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, case included (blank lines and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        return None if _lines(content) == [line.strip() for line in expected] else f"{path} holds {content[:80]!r}"

    return check


_QUOTES = "\"'“”‘’「」"


@register
def lines_unquoted(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order (blank lines, surrounding blanks and quotes aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [line.strip(_QUOTES).strip() for line in _lines(content)]
        return None if got == expected else f"{path} holds {content[:80]!r}"

    return check


@register
def plain_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the non-blank lines `expected`, in order (case and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = [line.lower() for line in _lines(content)]
        return None if got == [line.lower() for line in expected] else f"{path} holds {content[:80]!r}"

    return check


@register
def lines_now(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order, case and leading blanks included, with no blank line
    between them (trailing blanks of a line and blank lines at the very end aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [line.rstrip() for line in content.splitlines()]
        while got and not got[-1]:
            got.pop()
        return None if got == expected else f"{path} holds {content[:80]!r}"

    return check


@register
def yaml_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the lines `expected`, in order, leading blanks included (case, quotes, trailing blanks
    and blank lines aside)."""

    def norm(line: str) -> str:
        return line.rstrip().replace('"', "").replace("'", "").lower()

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [norm(line) for line in content.splitlines() if line.strip()]
        return None if got == [norm(line) for line in expected if line.strip()] else f"{path} holds {content[:80]!r}"

    return check


@register
def counted_lines(path: str, first: int, last: int) -> Check:
    """`path` holds the numbers `first` to `last`, one a line, in order."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        got = [numbers_in(line) for line in _lines(content)]
        return None if got == [[float(n)] for n in range(first, last + 1)] else f"{path} holds {content[:60]!r}"

    return check


@register
def weekday_lines(path: str) -> Check:
    """`path` names the seven weekdays, each on a line of its own."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = [[day for day in _WEEKDAYS if day in line.lower()] for line in _lines(content)]
        days = [names[0] for names in found if len(names) == 1]
        return None if sorted(set(days)) == sorted(_WEEKDAYS) and len(days) == 7 else f"{path} holds {content[:80]!r}"

    return check


@register
def numbered_lines(path: str, items: list[str]) -> Check:
    """`path` holds exactly one line per item, in order: its number, a full stop (or 、 or a bracket) and the item."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        ok = len(lines) == len(items) and all(
            re.fullmatch(rf"{n}\s*[.、．)）]\s*{re.escape(item)}", line)
            for n, (line, item) in enumerate(zip(lines, items, strict=True), start=1))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check


@register
def numbered_notes(path: str, notes: list[tuple[int, str]]) -> Check:
    """`path` holds exactly one non-blank line per note, in order, its first number the note's line number and the
    note's text in it (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != len(notes):
            return f"{path} has {len(lines)} lines, not {len(notes)}: {content[:80]!r}"
        for line, (number, text) in zip(lines, notes, strict=True):
            said = re.search(r"\d+", line)
            if said is None or int(said.group(0)) != number or text.lower() not in line.lower():
                return f"{path} has {line!r} where line {number} with its note belongs"
        return None

    return check


@register
def lines_added(path: str, original: list[str], added: list[str]) -> Check:
    """`path` still holds the lines `original` first, in order, then exactly the lines `added`, each once, in any
    order (blank lines and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if lines[:len(original)] != original:
            return f"{path} no longer starts with its lines as they were: {content[:80]!r}"
        rest = lines[len(original):]
        return None if sorted(rest) == sorted(added) else f"{path} has {rest!r} after its old lines"

    return check


@register
def first_line_is(path: str, line: str) -> Check:
    """The first non-blank line of `path` is `line` (case and surrounding blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        ok = bool(lines) and lines[0].lower() == line.lower()
        return None if ok else f"{path} does not start with {line!r}: {content[:60]!r}"

    return check


@register
def first_word_is(path: str, word: str) -> Check:
    """The first word of `path` (quotes aside) is `word` (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        words = re.findall(r"[^\W_]+", content)
        return None if words and words[0].lower() == word.lower() else f"{path} does not start with {word}"

    return check


@register
def comma_line(path: str, values: list[int]) -> Check:
    """`path` holds a single non-blank line: `values`, in order, separated by commas (blanks and a final full stop
    aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != 1:
            return f"{path} has {len(lines)} non-blank lines, not one: {content[:60]!r}"
        parts = [part.strip() for part in lines[0].rstrip(".").split(",")]
        ok = len(parts) == len(values) and all(re.fullmatch(r"-?\d+(?:\.0+)?", part) and float(part) == value
                                               for part, value in zip(parts, values, strict=False))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check


@register
def sorted_initials(path: str, count: int) -> Check:
    """`path` holds exactly `count` non-blank lines (a leading number or bullet aside), in alphabetical order (case
    aside), each starting with a letter no other line starts with."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = [_MARKER.sub("", line).strip() for line in _lines(content)]
        if len(lines) != count or not all(line[:1].isalpha() for line in lines):
            return f"{path} does not hold {count} names: {content[:80]!r}"
        keys = [line.lower() for line in lines]
        if keys != sorted(keys):
            return f"{path} is not in alphabetical order: {content[:80]!r}"
        initials = {key[0] for key in keys}
        return None if len(initials) == count else f"two names in {path} share their first letter"

    return check


@register
def sorted_names(path: str, count: int, allowed: set[str]) -> Check:
    """`path` names `count` different entries of `allowed` (case aside), one a line, in alphabetical order."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        names = [_MARKER.sub("", line).strip().strip(".").lower() for line in _lines(content)]
        if len(names) != count or len(set(names)) != count:
            return f"{path} has {len(names)} lines ({len(set(names))} different), not {count}"
        strange = [name for name in names if name not in allowed]
        if strange:
            return f"{path} names {', '.join(strange)}"
        return None if names == sorted(names) else f"{path} is not in alphabetical order"

    return check
