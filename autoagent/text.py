"""Text helpers every layer uses, at the bottom of the package: shortening text to a length (the one way autoagent
cuts what it shows or sends), making it encodable as UTF-8, and showing control characters instead of obeying them."""

from __future__ import annotations

import re
from collections.abc import Callable

ELLIPSIS = "…"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls but newline and tab (ESC starts CSI/OSC sequences, CR overwrites a line), DEL, C1 controls (0x9b is
# a one-byte CSI), and the bidirectional overrides that make text read differently from what it is.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def shorten(text: str, limit: int, mark: str | Callable[[int], str] = ELLIPSIS) -> str:
    """`text` when it has at most `limit` characters; else its start, right-stripped, then `mark`: `limit`
    characters in all. A callable `mark` is given how many characters were cut and returns the mark."""
    if len(text) <= limit:
        return text
    note = mark if callable(mark) else lambda cut: mark
    kept = text[: max(limit - len(note(len(text))), 0)].rstrip()  # room for the mark at its longest
    return kept + note(len(text) - len(kept))


def encodable(text: str) -> str:
    """`text` that UTF-8 can encode: each lone surrogate (a byte of an undecodable file name, a broken
    reply) becomes U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def escape_controls(text: str) -> str:
    """`text` made safe for a terminal: each control character but newline and tab written as an escape (ESC as
    `\\x1b`), shown, never obeyed."""
    return _CONTROLS.sub(_escape, text.replace("\r\n", "\n"))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
