"""The run summary line and the `--json` object, validated against its documented shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.reply import ThoughtAndAction
from autoagent.report import JSON_SHAPE, format_seconds, run_to_json, summary_line
from autoagent.steps import RunResult, Step, StepKind, StopReason, Usage

from .scripted import ScriptedChatModel, act

_TYPES: dict[str, Any] = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def shape_errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """The ways `value` breaks `schema` (the JSON Schema subset JSON_SHAPE uses), one message each."""
    if "oneOf" in schema:
        matches = [option for option in schema["oneOf"] if not shape_errors(value, option, path)]
        return [] if len(matches) == 1 else [f"{path}: matches {len(matches)} of oneOf"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: {value!r} not in {schema['enum']}"]
    if "type" in schema and not any(_is_type(value, name) for name in _as_list(schema["type"])):
        return [f"{path}: {value!r} is not {schema['type']}"]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < schema.get("minimum", value):
        return [f"{path}: {value} < {schema['minimum']}"]
    errors = []
    if isinstance(value, dict):
        errors += [f"{path}: missing {key}" for key in schema.get("required", []) if key not in value]
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            errors += [f"{path}: unexpected {key}" for key in value if key not in properties]
        for key, item in value.items():
            if key in properties:
                errors += shape_errors(item, properties[key], f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            errors += shape_errors(item, schema["items"], f"{path}[{index}]")
    return errors


def _as_list(names: str | list[str]) -> list[str]:
    return [names] if isinstance(names, str) else names


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def decision(name: str, thought: str = "working", **args: Any) -> ThoughtAndAction:
    return ThoughtAndAction.model_validate({"thought": {"text": thought}, "action": {"name": name, "args": args}})


def finished_run() -> RunResult:
    steps = [
        Step(1, StepKind.ACTION, "{}", decision("search", query="paris"), "Paris is the capital." * 50,
             seconds=2.5, input_tokens=900, output_tokens=40),
        Step(2, StepKind.ACTION, "{}", decision("write_file", path=Path("a.txt")), "written",
             seconds=3.1, input_tokens=1000, output_tokens=50),
        Step(3, StepKind.FINISH, "{}", decision("FINISH"), "", seconds=2.5, input_tokens=96, output_tokens=25),
    ]
    usage = Usage(calls=4, input_tokens=1996, output_tokens=115, cost_usd=0.0004)
    return RunResult("capital of France?", "run-1", "Paris.", StopReason.FINISHED, "", steps, usage, 8.1)


def stopped_run() -> RunResult:
    steps = [
        Step(1, StepKind.PARSE_ERROR, "not json", None, "no JSON object found in the reply", success=False),
        Step(2, StepKind.REPEATED, "{}", decision("search", query="x"), "you did this in step 1", success=False),
    ]
    usage = Usage(calls=2, input_tokens=300, output_tokens=20, estimated=True)
    return RunResult("t", "", "", StopReason.MAX_STEPS, "", steps, usage, 75.4)


def test_summary_line_of_a_finished_run() -> None:
    assert summary_line(finished_run()) == "finished · 3 steps · 8.1 s · 1,996 in / 115 out tokens · $0.0004"


def test_summary_line_marks_estimates_and_leaves_out_an_unknown_cost() -> None:
    line = summary_line(stopped_run())
    assert line == "unfinished (max steps) · 2 steps · 1 min 15 s · ~300 in / ~20 out tokens"
    assert "$" not in line


def test_summary_line_without_tokens_and_with_a_large_cost() -> None:
    run = RunResult("t", stop_reason=StopReason.INTERRUPTED, steps=finished_run().steps[:1], seconds=0.04)
    assert summary_line(run) == "unfinished (interrupted) · 1 step · 0.0 s"
    run.usage.cost_usd = 1.254
    assert summary_line(run).endswith(" · $1.25")
    assert format_seconds(3600) == "60 min 00 s"


@pytest.mark.parametrize("make_run", [finished_run, stopped_run])
def test_run_to_json_has_the_documented_shape(make_run: Any) -> None:
    data = run_to_json(make_run())
    assert shape_errors(data, JSON_SHAPE) == []
    assert json.loads(json.dumps(data)) == data


def test_run_to_json_keeps_observations_whole_and_args_as_json() -> None:
    data = run_to_json(finished_run())
    assert data["answer"] == "Paris." and data["finished"] is True and data["stop_reason"] == "finished"
    first, second, finish = data["steps"]
    assert first["observation"] == "Paris is the capital." * 50
    assert first["action"] == {"name": "search", "args": {"query": "paris"}} and first["thought"] == "working"
    assert second["action"]["args"] == {"path": "a.txt"}  # a non-JSON value becomes its text
    assert finish["kind"] == "finish" and finish["input_tokens"] == 96
    assert data["usage"] == {"calls": 4, "input_tokens": 1996, "output_tokens": 115, "total_tokens": 2111,
                             "estimated": False, "cost_usd": 0.0004}
    parse_error = run_to_json(stopped_run())["steps"][0]
    assert parse_error["action"] is None and parse_error["thought"] is None and parse_error["success"] is False


def test_the_shape_check_catches_a_broken_object() -> None:
    data = run_to_json(finished_run())
    data["usage"]["calls"] = "4"
    del data["steps"][0]["kind"]
    data["steps"][1]["action"] = {"name": "x"}
    data["extra"] = 1
    errors = shape_errors(data, JSON_SHAPE)
    assert any("usage.calls" in error for error in errors)
    assert any("missing kind" in error for error in errors)
    assert any("steps[1].action" in error for error in errors)
    assert any("unexpected extra" in error for error in errors)


def test_the_shape_is_a_valid_json_schema_and_agrees() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(JSON_SHAPE)
    for run in (finished_run(), stopped_run()):
        jsonschema.validate(run_to_json(run), JSON_SHAPE)


def test_a_real_run_serialises_to_the_documented_shape() -> None:
    llm = ScriptedChatModel(replies=["oops", act("FINISH"), act("FINISH"), "All done.", "Done.", "done"])
    agent = AutoGPT(llm=llm, tools=[], advisors=[Coach()])
    run = agent.execute("say done")
    data = run_to_json(run)
    assert shape_errors(data, JSON_SHAPE) == []
    assert [step["kind"] for step in data["steps"]] == ["parse_error", "rejected", "finish"]
    assert [step["check"] for step in data["steps"]] == ["", "coach", ""]  # which check sent it back
    assert data["answer"] == "All done." and data["usage"]["calls"] == 6  # two short answers sampled beside it


def test_a_free_run_costs_a_plain_zero() -> None:
    from autoagent.report import format_cost

    assert (format_cost(0.0), format_cost(0.00042), format_cost(1.5)) == ("$0", "$0.0004", "$1.50")
