"""Numbers a file states: one value, a labelled line, a total appended, a scaled list."""

from __future__ import annotations

import re
from pathlib import Path

from .reading import _lines, _read, numbers_in
from .registry import Check, register


@register
def file_number(path: str, value: float, tolerance: float) -> Check:
    """`path` states one number and no other (a unit beside it aside), within `tolerance` of `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        found = numbers_in(content)
        if len(found) == 1 and abs(found[0] - value) <= tolerance:
            return None
        return f"{path} holds {content[:60]!r}"

    return check


@register
def file_amount(path: str, value: float, tolerance: float) -> Check:
    """`path` states one number and no other (a currency sign or a unit beside it aside), within `tolerance` of
    `value` ("1,234" and "1234" alike)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        said = numbers_in(content)
        ok = len(said) == 1 and abs(said[0] - value) <= tolerance
        return None if ok else f"{path} holds {content[:60]!r}, not the one number {value:g}"

    return check


@register
def first_number_is(path: str, value: float, tolerance: float) -> Check:
    """The first number written in `path` is within `tolerance` of `value` (a unit after it aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        said = numbers_in(content)
        return None if said and abs(said[0] - value) <= tolerance else f"{path} holds {content[:60]!r}"

    return check


@register
def labelled_line(path: str, label: str, value: float, tolerance: float) -> Check:
    """`path` holds one non-blank line: `label`, a colon and one number within `tolerance` of `value` (a currency
    sign or name around it aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != 1 or not lines[0].lower().startswith(f"{label.lower()}:"):
            return f"{path} is not one line starting {label}: {content[:60]!r}"
        said = numbers_in(lines[0][len(label) + 1:])
        ok = len(said) == 1 and abs(said[0] - value) <= tolerance
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


@register
def labelled_last_line(path: str, original: list[str], label: str, value: float, tolerance: float) -> Check:
    """`path` still holds the lines `original` first, as they were, then one more line: `label`, a colon and a
    number within `tolerance` of `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if lines[:-1] != [line.strip() for line in original]:
            return f"{path} no longer holds its lines as they were: {content[:80]!r}"
        last = lines[-1] if lines else ""
        if not last.lower().startswith(f"{label.lower()}:"):
            return f"the last line of {path} is {last!r}"
        said = numbers_in(last[len(label) + 1:])
        return None if len(said) == 1 and abs(said[0] - value) <= tolerance else f"the last line of {path} is {last!r}"

    return check


@register
def total_row_appended(path: str, original: list[str], label: str, total: float) -> Check:
    """`path` still holds the lines `original` first, then one more line: `label` in the first field and `total`
    (to the cent) in the second."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if [re.sub(r"\s+", "", line) for line in lines[:-1]] != [re.sub(r"\s+", "", line) for line in original]:
            return f"{path} no longer holds its rows as they were: {content[:80]!r}"
        fields = [field.strip().strip("'\"") for field in lines[-1].split(",")]
        said = numbers_in(",".join(fields[1:]).replace(",", " "))
        ok = len(fields) == 2 and fields[0].lower() == label and len(said) == 1 and abs(said[0] - total) < 0.006
        return None if ok else f"the last line of {path} is {lines[-1]!r}"

    return check


@register
def scaled_lines(path: str, quantities: dict[str, float]) -> Check:
    """`path` has, for every ingredient in `quantities`, a line naming it whose first number is its quantity
    (case aside); other lines (a title) may stand around them."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        for name, quantity in quantities.items():
            lines = [line for line in _lines(content) if name.lower() in line.lower()]
            if len(lines) != 1:
                return f"{path} has {len(lines)} lines naming {name}: {content[:80]!r}"
            said = numbers_in(lines[0])
            if not said or abs(said[0] - quantity) > 1e-6:
                return f"{path} gives {lines[0]!r} for {name}, not {quantity:g}"
        return None

    return check


@register
def times_table(path: str, base: int, upto: int) -> Check:
    """`path` has `upto` lines of three or more numbers (a title aside), the i-th naming i and ending in base * i
    ("7 x 3 = 21")."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows = [row for row in map(numbers_in, _lines(content)) if len(row) >= 3]
        ok = len(rows) == upto and all(
            row and abs(row[-1] - base * i) < 1e-9 and any(abs(n - i) < 1e-9 for n in row[:-1])
            for i, row in enumerate(rows, start=1))
        return None if ok else f"{path} holds {content[:80]!r}"

    return check
