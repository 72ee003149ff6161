"""The workspace's files: written, moved, copied, deleted, kept, left as they were."""

from __future__ import annotations

import re
from pathlib import Path

from .lines import file_is_lines
from .reading import _lines, _read, numbers_in
from .registry import Check, register


@register
def file_holds(path: str, value: float | str, *, exact: bool = False) -> Check:
    """The workspace file `path` exists and holds `value` (a number it states, or a text it contains;
    `exact`: nothing else besides surrounding blanks and quotes)."""

    def check(answer: str, workspace: Path) -> str | None:
        target = workspace / path
        if not target.is_file():
            return f"{path} was not written"
        content = target.read_text(encoding="utf-8", errors="replace")
        if isinstance(value, str):
            got = content.strip().strip("'\"").strip()
            ok = got.lower() == value.lower() if exact else value.lower() in content.lower()
        else:
            ok = any(abs(number - value) < 1e-6 for number in numbers_in(content))
        return None if ok else f"{path} holds {content[:60]!r}"

    return check


@register
def moved(source: str, destination: str, content: str) -> Check:
    """`source` is gone and `destination` holds its content."""

    def check(answer: str, workspace: Path) -> str | None:
        if (workspace / source).exists():
            return f"{source} is still there"
        target = workspace / destination
        if not target.is_file() or target.read_text(encoding="utf-8") != content:
            return f"{destination} does not hold the moved file"
        return None

    return check


@register
def copied(source: str, destination: str, content: str) -> Check:
    """Both files exist and hold the original content."""

    def check(answer: str, workspace: Path) -> str | None:
        for path in (source, destination):
            target = workspace / path
            if not target.is_file() or target.read_text(encoding="utf-8") != content:
                return f"{path} does not hold the original content"
        return None

    return check


@register
def deleted(path: str, *kept: str) -> Check:
    """`path` is gone and every file in `kept` is still there."""

    def check(answer: str, workspace: Path) -> str | None:
        if (workspace / path).exists():
            return f"{path} is still there"
        lost = [name for name in kept if not (workspace / name).exists()]
        return f"also lost {', '.join(lost)}" if lost else None

    return check


@register
def kept(*paths: str) -> Check:
    """Every file in `paths` is still there."""

    def check(answer: str, workspace: Path) -> str | None:
        lost = [path for path in paths if not (workspace / path).is_file()]
        return f"lost {', '.join(lost)}" if lost else None

    return check


@register
def untouched(files: dict[str, str]) -> Check:
    """Every file in `files` is still there and holds its content as it was."""

    def check(answer: str, workspace: Path) -> str | None:
        for path, content in files.items():
            if _read(workspace, path) != content:
                return f"{path} is gone or changed"
        return None

    return check


@register
def only_files(folder: str, names: list[str]) -> Check:
    """The workspace folder `folder` holds the files `names` and nothing else."""

    def check(answer: str, workspace: Path) -> str | None:
        root = workspace / folder
        if not root.is_dir():
            return f"{folder} was not made"
        found = sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())
        return None if found == sorted(names) else f"{folder} holds {found}"

    return check


@register
def backup_then_edit(original: str, backup: str, before: str, lines: list[str]) -> Check:
    """`backup` holds `before`, the text `original` had at the start, and `original` now holds the lines `lines`."""
    edit = file_is_lines(original, lines)

    def check(answer: str, workspace: Path) -> str | None:
        content = _read(workspace, backup)
        if content is None:
            return f"{backup} was not written"
        if content.strip() != before.strip():
            return f"{backup} does not hold the text {original} had at the start"
        return edit(answer, workspace)

    return check


@register
def headed_files(files: dict[str, str]) -> Check:
    """Every path of `files` exists and its first non-blank line is a Markdown heading naming its title (case and
    blanks aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        for path, title in files.items():
            content = _read(workspace, path)
            if content is None:
                return f"{path} was not written"
            lines = _lines(content)
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*$", lines[0]) if lines else None
            if heading is None or " ".join(heading.group(1).split()).lower() != title.lower():
                return f"{path} does not start with the heading {title}: {content[:60]!r}"
        return None

    return check
