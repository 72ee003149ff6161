"""Untrusted text (a web page, a file's content) fenced in an observation, so that nothing in it passes for ours.

Each fence's markers carry a random tag drawn after the text was written: the text cannot close the fence,
whatever look-alike markers it holds. The note before it (fence_note.templ) is in the language of the run that
called the tool (see `quoting_in`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..prompts import PromptTemplateBuilder, english_prompts
from ..text import shorten

_TAG_BYTES = 6
# The prompts a tool called now writes its fence note from: the calling run's, set by the toolbox around each call.
_PROMPTS: ContextVar[PromptTemplateBuilder | None] = ContextVar("fence_prompts", default=None)
# The end of a fence: what a cut observation keeps, so the fence stays closed.
FENCE_END = re.compile(rf"\n[A-Z]+(?: [A-Z]+)* [0-9a-f]{{{2 * _TAG_BYTES}}}>>>\Z")


@contextmanager
def quoting_in(prompts: PromptTemplateBuilder) -> Iterator[None]:
    """Within this block, fences write their note from `prompts` (in its language)."""
    token = _PROMPTS.set(prompts)
    try:
        yield
    finally:
        _PROMPTS.reset(token)


def fence(heading: str, body: str, *, kind: str, source: str) -> str:
    """`heading`, a note naming the tag, then `body` between `<<<KIND tag` and `KIND tag>>>`."""
    tag = secrets.token_hex(_TAG_BYTES)
    note = (_PROMPTS.get() or english_prompts()).render("fence_note", source=source, tag=tag).strip()
    return f"{heading}\n{note}\n<<<{kind} {tag}\n{body}\n{kind} {tag}>>>"


def unfenced(text: str) -> str:
    """The quoted body when `text` is one fenced quote (what a tool returned), else `text`: for piping a tool's
    output into another tool, or showing it to the user, where the fence has nothing to guard."""
    try:
        return fenced_body(text) if FENCE_END.search(text) else text
    except ValueError:
        return text


def fence_tags(text: str) -> list[str]:
    """The tags of the fences `text` opens."""
    return re.findall(rf"^<<<[A-Z]+(?: [A-Z]+)* ([0-9a-f]{{{2 * _TAG_BYTES}}})$", text, re.MULTILINE)


class Quotes:
    """The tags of the fences some tools quoted text in (a run's file tools): text to be written that holds one
    copies a quote's framing, never what a file should hold."""

    def __init__(self) -> None:
        self._tags: set[str] = set()

    def keep(self, text: str) -> str:
        """`text`, a tool's result, with the tags of its fences remembered."""
        self._tags.update(fence_tags(text))
        return text

    def refuse_framing(self, content: str) -> None:
        """Raise ValueError when `content` holds the markers (or the note) of a fence remembered here."""
        if any(tag in content for tag in self._tags):
            raise ValueError("the content holds the markers a file was quoted in (the lines <<<FILE CONTENT … and "
                             "FILE CONTENT …>>>, or the note before them): write only the file's text")


def fenced_body(text: str) -> str:
    """The body of the one fence in `text` (what the fence quotes, as it was given)."""
    match = re.search(r"^<<<([A-Z ]+) ([0-9a-f]+)\n(.*)\n\1 \2>>>$", text, re.DOTALL | re.MULTILINE)
    if match is None:
        raise ValueError("no fence in the text")
    return match.group(3)


def truncate(text: str, limit: int, prompts: PromptTemplateBuilder | None = None) -> str:
    """`text` cut to `limit` characters, with a note saying how much was cut (observation_cut.templ, from
    `prompts`, English by default); a fence's end is kept after the note."""
    if len(text) <= limit:
        return text
    prompts = prompts or english_prompts()
    end = FENCE_END.search(text)
    kept = end.group() if end else ""
    body = text[: len(text) - len(kept)]
    return shorten(body, limit, lambda count: "\n" + prompts.render("observation_cut", count=str(count)).strip()) + kept
