"""The library of checks every task set names: each factory registered by name, one module per concept.

`build_check({"name": "says_number", "value": 114})` is the check a task's data describes; `RUN_DAY` holds the day
the task being checked ran on, the "today" of the date checks.
"""

from __future__ import annotations

from . import (  # noqa: F401  (each module registers its factories)
    answers,
    chinese,
    combine,
    config_files,
    dates,
    documents,
    files,
    json_files,
    lines,
    numbers,
    tables,
    writing,
)
from .dates import RUN_DAY, today
from .registry import FACTORIES, Check, CheckDataError, build_check, register

__all__ = ["FACTORIES", "RUN_DAY", "Check", "CheckDataError", "build_check", "register", "today"]
