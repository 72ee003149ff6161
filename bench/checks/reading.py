# ruff: noqa: RUF001  (Chinese punctuation, dashes and quotes, as people write them)
"""What the checks read: the numbers written in a text, a workspace file and its lines, words."""

from __future__ import annotations

import re
from pathlib import Path

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """Every number written in `text` ("7,006,669" and "177.50" included)."""
    found = []
    for match in _NUMBER.findall(text):
        try:
            found.append(float(match.replace(",", "")))
        except ValueError:
            continue
    return found


def _read(workspace: Path, path: str) -> str | None:
    """The text of a workspace file, or None when there is none."""
    target = workspace / path
    return target.read_text(encoding="utf-8", errors="replace") if target.is_file() else None


def _lines(text: str) -> list[str]:
    """The non-blank lines of `text`, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


_HAN = re.compile(r"[\u4e00-\u9fff]")


_MARKER = re.compile(r"^(?:[-*•]\s*|\d+[.)]\s*)")


_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _same_field(got: str, want: str) -> bool:
    """Two CSV fields are the same text (case and blanks aside) or the same number ("12.5" and "12.50")."""
    if got.strip().lower() == want.strip().lower():
        return True
    try:
        return abs(float(got.replace(",", "")) - float(want)) < 1e-9
    except ValueError:
        return False
