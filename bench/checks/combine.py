"""Checks made of checks: all of them pass, or one of them."""

from __future__ import annotations

from pathlib import Path

from .registry import Check, register


@register
def both(*checks: Check) -> Check:
    """Every check passes."""

    def check(answer: str, workspace: Path) -> str | None:
        for one in checks:
            problem = one(answer, workspace)
            if problem:
                return problem
        return None

    return check


@register
def either(*checks: Check) -> Check:
    """At least one check passes."""

    def check(answer: str, workspace: Path) -> str | None:
        problems = [one(answer, workspace) for one in checks]
        return None if any(problem is None for problem in problems) else problems[0]

    return check
