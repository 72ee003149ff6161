# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""Chinese text the agent writes: characters counted per line, lines, weights in Chinese units."""

from __future__ import annotations

import re
from pathlib import Path

from .reading import _HAN, _lines, _read, numbers_in
from .registry import Check, register


def _clauses(text: str) -> int:
    """How many lines or clauses a Chinese text has (split at line ends and at Chinese or Latin punctuation)."""
    return len([part for part in re.split(r"[\n，。！？；,.!?;]", text) if part.strip()])


@register
def zh_poem(path: str, word: str, at_least: int) -> Check:
    """`path` is a Chinese text mentioning `word`, of at least `at_least` lines or clauses."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        ok = word in content and _clauses(content) >= at_least
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


@register
def zh_quatrain(path: str, per_line: int, char: str) -> Check:
    """`path` holds four lines of exactly `per_line` Chinese characters each (punctuation aside; one title line
    above them aside), `char` among them."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) == 5:
            lines = lines[1:]
        counts = [len(_HAN.findall(line)) for line in lines]
        if counts != [per_line] * 4:
            return f"{path} has lines of {counts} characters, not four of {per_line}: {content[:60]!r}"
        return None if char in "".join(lines) else f"{path} does not hold {char}"

    return check


@register
def zh_couplet(path: str, lengths: tuple[int, ...], labels: tuple[str, ...]) -> Check:
    """`path` holds exactly `len(lengths)` non-blank lines, the n-th of `lengths[n]` Chinese characters (punctuation
    and a leading label such as "上联：" aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        lines = _lines(content)
        if len(lines) != len(lengths):
            return f"{path} has {len(lines)} non-blank lines, not {len(lengths)}: {content[:60]!r}"
        label = re.compile(rf"^(?:{'|'.join(labels)})\s*[：:]\s*")
        counts = [len(_HAN.findall(label.sub("", line))) for line in lines]
        return None if tuple(counts) == lengths else f"the lines of {path} have {counts} characters, not {lengths}"

    return check


@register
def zh_length(path: str, fewest: int, most: int, *words: str) -> Check:
    """`path` holds every one of `words` and from `fewest` to `most` characters, counted either way Chinese counts
    them: the Chinese characters only, or every character but blanks."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} was not written"
        missing = [word for word in words if word not in content]
        if missing:
            return f"{path} does not mention {', '.join(missing)}"
        han, chars = len(_HAN.findall(content)), len(re.sub(r"\s", "", content))
        ok = fewest <= han <= most or fewest <= chars <= most
        return None if ok else f"{path} has {han} Chinese characters, {chars} in all"

    return check


@register
def zh_lines(path: str, expected: list[str]) -> Check:
    """`path` holds exactly the non-blank lines `expected`, in order (blanks and the width of a colon aside)."""

    def norm(line: str) -> str:
        return re.sub(r"\s+", "", line).replace(":", "：")

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        got = [norm(line) for line in _lines(content)]
        return None if got == [norm(line) for line in expected] else f"{path} holds {content[:80]!r}"

    return check


@register
def zh_weights(path: str, rows: list[tuple[str, float]], units: tuple[str, ...], old_unit: str) -> Check:
    """`path` holds one non-blank line per row, in order: it starts with the row's name, states the row's value as
    its only number, names one of `units` and no longer names `old_unit` on its own."""

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, path)
        if content is None:
            return f"{path} is not there"
        lines = _lines(content)
        if len(lines) != len(rows):
            return f"{path} has {len(lines)} lines, not {len(rows)}: {content[:80]!r}"
        for line, (name, value) in zip(lines, rows, strict=True):
            numbers = numbers_in(line)
            if (not line.startswith(name) or len(numbers) != 1 or abs(numbers[0] - value) > 1e-9
                    or not any(unit in line.lower() for unit in units) or re.search(rf"(?<!公){old_unit}", line)):
                return f"{path} has {line!r} where {name} {value:g} belongs"
        return None

    return check
