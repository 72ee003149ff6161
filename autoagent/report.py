"""What a run comes to: a one-line summary for people and one JSON object for scripts (`--json`)."""

from __future__ import annotations

from typing import Any

from .run_json import jsonable, run_to_json, step_to_json, sub_run_to_json, usage_to_json
from .steps import RunResult, StepKind, StopReason
from .subagents.calls import MAX_DEPTH

_NUMBER = {"type": "integer", "minimum": 0}
_SECONDS = {"type": "number", "minimum": 0}

_USAGE_SHAPE: dict[str, Any] = {
    "type": "object",
    "required": ["calls", "input_tokens", "output_tokens", "total_tokens", "estimated", "cost_usd"],
    "additionalProperties": False,
    "properties": {
        "calls": _NUMBER,
        "input_tokens": _NUMBER,
        "output_tokens": _NUMBER,
        "total_tokens": _NUMBER,
        "estimated": {"type": "boolean"},
        "cost_usd": {"type": ["number", "null"], "minimum": 0},
    },
}
_RUN_FIELDS = ["task", "answer", "model_answer", "finished", "stop_reason", "stop_detail", "steps", "usage", "seconds"]


def _run_properties(steps: dict[str, Any]) -> dict[str, Any]:
    """The properties of a run's object (the whole run's, or a sub-agent's), its steps as `steps` says."""
    return {
        "task": {"type": "string"},
        "answer": {"type": "string"},
        "model_answer": {"type": "string"},
        "finished": {"type": "boolean"},
        "stop_reason": {"enum": [reason.value for reason in StopReason]},
        "stop_detail": {"type": "string"},
        "steps": {"type": "array", "items": steps},
        "usage": _USAGE_SHAPE,
        "seconds": _SECONDS,
        "output": {},  # with an output schema, a finished run's value (any JSON); absent otherwise
    }


def _step_shape(levels: int) -> dict[str, Any]:
    """A step's shape; a step that called a sub-agent holds its run (`sub_run`), down `levels` more levels."""
    shape: dict[str, Any] = {
        "type": "object",
        "required": ["number", "kind", "thought", "action", "observation", "success", "seconds", "input_tokens",
                     "output_tokens", "check"],
        "additionalProperties": False,
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "kind": {"enum": [kind.value for kind in StepKind]},
            "thought": {"type": ["string", "null"]},
            "action": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["name", "args"],
                        "additionalProperties": False,
                        "properties": {"name": {"type": "string"}, "args": {"type": "object"}},
                    },
                ],
            },
            "observation": {"type": "string"},
            "success": {"type": "boolean"},
            "seconds": _SECONDS,
            "input_tokens": _NUMBER,
            "output_tokens": _NUMBER,
            "check": {"type": "string"},
            "model": {"type": "string"},  # only in a step a fallback model answered
        },
    }
    if levels:
        shape["properties"]["sub_run"] = {  # only in a step that called a sub-agent
            "type": "object",
            "required": ["agent", *_RUN_FIELDS],
            "additionalProperties": False,
            "properties": {"agent": {"type": "string"}, **_run_properties(_step_shape(levels - 1))},
        }
    return shape


# The documented shape of `autoagent --json` output, as a JSON Schema (the tests validate against it).
JSON_SHAPE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["run_id", *_RUN_FIELDS],
    "additionalProperties": False,
    "properties": {"run_id": {"type": "string"}, **_run_properties(_step_shape(MAX_DEPTH))},
}


def format_seconds(seconds: float) -> str:
    """`8.1 s` under a minute, `2 min 05 s` above."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"


def format_cost(cost_usd: float) -> str:
    """Dollars, with the precision a cheap call needs: `$0.0004`, `$1.25`."""
    if cost_usd == 0:
        return "$0"  # a model on this machine
    return f"${cost_usd:.2f}" if cost_usd >= 1 else f"${cost_usd:.4f}"


def summary_line(run: RunResult) -> str:
    """`finished · 3 steps · 8.1 s · 1,996 in / 115 out tokens · $0.0004`; `~` marks estimated tokens.

    An unfinished run's line says `unfinished (max steps)`: its one `stopped:` line, with the detail, is the CLI's.
    """
    outcome = "finished" if run.finished else f"unfinished ({run.stop_reason.value.replace('_', ' ')})"
    count = len(run.steps)
    parts = [outcome, f"{count} step{'' if count == 1 else 's'}", format_seconds(run.seconds)]
    usage = run.usage
    if usage.total_tokens:
        about = "~" if usage.estimated else ""
        parts.append(f"{about}{usage.input_tokens:,} in / {about}{usage.output_tokens:,} out tokens")
    if usage.cost_usd is not None:
        parts.append(format_cost(usage.cost_usd))
    return " · ".join(parts)


__all__ = ["JSON_SHAPE", "format_cost", "format_seconds", "jsonable", "run_to_json", "step_to_json",
           "sub_run_to_json", "summary_line", "usage_to_json"]
