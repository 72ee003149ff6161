"""JSON read from outside the process (a tasks file, a transcript, a results file, a request's body), read so that no
nesting can crash what reads it: a value nested deeper than MAX_DEPTH lists and objects is refused as a ValueError,
as text that is not JSON is, before anything walks it recursively (json.loads itself, pydantic, json.dumps)."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 100  # far beyond any record autoagent writes; pydantic gives up serializing at about 250


def loads(text: str | bytes) -> Any:
    """The JSON value of `text`; ValueError when it is not JSON or nested deeper than MAX_DEPTH."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(too_deep()) from None
    check_depth(value)
    return value


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """ValueError when `value` (parsed JSON) nests lists and objects deeper than `limit` levels; walked with a stack,
    not recursion."""
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, (dict, list)):
            if level > limit:
                raise ValueError(too_deep(limit))
            pending.extend((inner, level + 1) for inner in (item.values() if isinstance(item, dict) else item))


def too_deep(limit: int = MAX_DEPTH) -> str:
    """Why such a value is refused."""
    return f"nested more than {limit} levels deep"
