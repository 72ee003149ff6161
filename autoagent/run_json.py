"""A run and its parts in the JSON form of `autoagent --json` (docs/reference/json.md): the report, the server and
the event stream give the same objects."""

from __future__ import annotations

import json
from typing import Any

from .steps import RunResult, Step, SubRun, Usage


def jsonable(value: Any) -> Any:
    """`value` as plain JSON types (a tool's arguments may hold anything a model or a plan put there)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def step_to_json(step: Step) -> dict[str, Any]:
    """One step in the `--json` shape; the observation whole."""
    action = step.action
    return {
        "number": step.number,
        "kind": step.kind.value,
        "thought": step.decision.thought.text if step.decision else None,
        "action": {"name": action.name, "args": jsonable(action.args)} if action else None,
        "observation": step.observation,
        "success": step.success,
        "seconds": round(step.seconds, 3),
        "input_tokens": step.input_tokens,
        "output_tokens": step.output_tokens,
        "check": step.check,
        **({"model": step.model} if step.model else {}),  # a fallback's answer
        **({"sub_run": sub_run_to_json(step.sub_run)} if step.sub_run is not None else {}),
    }


def sub_run_to_json(sub_run: SubRun) -> dict[str, Any]:
    """A sub-agent's run in the `--json` shape: the agent's name, then its run as a whole run's (without an id)."""
    run = run_to_json(sub_run.run)
    del run["run_id"]
    return {"agent": sub_run.agent, **run}


def run_to_json(run: RunResult) -> dict[str, Any]:
    """The run as one JSON-ready object in the shape `JSON_SHAPE` documents."""
    return {
        "run_id": run.run_id,
        "task": run.task,
        "answer": run.answer,
        "model_answer": run.model_answer,
        "finished": run.finished,
        "stop_reason": run.stop_reason.value,
        "stop_detail": run.stop_detail,
        "steps": [step_to_json(step) for step in run.steps],
        "usage": usage_to_json(run.usage),
        "seconds": round(run.seconds, 3),
        **({"output": output_to_json(run.output)} if run.output is not None else {}),
    }


def output_to_json(value: Any) -> Any:
    """A typed answer's value (autoagent/typed_output.py) in plain JSON types."""
    from pydantic import TypeAdapter

    return TypeAdapter(Any).dump_python(value, mode="json")


def usage_to_json(usage: Usage) -> dict[str, Any]:
    """A run's usage in the `--json` shape."""
    return {
        "calls": usage.calls,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "estimated": usage.estimated,
        "cost_usd": usage.cost_usd,
    }

