"""Parsing the model's Thought/Action reply, leniently but never silently wrong."""

from __future__ import annotations

import pytest

from autoagent.reply import ReplyParseError, ThoughtActionParser

parse = ThoughtActionParser().parse

FULL = (
    '{"thought": {"text": "multiply", "reasoning": "the task asks", "plan": ["multiply", "finish"], '
    '"criticism": "none", "speak": "working"}, "action": {"name": "calculator", "args": {"expression": "2*3"}}}'
)


def test_full_shape() -> None:
    reply = parse(FULL)
    assert reply.thought.plan == ["multiply", "finish"] and reply.thought.speak == "working"
    assert reply.action.name == "calculator" and reply.action.args == {"expression": "2*3"}
    assert not reply.is_finish()


@pytest.mark.parametrize(
    "text",
    [
        f"```json\n{FULL}\n```",
        f"Sure, here is my next step:\n{FULL}\nLet me know!",
        FULL.replace('"', "'"),
        FULL.replace("}}}", "},}}"),
        FULL[:-3],  # truncated
    ],
    ids=["code fence", "prose around", "single quotes", "trailing comma", "truncated"],
)
def test_lenient_forms(text: str) -> None:
    reply = parse(text)
    assert reply.action.name == "calculator" and reply.action.args == {"expression": "2*3"}


def test_an_object_split_in_parts_is_joined() -> None:
    reply = parse('{"thought": "multiply"} {"action": {"name": "calculator", "args": {"expression": "2*3"}}}')
    assert reply.thought.text == "multiply" and reply.action.args == {"expression": "2*3"}
    assert parse('[{"thought": "first"}, {"thought": "second", "action": "finish"}]').thought.text == "first"


def test_light_shapes_one_string_thought_and_bare_action_name() -> None:
    reply = parse('{"thought": "just finish", "action": "finish"}')
    assert reply.thought.text == "just finish" and reply.is_finish()
    reply = parse('{"thought": {"text": "x", "plan": "- a\\n- b"}, "action": {"name": "t", "args": "{\\"k\\": 1}"}}')
    assert reply.thought.plan == ["a", "b"] and reply.action.args == {"k": 1}


@pytest.mark.parametrize("name", ["FINISH", "finish", " Finish "])
def test_finish_any_case(name: str) -> None:
    assert parse(f'{{"thought": "done", "action": {{"name": "{name}"}}}}').is_finish()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I will now call the calculator.", "no JSON object found"),
        ("", "no JSON object found"),
        ('{"thought": "x"}', "action: Field required"),
        ('{"thought": "x", "action": {"args": 3}}', "action.name: Field required"),
    ],
)
def test_failures_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ReplyParseError) as caught:
        parse(text)
    assert problem in caught.value.problem
    assert "http" not in caught.value.problem  # the model reads this: no troubleshooting links


def test_format_instructions_are_generated_and_compact() -> None:
    instructions = ThoughtActionParser().get_format_instructions()
    for field in ("thought.text", "thought.reasoning", "thought.plan", "thought.criticism", "thought.speak",
                  "action.name", "action.args"):
        assert field in instructions
    assert '"action": {"name": "tool_name", "args": {"arg_name": "value"}}' in instructions
    assert "properties" not in instructions and "$defs" not in instructions
    assert len(instructions) < 600


def test_json_nested_too_deep_to_read_is_a_parse_error_for_the_model() -> None:
    deep = "[" * 5000 + "]" * 5000
    reply = f'{{"thought": "t", "action": {{"name": "calculator", "args": {{"expression": {deep}}}}}}}'
    with pytest.raises(ReplyParseError, match="nested too deeply"):
        ThoughtActionParser().parse(reply)


def test_a_lone_surrogate_escape_is_read_as_a_replacement_character() -> None:
    reply = '{"thought": "look \\ud800", "action": {"name": "read_file", "args": {"path": "caf\\udce9.txt"}}}'
    parsed = ThoughtActionParser().parse(reply)
    assert (parsed.thought.text, parsed.action.args) == ("look \ufffd", {"path": "caf\ufffd.txt"})
