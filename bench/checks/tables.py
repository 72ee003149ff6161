
"""CSV files: their header and their rows, given, counted or computed."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

from .reading import _WEEKDAYS, _read, _same_field, numbers_in
from .registry import Check, register


@register
def csv_table(path: str, header: list[str], rows: int, at: str) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and `rows` data rows of as many fields,
    the field `at` of each holding an @."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows_read = csv.reader(io.StringIO(content))
        table = [[field.strip() for field in row] for row in rows_read if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != rows or any(len(row) != len(header) or not all(row) for row in body):
            return f"{path} does not hold {rows} full rows: {content[:80]!r}"
        if not all("@" in row[header.index(at)] for row in body):
            return f"{path} has a row without an address in {at}"
        return None

    return check


@register
def csv_rows_are(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    any order (fields compared without surrounding blanks)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [[field.strip() for field in row] for row in csv.reader(io.StringIO(content))
                 if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        return None if sorted(table[1:]) == sorted(rows) else f"{path} holds other rows: {content[:80]!r}"

    return check


@register
def csv_rows_like(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    any order, a number matching however many decimals it is written with."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [row for row in csv.reader(io.StringIO(content)) if any(field.strip() for field in row)]
        if not table or [field.strip().lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        left = list(rows)
        for row in table[1:]:
            match = next((want for want in left if len(want) == len(row)
                          and all(_same_field(g, w) for g, w in zip(row, want, strict=True))), None)
            if match is None:
                return f"{path} holds a row it should not: {','.join(row)!r}"
            left.remove(match)
        return f"{path} lacks {len(left)} of the rows" if left else None

    return check


@register
def csv_rows_in_order(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside) and exactly the data rows `rows`, in
    that order (fields compared without case or surrounding blanks, numbers as numbers)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [row for row in csv.reader(io.StringIO(content)) if any(field.strip() for field in row)]
        if not table or [field.strip().lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        ok = len(body) == len(rows) and all(
            len(got) == len(want) and all(_same_field(g, w) for g, w in zip(got, want, strict=True))
            for got, want in zip(body, rows, strict=True))
        return None if ok else f"{path} holds other rows or another order: {content[:80]!r}"

    return check


def _same(got: str, want: str) -> bool:
    """Two CSV fields agree: as numbers when both are numbers ("23.4" and "23.40"), else case and blanks aside."""
    got, want = got.strip(), want.strip()
    try:
        return abs(float(got.replace(",", "")) - float(want.replace(",", ""))) < 1e-6
    except ValueError:
        return got.lower() == want.lower()


def _table(content: str) -> list[list[str]]:
    """The non-blank rows of a CSV text, each field stripped."""
    return [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(content)) if any(c.strip() for c in row)]


@register
def csv_is(path: str, header: list[str], rows: list[list[str]]) -> Check:
    """`path` is a CSV file with the header `header` (case aside) and exactly the rows `rows`, in order (numbers
    compared as numbers)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        table = _table(content)
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not start with {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        ok = len(body) == len(rows) and all(
            len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want, strict=True))
            for got, want in zip(body, rows, strict=True))
        return None if ok else f"{path} holds {content[:100]!r}"

    return check


@register
def conversion_table(path: str, header: list[str], pairs: list[tuple[float, float]], tolerance: float) -> Check:
    """`path` is a CSV file with the header `header` (case aside) and one row per pair, in order: the first field the
    pair's first value, the second within `tolerance` of its second."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = _table(content)
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not start with {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != len(pairs) or any(len(row) != 2 for row in body):
            return f"{path} has {len(body)} rows, not {len(pairs)}"
        try:
            got = [(float(a), float(b)) for a, b in body]
        except ValueError:
            return f"{path} has a field that is not a number"
        for (a, b), (x, y) in zip(got, pairs, strict=True):
            if abs(a - x) > 1e-6 or abs(b - y) > tolerance:
                return f"{path} has the row {a:g},{b:g} where {x:g},{y:g} belongs"
        return None

    return check


def _rows(content: str) -> list[list[str]]:
    """The non-blank rows of a CSV text, each field stripped."""
    return [[field.strip() for field in row] for row in csv.reader(io.StringIO(content)) if any(f.strip() for f in row)]


@register
def priced_list(path: str, header: list[str], count: int) -> Check:
    """`path` is a CSV file with the header `header` (item, quantity, unit price; case aside) and `count` rows, the
    quantity a whole number and the price a number (a currency sign aside); the answer states the list's total,
    quantity times price summed, to the cent."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = _rows(content)
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != count or any(len(row) != len(header) or not row[0] for row in body):
            return f"{path} does not hold {count} full rows: {content[:80]!r}"
        total = 0.0
        for row in body:
            price = row[2].lstrip("$€£¥").strip()
            if not re.fullmatch(r"\d+", row[1]) or not re.fullmatch(r"\d+(?:\.\d+)?", price):
                return f"{path} has a row whose quantity or price is not a number: {row}"
            total += int(row[1]) * float(price)
        total = round(total, 2)
        if any(abs(number - total) < 0.011 for number in numbers_in(answer)):
            return None
        return f"answer does not state the list's total {total:.2f}"

    return check


@register
def week_rows(path: str, header: list[str]) -> Check:
    """`path` is a CSV file with the header `header` (case and blanks aside), then seven rows of as many fields, one a
    day from Monday to Sunday in order (the day's full name or its first three letters in the first field), the
    second field not empty and the last a whole number above zero."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        table = [[field.strip() for field in row] for row in csv.reader(io.StringIO(content), skipinitialspace=True)
                 if any(field.strip() for field in row)]
        if not table or [field.lower() for field in table[0]] != header:
            return f"{path} does not start with the header {','.join(header)}: {content[:60]!r}"
        body = table[1:]
        if len(body) != 7 or any(len(row) != len(header) for row in body):
            return f"{path} does not hold seven rows of {len(header)} fields: {content[:80]!r}"
        for row, day in zip(body, _WEEKDAYS, strict=True):
            if row[0].lower() not in (day, day[:3]):
                return f"{path} has {row[0]!r} where {day.title()} belongs"
            if not row[1]:
                return f"{path} leaves {day.title()} empty"
            if not re.fullmatch(r"\d+", row[-1]) or int(row[-1]) == 0:
                return f"{path} has {row[-1]!r} as {header[-1]} on {day.title()}"
        return None

    return check


@register
def word_table(path: str, counts: dict[str, int]) -> Check:
    """`path` is a CSV file with the header file,words (case aside) and one row per file of `counts`, in the order
    of `counts`: the file's name (a folder before it aside) and its word count."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        rows = csv.reader(io.StringIO(content))
        table = [[cell.strip() for cell in row] for row in rows if any(cell.strip() for cell in row)]
        if not table or [cell.lower() for cell in table[0]] != ["file", "words"]:
            return f"{path} does not start with the header file,words: {content[:60]!r}"
        got = [(row[0].replace("\\", "/").rsplit("/", 1)[-1].lower(), numbers_in(row[1])) for row in table[1:]
               if len(row) == 2]
        want = [(name.lower(), [float(count)]) for name, count in counts.items()]
        return None if got == want and len(table) == len(counts) + 1 else f"{path} holds {content[:100]!r}"

    return check


@register
def csv_column_added(path: str, header: list[str], rows: list[tuple[list[str], Decimal]]) -> Check:
    """`path` is a CSV file with the header `header` and one row per row of `rows`, in order: its first cells the
    same texts, its last cell the number given (as a number, trailing zeros aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        rows_read = csv.reader(io.StringIO(content))
        table = [[cell.strip() for cell in row] for row in rows_read if any(cell.strip() for cell in row)]
        if not table or [cell.lower() for cell in table[0]] != header:
            return f"{path} does not have the header {','.join(header)}: {content[:60]!r}"
        if len(table) != len(rows) + 1:
            return f"{path} has {len(table) - 1} rows, not {len(rows)}"
        for got, (kept, value) in zip(table[1:], rows, strict=True):
            if len(got) != len(header) or got[:-1] != kept:
                return f"{path} has the row {got}, where {kept} belongs"
            try:
                number = Decimal(got[-1])
            except ArithmeticError:
                return f"{path} has {got[-1]!r} where the number {value} belongs"
            if number != value:
                return f"{path} has {got[-1]} where {value} belongs"
        return None

    return check
