"""A peer's task result in the shape of an `autoagent batch` result line, so one judge reads both.

Standard library only: the runner (project venv) and the worker (peers venv) both import it.
"""

from __future__ import annotations

from typing import Any

AGENTS = ("smolagents-tools", "smolagents-code")  # ToolCallingAgent, CodeAgent
FINISHED, MAX_STEPS, TIMEOUT, ERROR = "finished", "max_steps", "timeout", "error"
STOP_REASONS = (FINISHED, MAX_STEPS, TIMEOUT, ERROR)


def usage_record(calls: int = 0, input_tokens: int = 0, output_tokens: int = 0) -> dict[str, Any]:
    """Token usage as autoagent's run report writes it (a local server costs nothing, so no dollars)."""
    return {"calls": calls, "input_tokens": input_tokens, "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens, "estimated": False, "cost_usd": None}


def task_record(
    job: dict[str, Any],
    *,
    stop_reason: str,
    answer: str = "",
    stop_detail: str = "",
    steps: int = 0,
    seconds: float = 0.0,
    usage: dict[str, Any] | None = None,
    wall_seconds: float | None = None,
    warnings: list[str] | None = None,
) -> dict[str, Any]:
    """One result line, its fields in autoagent/batch/worker.py's order, then the peer's `agent` and `model`.
    `finished` is true only for a run that called final_answer within its steps."""
    if stop_reason not in STOP_REASONS:
        raise ValueError(f"unknown stop reason {stop_reason!r}; one of {', '.join(STOP_REASONS)}")
    return {
        "id": job["id"], "task": job["task"], "run_id": "", "finished": stop_reason == FINISHED,
        "stop_reason": stop_reason, "stop_detail": stop_detail, "answer": answer, "steps": steps,
        "usage": usage or usage_record(), "seconds": round(seconds, 3), "workspace": job["workspace"],
        "wall_seconds": round(seconds if wall_seconds is None else wall_seconds, 3), "warnings": warnings or [],
        "agent": job["agent"], "model": job["model"],
    }


def answer_text(output: Any) -> str:
    """final_answer's argument as the answer string (a CodeAgent may hand back a number or a list)."""
    return "" if output is None else output if isinstance(output, str) else str(output)
