"""Self-consistency of what a run wrote: a file whose content the model worked out from what the run read (lines
sorted, reversed, filtered, renumbered, reworded) stands only when the model, shown the same results without the
write, writes that content again, line by line; a file it made up (a poem, a list of ideas, a JSON record) stands
only when the fresh drafts take its shape: as many lines, the same fields on every line of a table, the same keys
of a JSON object. Where two fresh drafts agree with each other and not with the file, the agent writes what they
agree on (a majority of three), and the next finish drafts it again. Nothing of the request is read: what is
compared is the file."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from ..acting.fence import unfenced
from ..action_schema import PATH_ARG
from ..checks import Verdict
from ..consistency import added
from ..prompts import PromptTemplateBuilder
from ..reply import Action
from ..steps import Step, ran
from .drafts import Drafts
from .writes import written_to

SAMPLES = 2  # drafts drawn beside the written content: three in all must be the same
DERIVED_SHARE = 0.5  # a content at least this share of whose words the run's reads showed was worked out from them
_FENCE = "```"
_SEPARATORS = (",", "\t", "|", ";")  # a table's fields: every line holds as many of one of these


def written(steps: Sequence[Step], writers: Sequence[str]) -> dict[str, str]:
    """The last content each file got from a call of a tool of `writers` that worked and took a text to write,
    by the file's name as the model gave it."""
    return {path: str(action.args[key]) for path, (action, key) in _writes(steps, writers).items()}


def _writes(steps: Sequence[Step], writers: Sequence[str]) -> dict[str, tuple[Action, str]]:
    """The last call that wrote a text into each file, and the argument that held the text."""
    calls: dict[str, tuple[Action, str]] = {}
    for step in ran(steps):
        action = step.action
        if not step.success or action is None or action.name not in writers:
            continue
        target = written_to(action)
        texts = {key: value for key, value in action.args.items()
                 if isinstance(value, str) and not PATH_ARG.search(key)}
        if target is not None and texts:
            calls[target] = (action, max(texts, key=lambda key: len(texts[key])))
    return calls


def derived(content: str, steps: Sequence[Step], writers: Sequence[str]) -> bool:
    """Whether `content` was worked out from what the calls that changed nothing showed: at least DERIVED_SHARE of
    its words and numbers stand in their results (a file made up from nothing, such as a poem, is not)."""
    words = added(content, "")
    if not words:
        return False
    shown: set[str] = set()
    for step in ran(steps):
        if step.success and step.action is not None and step.action.name not in writers:
            shown |= added(step.observation, "")
    return len(words & shown) >= DERIVED_SHARE * len(words)


def lines_of(content: str) -> list[str]:
    """A file's content as the lines that matter: each stripped, blank lines and a code fence around it left out."""
    lines = [line.strip() for line in content.strip().strip("\"'").splitlines()]
    if lines and lines[0].startswith(_FENCE) and lines[-1] == _FENCE:
        lines = lines[1:-1]
    return [line for line in lines if line]


def content_of(draft: str) -> str:
    """A draft as the content it gives: without surrounding blanks and a code fence around it."""
    lines = draft.strip().splitlines()
    if len(lines) > 1 and lines[0].startswith(_FENCE) and lines[-1].strip() == _FENCE:
        lines = lines[1:-1]
    return "\n".join(lines).strip("\n")


def edits_verdict(drafted: Drafts, writers: Sequence[str], prompts: PromptTemplateBuilder,
                  samples: int = SAMPLES) -> Verdict | None:
    """A verdict on the files the run wrote, each drafted `samples` times anew: None when every draft agrees with
    what was written (line by line for a file worked out from what the run read, in shape for one made up), or
    nothing was written, or the run cannot draw drafts; the agent's own write of a draft, where the drafts agree
    with each other and not with the file (the content the model gave most often; once a file, and the next finish
    drafts it again; never a copy of what a call showed); else a stop (the run ends unverified)."""
    context = drafted.context
    for path, (action, key) in _writes(context.steps, writers).items():
        content = str(action.args[key])
        worked_out = derived(content, context.steps, writers)
        same: Callable[[str, str], bool] = same_lines if worked_out else same_shape
        drafts = drafted.contents(path, samples)
        if all(same(draft, content) for draft in drafts):
            continue
        agreed = len(drafts) > 1 and bool(lines_of(drafts[0])) and all(same(draft, drafts[0]) for draft in drafts[1:])
        if agreed and not _rewritten(context.steps, path, writers) and not _as_read(drafts[0], context.steps):
            ending = "\n" if content.endswith("\n") else ""
            args = {**action.args, key: content_of(drafts[0]) + ending}
            return Verdict.run_tool(action.name, args, prompts.render("write_agreed", path=path))
        if worked_out:
            shown = " | ".join(" / ".join(lines_of(text))[:60] for text in [content, *drafts])
            return Verdict.stop(f"{path} was not written the same when the model wrote it again: {shown}")
        shapes = " | ".join(describe(shape(text)) for text in [content, *drafts])
        return Verdict.stop(f"{path} did not take the same shape when the model wrote it again: {shapes}")
    return None


def same_lines(one: str, other: str) -> bool:
    """Two contents the same, line by line (see `lines_of`)."""
    return lines_of(one) == lines_of(other)


Shape = tuple[str, ...]


def shape(content: str) -> Shape:
    """What a content is made of, whatever its words: a JSON object's keys (an array's length and its first object's
    keys), or else its number of lines, with the fields a line holds where every line is a row of one table."""
    lines = lines_of(content)
    try:
        value = json.loads("\n".join(lines))
    except ValueError:
        value = None
    if isinstance(value, dict):
        return ("object", *sorted(value))
    if isinstance(value, list):
        first = value[0] if value and isinstance(value[0], dict) else {}
        return ("array", str(len(value)), *sorted(first))
    fields = next((f"{line.count(mark) + 1} fields split by {mark!r}" for mark in _SEPARATORS for line in lines[:1]
                   if line.count(mark) and all(row.count(mark) == line.count(mark) for row in lines)), "")
    return ("lines", str(len(lines)), *([fields] if fields and len(lines) > 1 else []))


def same_shape(one: str, other: str) -> bool:
    """Two contents of the same shape (see `shape`); two lines of text agree on their fields only where both are
    tables (a poem's commas are no columns)."""
    a, b = shape(one), shape(other)
    if a[0] == b[0] == "lines" and (len(a) == 2 or len(b) == 2):
        return a[:2] == b[:2]
    return a == b


def describe(found: Shape) -> str:
    """A shape in words, for the transcript: "3 lines", "4 lines of 2 fields split by ','", "an object of age,
    name"."""
    kind, *rest = found
    if kind == "lines":
        count, *fields = rest
        return f"{count} line{'' if count == '1' else 's'}" + (f" of {fields[0]}" if fields else "")
    if kind == "array":
        return f"an array of {rest[0]}" + (f" objects of {', '.join(rest[1:])}" if rest[1:] else "")
    return f"an object of {', '.join(rest)}" if rest else "an empty object"


def _as_read(draft: str, steps: Sequence[Step]) -> bool:
    """Whether `draft` is a file's content as a call showed it: drafts that copy what was read are no edit."""
    return any(step.success and lines_of(unfenced(step.observation).rstrip()) == lines_of(draft)
               for step in ran(steps))


def _rewritten(steps: Sequence[Step], path: str, writers: Sequence[str]) -> bool:
    """Whether the agent itself already wrote `path` for a check (what the drafts agreed on)."""
    return any(step.check and step.action is not None and step.action.name in writers
               and written_to(step.action) == path for step in ran(steps))
