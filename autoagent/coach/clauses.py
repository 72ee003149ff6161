"""The parts of a request ("Open prices.csv, add up the second column, and save the sum in sum.txt"): the
part that gives a mention, and the parts after the ones done, in the request's words, as a led thought quotes them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..steps import Step
from .request import read_request
from .verify import mentions, ran, unused_mentions

_UNQUOTABLE = re.compile(r"[\"'\\\n]")
CLAUSE_CHARS = 120


def clause_of(task: str, item: str) -> str:
    """The part of the task's request that gives `item` ("Find 12% of 860, then split that among 5 people" gives
    5 in "split that among 5 people"), without quotes or line breaks, so it can stand in a one-line thought."""
    request = read_request(task)  # its parts, where its clauses meet
    given = re.compile(rf"(?<![A-Za-z0-9_.]){re.escape(item.rstrip('/'))}(?![A-Za-z0-9_])")
    return _quotable(next((part for part in request.parts if given.search(part)), request.text))


def _quotable(clause: str) -> str:
    """A part of a request as a one-line thought quotes it: no quotes or line breaks, bounded, lower case first."""
    clause = " ".join(_UNQUOTABLE.sub(" ", clause).split())[:CLAUSE_CHARS].rstrip(" .!?\u3002\uff01\uff1f")
    return clause[:1].lower() + clause[1:] if clause[:2].isascii() and not clause[1:2].isupper() else clause


def next_clause(task: str, steps: Sequence[Step]) -> str:
    """The part of the task's request that follows the last part a successful action took something from ("Open
    scores.txt and report the highest one" gives "report the highest one" once scores.txt was read), as
    `clause_of` writes it; empty when no part follows."""
    following = clauses_after(task, steps)
    return following[0] if following else ""


def clauses_after(task: str, steps: Sequence[Step], item: str = "") -> list[str]:
    """The parts of the task's request after the last part a successful action took something from (none before
    any did), as `clause_of` writes them; with `item`, only those before the part that gives it ("double the
    number" between "Read input.txt" and "save it to output.txt")."""
    parts = read_request(task).parts
    used = set(mentions(task)) - set(unused_mentions(task, [step for step in ran(steps) if step.success]))
    done = [index for index, part in enumerate(parts) if any(item.rstrip("/") in part for item in used)]
    if not done:
        return []
    following = parts[done[-1] + 1:]
    if item:
        given = next((index for index, part in enumerate(following) if item.rstrip("/") in part), len(following))
        following = following[:given]
    return [_quotable(part) for part in following]
