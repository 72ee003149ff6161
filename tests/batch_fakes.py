"""Helpers for batch tests: a tasks file of sums, and a fake-server responder that answers each run by its own task,
so runs in several processes at once each get their own script."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .fake_openai import Hold, Item, Text
from .scripted import act

_SUM = re.compile(r"Task: What is (\d+) \+ (\d+)\?")
FINISH_PROMPT = "Write the final answer to the task"


def write_sums(path: Path, count: int, **extra: Any) -> list[str]:
    """A tasks file of `count` sums ("What is 3 + 4?"), ids t00, t01, ...; the ids."""
    ids = [f"t{index:02d}" for index in range(count)]
    lines = [json.dumps({"id": task_id, "task": f"What is {index} + {index * 7 + 3}?", **extra})
             for index, task_id in enumerate(ids)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ids


def prompt_of(body: Any) -> str:
    """Every message's text of a chat request, joined."""
    messages = body.get("messages", []) if isinstance(body, dict) else []
    return "\n".join(str(message.get("content") or "") for message in messages)


def adder(hold: Callable[[int, int], Hold | None] = lambda a, b: None) -> Callable[[Any], Item | str]:
    """A responder for sum tasks: calculator, then FINISH, then the sum as the answer. `hold(a, b)` may return a
    Hold for the first call of a task, to keep it running until the test releases it."""

    def respond(body: Any) -> Item | str:
        prompt = prompt_of(body)
        match = _SUM.search(prompt)
        if match is None:
            return act("FINISH")
        a, b = int(match.group(1)), int(match.group(2))
        if FINISH_PROMPT in prompt:
            return str(a + b)
        if "Step 1." in prompt:
            return act("FINISH")
        held = hold(a, b)
        calculate = act("calculator", "add them", expression=f"{a} + {b}")
        if held is not None:
            held.then = held.then or Text(calculate)
            return held
        return calculate

    return respond


STABLE = ("id", "task", "finished", "stop_reason", "answer", "steps")


def stable(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must not depend on where or when a task ran: sorted by id."""
    return sorted((*(record[name] for name in STABLE), record["usage"]["total_tokens"]) for record in records)


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The results file's records."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
