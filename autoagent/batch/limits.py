"""What a tasks file, maybe written by someone else, may ask of the batch that runs it: a budget at most the command
line's (a task may lower one, never raise it), only a model the command line allows (its own, or one
--allow-model names), the python tool and long-term memory only where the command line grants them."""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Sequence
from typing import Any

from ..settings import Settings, python_granted
from .tasks import BatchTask

# The budgets the command line caps, each with the flag that sets it; for tool_timeout, 0 is no limit.
BUDGETS = {"max_steps": "--max-steps", "max_seconds": "--max-seconds", "max_tokens": "--max-tokens",
           "max_cost": "--max-cost", "max_reply_tokens": "--max-reply-tokens", "tool_timeout": "--tool-timeout"}


def limit_problems(task: BatchTask, ceiling: Settings, models: Sequence[str]) -> list[str]:
    """Why the task asks for more than the command line grants (none when it does not): a budget above
    `ceiling`'s, or a model matching none of `models` (specs, `*` matching anything)."""
    problems = []
    for name, flag in BUDGETS.items():
        if name in task.settings and _limit(name, task.settings[name]) > _limit(name, getattr(ceiling, name)):
            problems.append(f"task {task.id}: {name} {_shown(name, task.settings[name])} is above the command "
                            f"line's {_shown(name, getattr(ceiling, name))} ({flag}): a task may lower a budget, "
                            "not raise it")
    model = task.settings.get("model")
    if model is not None and not any(fnmatch.fnmatchcase(model.strip(), allowed) for allowed in models):
        problems.append(f"task {task.id}: the model {model!r} is not one the command line allows "
                        f"({', '.join(models)}; --allow-model adds others)")
    return problems + permission_problems(task, ceiling)


def permission_problems(task: BatchTask, ceiling: Settings) -> list[str]:
    """Why the task asks for what the command line does not grant: the code protocol (its programs run with the
    python tool) or long-term memory turned on."""
    problems = []
    if task.settings.get("protocol") == "code" and python_granted(ceiling) is not True:
        problems.append(f"task {task.id}: the protocol 'code' runs programs with the python tool, which the command "
                        "line does not grant (--allow-python or --protocol code)")
    if task.settings.get("use_memory") is True and not ceiling.use_memory:
        problems.append(f"task {task.id}: use_memory true, but the command line says --no-memory: a task may turn "
                        "memory off, not on")
    return problems


def _limit(name: str, value: Any) -> float:
    """The budget as a number: no limit is infinity."""
    if value is None or (name == "tool_timeout" and value == 0):
        return math.inf
    return float(value)


def _shown(name: str, value: Any) -> str:
    """A budget's value as the tasks file writes it, with what no limit means."""
    if value is None:
        return "null (no limit)"
    return f"{value} (no limit)" if math.isinf(_limit(name, value)) else str(value)
