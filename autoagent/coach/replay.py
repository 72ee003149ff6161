"""Self-consistency of what a run did to the workspace: where the run's python programs worked, the model writes a
program that does the whole task anew (two are drawn, each at a temperature with its own seed, without the run's
programs in sight), each runs in a scratch copy of the workspace as the run began, and one of them must leave the
files as the run left them: the same files created, changed and deleted, each with the same content (a file worked
out from the workspace's own, or changed from one that was there: the same words and numbers in the same order,
where one may add words to the other; a file made up, such as a poem: as many lines, the same numbers). A program
that printed its result instead of changing the file, or changed it with a rule that missed some of the cases, is
seldom written that way twice. Nothing of the request is read: what is compared is files."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool

from ..checks import CheckContext, Verdict
from ..consistency import numbers, ordered_tokens
from ..protocols.code import TOOL as PROGRAMS
from ..steps import ran
from ..tool_use.effects import Effects, session
from ..tool_use.toolbox import Toolbox
from ..tools.workspace import ELSEWHERE_KEY, declared_workspace
from .edits import DERIVED_SHARE, same_shape
from .recompute import computed, program_of

SAMPLES = 2  # programs drawn beside the run: two of the three must leave the same files
MAX_FILES = 200  # a workspace with more files, or more bytes, is not copied for a replay
MAX_BYTES = 2 * 1024**2

Files = dict[str, bytes]  # a folder's files by their paths in it, with their contents
Effect = dict[str, bytes | None]  # the files a run created or changed (their new content) or deleted (None)


def files_in(folder: Path) -> Files | None:
    """Every file under `folder` (symlinks not followed) with its content; None where there are more than MAX_FILES
    or MAX_BYTES in all, or one cannot be read (too much, or too odd, to copy for a replay)."""
    found: Files = {}
    total = 0
    for where, _, names in os.walk(folder):
        for name in names:
            path = Path(where) / name
            if path.is_symlink() or not path.is_file():
                return None
            try:
                found[path.relative_to(folder).as_posix()] = content = path.read_bytes()
            except OSError:
                return None
            total += len(content)
            if len(found) > MAX_FILES or total > MAX_BYTES:
                return None
    return found


def effect(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> Effect:
    """What was done to the files between `before` and `after`."""
    paths = sorted(before.keys() | after.keys())
    return {path: after.get(path) for path in paths if before.get(path) != after.get(path)}


def same_effect(one: Effect, other: Effect, before: Mapping[str, bytes]) -> bool:
    """Whether two runs did the same to the same files (see the module's docstring)."""
    return one.keys() == other.keys() and all(_same_file(one[path], other[path], before) for path in one)


def _same_file(one: bytes | None, other: bytes | None, before: Mapping[str, bytes]) -> bool:
    if one is None or other is None or one == other:
        return one == other
    try:
        first, second = one.decode(), other.decode()
    except UnicodeDecodeError:
        return False
    a, b = ordered_tokens(first), ordered_tokens(second)
    if set(a) <= set(b) or set(b) <= set(a):  # one adds words to the other: in the same order
        return [token for token in a if token in b] == [token for token in b if token in a]
    made_up = not (_worked_out(first, before) or _worked_out(second, before))
    return made_up and numbers(first, "") == numbers(second, "") and same_shape(first, second)


def _worked_out(content: str, before: Mapping[str, bytes]) -> bool:
    """Whether at least DERIVED_SHARE of a content's words and numbers stand in the workspace's files as they were."""
    words = set(ordered_tokens(content))
    there = {token for data in before.values() for token in ordered_tokens(data.decode(errors="replace"))}
    return bool(words) and len(words & there) >= DERIVED_SHARE * len(words)


def replay(code: str, elsewhere: Callable[[Path], BaseTool], before: Files) -> Effect | None:
    """What `code` does to a scratch copy of the files `before`, run by the same tool there; None where it failed."""
    with tempfile.TemporaryDirectory(prefix="autoagent-replay-") as scratch:
        root = Path(scratch)
        for path, content in before.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(content)
        tool = elsewhere(root)
        call: dict[str, Any] = {"name": tool.name, "args": {"code": code}, "id": "replay", "type": "tool_call"}
        try:
            with session(None):  # afresh: without the names the run's programs left
                effects = tool.invoke(call).artifact
        except (ValueError, OSError):  # a program the tool refuses confirms nothing
            return None
        after = files_in(root)
        if not isinstance(effects, Effects) or effects.failed or after is None:
            return None
        return effect(before, after)


def replay_verdict(context: CheckContext, toolbox: Toolbox, before: Files | None, answer: str,
                   samples: int = SAMPLES) -> Verdict | None:
    """None where the run's programs did not work, its files `before` were not taken, no program drawn anew ran, or
    one of them did to the files what the run did; a run that changed nothing and whose answer states numbers its
    programs printed is left to `rerun_verdict`. Else a stop (unverified), what each did in its note."""
    tool = toolbox.find(PROGRAMS)
    elsewhere = (tool.metadata or {}).get(ELSEWHERE_KEY) if tool is not None else None
    folder = declared_workspace([tool]) if tool is not None else None
    if before is None or elsewhere is None or folder is None or not any(
            step.success and step.action is not None and step.action.name == PROGRAMS for step in ran(context.steps)):
        return None
    now = files_in(folder) if folder.is_dir() else {}
    if now is None:
        return None
    done = effect(before, now)
    if not done and computed(answer, context, PROGRAMS):
        return None
    drawn = [program_of(reply) for reply in context.attempts(PROGRAMS, samples)]
    results = [result for result in (replay(code, elsewhere, before) for code in drawn if code) if result is not None]
    if not results or any(same_effect(done, result, before) for result in results):
        return None
    shown = " | ".join(describe(result) for result in [done, *results])
    return Verdict.stop(f"programs written again did not leave the files as the run did: {shown}")


def describe(done: Effect) -> str:
    """What was done to the files, in brief: "created a.txt (3 lines); deleted b.txt", or "no file changed"."""
    if not done:
        return "no file changed"
    return "; ".join(f"deleted {path}" if content is None else
                     f"wrote {path} ({len(content.decode(errors='replace').splitlines())} lines)"
                     for path, content in done.items())
