"""Files a run chose itself: a request that asks to move, copy or remove files it does not name ("rename them as
renames.csv says", "rename every file whose name has spaces") leaves the choice of files to the model, and nothing
in the run shows the choice was right; a small model picks wrong more often than not. So a finish after such a
call ends the run unverified, its answer shown as unsure. A file counts as named when the request gives its name,
its kind (an ending, ".md", "*.tmp", or a word for one, "the PDFs": words.toml's `file_kind`), or the folder it is
in, taken whole ("trash", "trash/*")."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from fnmatch import fnmatch

from ..action_schema import FILE_NAME, PATH_ARG
from ..reply import Action
from ..steps import Step, StopReason, ran
from .request import read_request
from .rules import Rule
from .verify import Objection, is_folder, is_pattern, mentions
from .words import kinds
from .writes import plain_path

CHOSEN_SHOWN = 5  # the chosen files named in why the run stopped, at most
_PLACE_KINDS = ("delete", "copy", "move")  # the changes that act on a file as a whole (a write is redrawn: edits.py)
_WHERE_TO = re.compile(r"dest|target|\bto\b", re.I)  # an argument that says where a file goes, not which file
_ENDING = re.compile(r"(?<![\w*])\.[A-Za-z][A-Za-z0-9]{0,9}\b")  # a kind of file the request writes out: ".md"


def object_to_chosen(task: str, steps: Sequence[Step], tools: Collection[str]) -> Objection | None:
    """Why a finish is not believed: a successful call of one of `tools` named for moving, copying or removing
    moved, copied or removed a file the request does not name (see the module). The run ends unverified."""
    movers = _movers(tools)
    given, endings = mentions(task), _kinds_named(task)
    chosen = [path for step in ran(steps) if step.success and step.action is not None and step.action.name in movers
              for path in _acted_on(step.action)
              if not _named(path, given) and not path.lower().endswith(endings)]
    if not chosen:
        return None
    return Objection(Rule.CHOSEN_FILES, {"items": ", ".join(list(dict.fromkeys(chosen))[:CHOSEN_SHOWN])},
                     ends=StopReason.UNVERIFIED)


def _movers(tools: Collection[str]) -> set[str]:
    """The tools of `tools` named for moving, copying or removing files ("move_file", "delete_file")."""
    named = kinds("change")
    words = [word for kind in _PLACE_KINDS for word in (kind, *named.get(kind, ())) if word.isascii()]
    return {name for name in tools if any(word in name.lower() for word in words)}


def _kinds_named(task: str) -> tuple[str, ...]:
    """The endings of the kinds of file the request names: written out (".md", "(.jpeg)"), or in a word for one
    ("the PDFs", "Markdown files"; not the ending of a file it names, "renames.csv")."""
    request = FILE_NAME.sub(" ", read_request(task).text)
    endings = {match.group(0).lower() for match in _ENDING.finditer(request)}
    for ending, names in kinds("file_kind").items():
        if any(re.search(rf"\b{re.escape(name)}s?\b", request, re.I) for name in names if name.isascii()):
            endings.add(f".{ending}")
    return tuple(sorted(endings))


def _acted_on(action: Action) -> list[str]:
    """The files a call moves, copies or removes: its path-like arguments that do not say where to."""
    return [plain_path(value) or "." for key, value in action.args.items()
            if isinstance(value, str) and PATH_ARG.search(key) and not _WHERE_TO.search(key)]


def _named(path: str, given: Sequence[str]) -> bool:
    """Whether the request names `path`: by a file name it holds, a kind of file it matches, or a folder it is
    (or every file of: "trash/*")."""
    lowered = path.lower()
    for item in (item.lower() for item in given):
        if is_pattern(item) and (fnmatch(lowered, f"*{item}") or item in lowered):
            return True
        if is_folder(item) and re.fullmatch(rf"(?:.*/)?{re.escape(item.rstrip('/'))}(?:/\*[^/]*)?/?", lowered):
            return True
        if not is_folder(item) and not is_pattern(item) and "." in item.strip(".0123456789") and item in lowered:
            return True
    return False
