"""Text from the model or a tool, made safe for a terminal: its control characters are shown, never obeyed."""

from __future__ import annotations

import re

# C0 controls but newline and tab (ESC starts CSI/OSC sequences, CR overwrites a line), DEL, C1 controls (0x9b is
# a one-byte CSI), and the bidirectional overrides that make text read differently from what it is.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    """`text` with each control character but newline and tab written as an escape (ESC as `\\x1b`)."""
    return _CONTROLS.sub(_escape, text.replace("\r\n", "\n"))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
