"""A question how many files of a kind the workspace holds ("How many JSON files does it have?", "有几个 .csv 文件")
is answered with the count a listing of the workspace shows for that kind ("In all: 3 files (2 .txt, 1 .md)"), not
with the count of all files: an answer that does not state it gives way to it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..steps import Step
from .request import read_request
from .verify import ran

_TALLY = re.compile(r"^In all: (\d+) files? \((?P<kinds>[^)]*)\)", re.M)  # list_files' last line
_KIND = re.compile(r"(\d+) (\.\w+)")
_FILE_LINE = re.compile(r"^(?P<name>\S.*?) \([\d,]+ bytes?\)$", re.M)
_WHOLE_WORKSPACE = {"", ".", "./"}


@dataclass(frozen=True)
class Count:
    """How many files of a kind a listing of the workspace shows, and their names."""

    ending: str
    count: int
    names: tuple[str, ...]


def asked_ending(task: str) -> str:
    """The file ending a question how many files of a kind asks about (".py" for "Python files"), or empty."""
    return read_request(task).ending


def counted(task: str, steps: Sequence[Step]) -> Count | None:
    """What the last successful listing of the whole workspace shows for the kind the question asks about."""
    ending = asked_ending(task)
    if not ending:
        return None
    for step in reversed(ran(steps)):
        listed = step.action.args.get("path", ".") if step.action is not None else None
        tally = _TALLY.search(step.observation) if step.success else None
        if tally is None or not isinstance(listed, str) or listed.strip() not in _WHOLE_WORKSPACE:
            continue
        kinds = {kind.lower(): int(count) for count, kind in _KIND.findall(tally.group("kinds"))}
        names = tuple(match.group("name") for match in _FILE_LINE.finditer(step.observation)
                      if match.group("name").lower().endswith(ending))
        return Count(ending, kinds.get(ending, 0), names)
    return None


def states_count(answer: str, count: int) -> bool:
    """Whether `answer` states `count` as a number of its own."""
    return re.search(rf"(?<![\d.]){count}(?![\d.])", answer) is not None
