"""Typed answers: the final answer held to a schema (AgentOptions(output_type=...), --output-schema): the finish
prompt asks for a JSON value of it, an invalid answer is sent back once with what is wrong, then the run ends
unverified; RunResult.output and --json's `output` hold the value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from autoagent import AutoGPT
from autoagent.cli import cli
from autoagent.commands import exit_codes
from autoagent.errors import ConfigurationError
from autoagent.report import JSON_SHAPE
from autoagent.steps import StepKind, StopReason
from autoagent.tools import calculator
from autoagent.typed_output import InvalidOutput, OutputType

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act
from .test_report import shape_errors


class Product(BaseModel):
    value: int
    factors: list[int]


def agent(*replies: str, output_type: object = Product) -> AutoGPT:
    return AutoGPT(ScriptedChatModel(replies=list(replies)), tools=[calculator], output_type=output_type)


def test_the_answer_is_parsed_into_the_output_type_and_the_finish_prompt_asks_for_it() -> None:
    typed = agent(act("calculator", expression="6*7"), act("FINISH"), '{"value": 42, "factors": [6, 7]}')
    run = typed.execute("What is 6 * 7, with its factors?")
    assert run.finished and run.output == Product(value=42, factors=[6, 7])
    finish_prompt = typed.llm.prompts[-1]  # type: ignore[attr-defined]
    assert "one JSON value that follows this JSON Schema" in finish_prompt and '"factors"' in finish_prompt
    assert "not JSON" not in finish_prompt


def test_an_invalid_answer_is_sent_back_once_with_what_is_wrong_then_the_run_finishes_valid() -> None:
    typed = agent(act("calculator", expression="6*7"), act("FINISH"), '{"value": "forty-two"}',
                  act("FINISH"), '```json\n{"value": 42, "factors": [6, 7]}\n```')
    run = typed.execute("What is 6 * 7, with its factors?")
    assert run.finished and run.output == Product(value=42, factors=[6, 7])
    sent_back = run.steps[1]
    assert sent_back.kind is StepKind.REJECTED and sent_back.check == "output"
    assert "value: Input should be a valid integer" in sent_back.observation
    assert "factors: Field required" in sent_back.observation


def test_a_second_invalid_answer_ends_the_run_unverified_with_the_answer_shown() -> None:
    typed = agent(act("FINISH"), "forty-two", act("FINISH"), "still forty-two")
    run = typed.execute("What is 6 * 7?")
    assert run.stop_reason is StopReason.UNVERIFIED and run.output is None
    assert run.answer == "still forty-two" and "not one JSON value" in run.stop_detail


def test_a_json_schema_as_a_dict_holds_the_answer_too() -> None:
    schema = {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}},
              "additionalProperties": False}
    run = agent(act("FINISH"), '{"city": "Paris"}', output_type=schema).execute("Capital of France?")
    assert run.finished and run.output == {"city": "Paris"}
    with pytest.raises(InvalidOutput, match="'town' was unexpected"):
        OutputType.of(schema).parse('{"city": "Paris", "town": "x"}')
    with pytest.raises(ConfigurationError, match="not a valid JSON Schema"):
        OutputType.of({"type": "no such type"})


def test_output_schema_from_the_cli_gives_output_in_json(backend: FakeBackend, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"type": "object", "required": ["value"],
                                  "properties": {"value": {"type": "integer"}}}))
    replies = [act("calculator", expression="6*7"), act("FINISH"), '{"value": 42}']
    result = invoke(["--json", "--output-schema", str(schema), "6*7?"], replies, backend)
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["output"] == {"value": 42} and shape_errors(report, JSON_SHAPE) == []

    events = invoke(["--events", "jsonl", "--output-schema", str(schema), "6*7?"], replies, backend)
    assert json.loads(events.stdout.splitlines()[-1])["output"] == {"value": 42}


def test_a_bad_output_schema_file_is_one_readable_line(backend: FakeBackend, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text("{not json")
    result = CliRunner().invoke(cli, ["--output-schema", str(schema), "hi"])
    assert result.exit_code == exit_codes.ERROR and "cannot read the output schema" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_checks_answer_that_is_not_of_the_output_type_leaves_the_models_own() -> None:
    from autoagent.checks import CheckContext, Verdict

    def plain_number(context: CheckContext) -> Verdict:  # as the coach puts the number a tool showed in place
        return Verdict.accept(answer="42", why="the tool's result")

    typed = AutoGPT(ScriptedChatModel(replies=[act("calculator", expression="6*7"), act("FINISH"),
                                               '{"value": 42, "factors": [6, 7]}']),
                    tools=[calculator], output_type=Product, checks=[plain_number])
    run = typed.execute("What is 6 * 7, with its factors?")
    assert run.finished and run.output == Product(value=42, factors=[6, 7]) and run.model_answer == ""


def test_a_served_model_is_asked_for_structured_output_of_the_schema() -> None:
    from autoagent.llm import load_chat_model

    from .fake_openai import FakeOpenAI

    server = FakeOpenAI(act("FINISH"), '{"value": 42, "factors": [6, 7]}')
    try:
        llm = load_chat_model("openai:gpt-4o-mini", base_url=server.base_url)
        run = AutoGPT(llm, tools=[calculator], output_type=Product).execute("What is 6 * 7, with its factors?")
        finish = server.chat_requests[-1].body
    finally:
        server.close()
    assert run.finished and run.output == Product(value=42, factors=[6, 7])
    form = finish["response_format"]
    assert form["json_schema"]["schema"] == Product.model_json_schema()
    step = server.chat_requests[0].body["response_format"]["json_schema"]["schema"]
    assert set(step["required"]) == {"thought", "action"}  # a step's reply is held to the reply format
