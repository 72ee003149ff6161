"""Shortening text to a length, the cut marked: the one way autoagent cuts what it shows or sends."""

from __future__ import annotations

from collections.abc import Callable

ELLIPSIS = "…"


def shorten(text: str, limit: int, mark: str | Callable[[int], str] = ELLIPSIS) -> str:
    """`text` when it has at most `limit` characters; else its start, right-stripped, then `mark`: `limit`
    characters in all. A callable `mark` is given how many characters were cut and returns the mark."""
    if len(text) <= limit:
        return text
    note = mark if callable(mark) else lambda cut: mark
    kept = text[: max(limit - len(note(len(text))), 0)].rstrip()  # room for the mark at its longest
    return kept + note(len(text) - len(kept))
