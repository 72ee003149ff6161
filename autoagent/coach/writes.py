"""The writes a run makes: a rewrite of a file the run already wrote is questioned, and so are a calculation
written instead of its result and a file named like a folder the request names; a request that asks for a change
in the workspace is not done by reading it."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ..acting.fence import fence_tags
from ..action_schema import PATH_ARG
from ..reply import Action
from ..steps import Step, StepKind, StopReason
from .request import is_question as is_question  # a part of a request asks something: read as requests are
from .request import read_request
from .rules import Rule
from .verify import OPERAND, Objection, is_folder, mentions, ran
from .words import kinds

TARGET_ARGS = ("path", "destination", "file", "filename", "file_path")  # where a side-effecting tool writes
_COPIED_CHARS = 20  # a text this long found inside a note the run was given was copied from it
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# arithmetic standing alone, with an operator a date or a phone number does not have ("12 + 30", "271*8", "9 - 4")
_UNWORKED = re.compile(rf"\s*{OPERAND}(?:\s*(?:[+*/^\u00d7\u00f7]|\s-\s)\s*{OPERAND})+\s*")
# what each verb of change (words.toml) does, as the tool that does it is named ("delete_file" for "remove")
_KINDS = kinds("change")
_LEADING = re.compile(r"^(?:\.?/)+")  # "./", "/", "././" before a path


def object_to_rewrite(action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
    """Why a side-effecting action is questioned: it writes a file this run already wrote (a small model copies
    "Wrote 5 characters" into the file it just wrote). Asked once per file; the same action again runs."""
    if not writes:
        return None
    target = written_to(action)
    if target is None:
        return None
    for step in steps:
        if step.kind is StepKind.REJECTED and step.action is not None and written_to(step.action) == target:
            return None  # already asked: the model insists
    earlier = [step for step in ran(steps) if step.success and step.action is not None
               and written_to(step.action) == target and step.action.name == action.name]
    if not earlier:
        return None
    return Objection(Rule.REWRITE_FILE, {"path": target, "number": str(earlier[-1].number)})


def object_to_copied_note(action: Action, steps: Sequence[Step], writes: bool, task: str = "") -> Objection | None:
    """Why a side-effecting action is not run: the text it writes is what a step of this run was told about an
    action ("Wrote 4 characters to result.txt.", a note that a call was not run), or a number only such a note
    shows (the 5 of "Wrote 5 characters"), not anything the task asks for (a small model copies the last
    observation into the file it just wrote). Asked every time: it is never meant. A file's content a read
    showed may be copied."""
    if not writes or written_to(action) is None:
        return None
    told = {step.observation.strip() for step in steps if step.observation.strip() and (
        step.kind is not StepKind.ACTION or (step.action is not None and step.action.name == action.name))}
    shown = " ".join([task, *(step.observation for step in ran(steps) if step.observation.strip() not in told)])
    texts = [value.strip() for key, value in action.args.items() if isinstance(value, str) and not PATH_ARG.search(key)]
    copied = next((text for text in texts if text and any(_copied(text, note, shown) for note in told)), None)
    if copied is None:
        return None
    return Objection(Rule.COPIED_NOTE, {"path": written_to(action) or "", "text": copied[:80]})


def object_to_copied_fence(action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
    """Why a side-effecting action is not run: the text it writes holds the framing a tool's result was quoted in
    (the tag of a fence this run was shown, with the note and markers around a file's content), not the content
    alone. Asked every time: the framing is ours, never what a file should hold."""
    target = written_to(action) if writes else None
    if target is None:
        return None
    tags = {tag for step in steps for tag in fence_tags(step.observation)}
    texts = [value.lower() for key, value in action.args.items() if isinstance(value, str) and not PATH_ARG.search(key)]
    if not any(tag in text for tag in tags for text in texts):
        return None
    return Objection(Rule.COPIED_FENCE, {"path": target})


def _copied(text: str, note: str, shown: str) -> bool:
    """Whether `text` was copied from `note`: it is the note, a long part of it, or a number in it that nothing
    else `shown` (the task, the other results) holds."""
    if text == note or (len(text) >= _COPIED_CHARS and text in note):
        return True
    number = re.compile(rf"(?<![\d.]){re.escape(text)}(?![\d.])")
    return bool(_NUMBER.fullmatch(text) and number.search(note) and not number.search(shown))


def object_to_unworked_write(action: Action, steps: Sequence[Step], writes: bool) -> Objection | None:
    """Why a side-effecting action is questioned: the text it writes is a calculation, not its result ("12 + 30"
    written for "save the result of 12 plus 30"). Asked once per run; the same action again runs (the text may be
    meant)."""
    target = written_to(action)  # a tool that writes a file, not one that works out the expression it takes
    if not writes or target is None or any(step.kind is StepKind.REJECTED and step.action == action
                                           for step in steps):
        return None
    texts = [value for key, value in action.args.items() if isinstance(value, str) and not PATH_ARG.search(key)]
    unworked = next((text.strip() for text in texts if _UNWORKED.fullmatch(text)), None)
    if unworked is None:
        return None
    return Objection(Rule.UNWORKED_WRITE, {"text": unworked[:100], "path": target})


def object_to_folder_as_file(action: Action, task: str, writes: bool) -> Objection | None:
    """Why a side-effecting action is questioned: where it writes is the name of a folder the request names, made
    a file ("archive.txt" for "into the archive folder"). Asked once a run (by the referee)."""
    target = written_to(action) if writes else None
    if target is None or "/" in target or "." not in target:
        return None
    stem = target.rsplit(".", 1)[0].lower()
    folder = next((item[:-1] for item in mentions(task) if is_folder(item) and item[:-1].lower() == stem), None)
    if folder is None:
        return None
    return Objection(Rule.FOLDER_AS_FILE, {"path": target, "folder": folder})


def written_to(action: Action) -> str | None:
    """The file an action writes to, as the model named it."""
    for key in TARGET_ARGS:
        value = action.args.get(key)
        if isinstance(value, str) and value.strip():
            return plain_path(value)
    return None


def plain_path(value: str) -> str:
    """A path as the model gave it, without blanks and a leading "./" or "/" ("./notes.txt" is notes.txt); a name
    that starts with its dot keeps it (".env")."""
    return _LEADING.sub("", value.strip())


def asks_for_change(task: str) -> str:
    """The verb of change a task's request (its first paragraph) asks for, in a sentence that names a file or
    folder ("remove" in "Remove draft.md from the folder"), not in a question about one ("Which files did I
    create?"); of several, one that says more than a write ("copy" in "Put a copy of it in backup"); empty when it
    asks for none."""
    return read_request(task).change


def changer(verb: str, writers: Sequence[str]) -> str:
    """The one tool of `writers` named for what `verb` does (delete_file for "remove", move_file for "rename"),
    or empty when none or several are."""
    kind = next((kind for kind, verbs in _KINDS.items() if verb in verbs), "")
    named = [name for name in writers if kind and any(word in name.lower() for word in (kind, *_KINDS[kind])
                                                      if word.isascii())]
    return named[0] if len(named) == 1 else ""


def object_to_no_change(task: str, steps: Sequence[Step], writers: Sequence[str],
                        raised: Collection[Rule]) -> Objection | None:
    """Why finishing now is not earned: the request asks to change the workspace and no call of a tool that
    makes that change has succeeded (the one tool named for it, else any that changes things, of `writers`):
    reading draft.md does not remove it, rewriting it does not either. Said once; a second finish like it ends
    the run unverified."""
    verb = asks_for_change(task) if writers else ""
    if not verb:
        return None
    tool = changer(verb, writers)
    if any(step.success and step.action is not None and step.action.name in ((tool,) if tool else writers)
           and step.changed != () for step in ran(steps)):  # a program that changed no file made no change
        return None
    ends = StopReason.UNVERIFIED if Rule.NO_CHANGE in raised else None
    return Objection(Rule.NO_CHANGE, {"tools": tool or ", ".join(writers), "tool": tool,
                                   "items": "the request asks for a change in the workspace, and no step made one"},
                     ends=ends)
