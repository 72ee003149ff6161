"""What a finish's answer says of the workspace must hold there: a file it says was changed ("The phone column has
been removed from customers.csv") was changed by a step, and a file it names as a result is in the workspace or
was moved or removed by a step. Read only for a request that asks no question: an answer to a question may well
name a file it only read ("config.json was changed last")."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path

from ..steps import Step, StopReason, ran
from .request import is_question, read_request
from .rules import Rule
from .verify import Objection
from .words import any_of, words

CLAIMED_FILES = 5  # the files of an answer looked up in the workspace, at most
_WALKED = 2000  # the workspace's files read, at most
_CHANGED = any_of(words("changed"))  # an answer's words for a change it says was made ("has been removed")
# a sentence of an answer (a file name's dot does not end one)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])|\n+")
# a file an answer names, with the folders it is in ("photos/2026-07-14-lake.jpg"), not a web address's host; in
# letters and digits that need no spaces around them (a Chinese sentence has none)
_ASCII = "[A-Za-z0-9_\\-]"
_PATH = re.compile(rf"(?<![A-Za-z0-9_.\-/@:])((?:{_ASCII}+/)*{_ASCII}+\.[A-Za-z][A-Za-z0-9]{{1,9}})(?![A-Za-z0-9_@/])"
                   rf"|(?<![\w.\-/@:])(\.[A-Za-z]{_ASCII}*(?:\.[A-Za-z]{_ASCII}*)+)(?![\w@/])")
# (the second: a name that starts with its dot, in two parts at least, ".env.example"; ".jpg" may be a kind of file)


def object_to_claims(answer: str, task: str, steps: Sequence[Step], workspace: Path | None, writers: Collection[str],
                     raised: Collection[Rule]) -> Objection | None:
    """Why a drafted answer to a request that asks no question is not taken: a sentence of it says a change was
    made (words.toml's `changed`) to files of the workspace, and no successful call of a tool that changes things
    named any of them; or it names files the workspace does not hold, which no such call named either (moved or
    removed). Said once; the second time the run ends unverified."""
    if workspace is None or not answer.strip() or any(is_question(part) for part in read_request(task).parts):
        return None
    done = " ".join(" ".join([*(str(value) for value in step.action.args.values()), step.observation])
                    for step in ran(steps) if step.success and step.action is not None and step.action.name in writers)
    held = _files(workspace)
    claimed = [path for named in _unchanged(answer, held, done) for path in named]
    claimed += [path for path in dict.fromkeys(match.group(1) or match.group(2) for match in _PATH.finditer(answer))
                if not _held(path, held) and Path(path).name not in done]
    if not claimed:
        return None
    ends = StopReason.UNVERIFIED if Rule.FILE_CLAIM in raised else None
    return Objection(Rule.FILE_CLAIM, {"answer": " ".join(answer.split())[:200],
                                           "items": ", ".join(list(dict.fromkeys(claimed))[:CLAIMED_FILES])},
                     ends=ends)


def _unchanged(answer: str, held: Collection[str], done: str) -> list[list[str]]:
    """For each sentence of `answer` that says a change was made: the workspace files it names (by their names),
    when no changing call named any of them."""
    found = []
    for sentence in _SENTENCE.split(answer):
        if not _CHANGED.search(sentence):
            continue
        named = sorted({path for path in held if _names(sentence, Path(path).name)})[:CLAIMED_FILES]
        if named and not any(Path(path).name in done for path in named):
            found.append(named)
    return found


def _names(text: str, name: str) -> bool:
    """Whether `text` names the file `name` as a whole ("notes.txt", not "notes.txt.bak" or "my-notes.txt")."""
    return re.search(rf"(?<![A-Za-z0-9_.\-/]){re.escape(name)}(?![A-Za-z0-9_\-]|\.\w)", text) is not None


def _held(path: str, held: Collection[str]) -> bool:
    """Whether the workspace holds `path`: as written from its top, or a file of that name in some folder."""
    return path in held or any(Path(item).name == Path(path).name for item in held)


def _files(workspace: Path) -> list[str]:
    """The workspace's files, as paths from its top (at most `_WALKED` of them)."""
    found: list[str] = []
    try:
        for path in workspace.rglob("*"):
            if path.is_file():
                found.append(path.relative_to(workspace).as_posix())
                if len(found) >= _WALKED:
                    break
    except OSError:  # changed while it was walked: what was read stands
        pass
    return found
