"""The action's schema for constrained decoding, and the hold that leads a task in parts to its next part."""

from __future__ import annotations

import re
from typing import Any

from autoagent.action_schema import FINISH, action_schema, guided_schema

CALCULATOR = {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}
WRITE = {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
         "required": ["path", "content"]}
NOW: dict[str, Any] = {"type": "object", "properties": {}}
TOOLS = {"calculator": CALCULATOR, "write_file": WRITE, "current_datetime": NOW}


def names(schema: dict[str, Any]) -> list[str]:
    return [choice["properties"]["name"]["const"] for choice in schema["anyOf"]]


def argument(schema: dict[str, Any], tool: str, key: str) -> dict[str, Any]:
    """The schema of `tool`'s argument `key`: where the call has choices, the one holding that argument."""
    args = next(one for one in schema["anyOf"] if one["properties"]["name"]["const"] == tool)["properties"]["args"]
    choices = [choice["properties"][key] for choice in args.get("anyOf", [args])]
    return next((choice for choice in choices if "pattern" in choice), choices[0])


def test_every_tool_and_finish_without_a_hold() -> None:
    assert names(action_schema(TOOLS)) == ["calculator", "write_file", "current_datetime", FINISH]
    assert names(action_schema(TOOLS, finish=False)) == ["calculator", "write_file", "current_datetime"]


def test_a_number_to_take_holds_the_calls_that_work_from_values_to_take_it_standing_alone() -> None:
    schema = action_schema(TOOLS, finish=False, takes=("4", "710"))
    assert names(schema) == ["calculator"]  # the clock takes nothing; a file tool works on a place, not a value
    expression = re.compile(argument(schema, "calculator", "expression")["pattern"])
    assert all(expression.fullmatch(text) for text in ("710 / 4", "4", "(4 + 1)", "3550*0.2/4", "710*0.15"))
    assert not any(expression.fullmatch(text) for text in ("3550*0.2", "74", "4.5", "0.4", 'x"4', "4}}} ->"))
    note = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    assert re.fullmatch(argument(action_schema({"note": note}, takes=("4",)), "note", "text")["pattern"], "4 apples")


def test_a_file_name_to_take_holds_a_path_like_argument() -> None:
    schema = action_schema(TOOLS, finish=False, takes=("power.txt",))
    assert names(schema) == ["write_file"]  # an expression is no place for a file name
    path = re.compile(argument(schema, "write_file", "path")["pattern"])
    assert path.fullmatch("power.txt") and path.fullmatch("out/power.txt")
    assert not path.fullmatch("powerXtxt") and not path.fullmatch("power.txt.bak")
    assert not path.fullmatch('power.txt"}}}/power.txt')  # no other text in the folders before it


def test_a_pattern_of_names_to_take_is_the_whole_path() -> None:
    schema = action_schema(TOOLS, finish=False, takes=("*.tmp",))
    path = re.compile(argument(schema, "write_file", "path")["pattern"])
    assert path.fullmatch("*.tmp") and not path.fullmatch(".tmp") and not path.fullmatch(".tmpASTI000/*.tmp")


def test_a_folder_to_take_holds_a_path_like_argument_to_it_or_inside_it() -> None:
    schema = action_schema(TOOLS, finish=False, takes=("archive/",))
    assert names(schema) == ["write_file"]  # a folder is a place, not a value for the calculator
    path = re.compile(argument(schema, "write_file", "path")["pattern"])
    assert all(path.fullmatch(text) for text in ("archive", "archive/notes.txt", "old/archive"))
    assert not any(path.fullmatch(text) for text in ("archive.txt", "archived", "notes.txt"))


def test_a_numeric_argument_takes_the_number_as_its_value() -> None:
    add = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
    args = action_schema({"add": add}, finish=False, takes=("5",))["anyOf"][0]["properties"]["args"]["anyOf"]
    assert [(choice["properties"]["a"], choice["properties"]["b"]) for choice in args] == [
        ({"type": "integer", "enum": [5]}, {"type": "integer"}),
        ({"type": "integer"}, {"type": "integer", "enum": [5]})]
    assert "enum" not in str(action_schema({"add": add}, finish=False, takes=("2.5",)))  # no integer is 2.5


def test_when_no_tool_can_take_it_any_call_is_allowed() -> None:
    schema = action_schema({"current_datetime": NOW}, finish=False, takes=("archive.txt",))
    assert names(schema) == ["current_datetime"]
    assert "pattern" not in str(schema)


def test_a_led_thought_names_the_tool_it_calls() -> None:
    schema = guided_schema(TOOLS, "next I must divide it by 4, so I call", ("4",), 300, "the")
    thoughts = {reply["properties"]["action"]["properties"]["name"]["const"]: reply["properties"]["thought"]["pattern"]
                for reply in schema["anyOf"]}
    assert list(thoughts) == ["calculator"]
    calculator = re.compile(thoughts["calculator"].replace("[.]", "."))
    assert calculator.fullmatch("next I must divide it by 4, so I call calculator with 710 / 4.")
    assert calculator.fullmatch("next I must divide it by 4, so I call the calculator.")
    assert not calculator.fullmatch("next I must divide it by 4, so I call write_file.")
    assert not calculator.fullmatch("next I must divide it by 4, so I call calculator  ")  # no blank run-on
    assert not calculator.fullmatch("next I must divide it by 4, so I call calculator" + " and so on" * 20)
    led = guided_schema(TOOLS, "next I must save it in a.txt, so I call", ("a.txt",), 300)
    assert [reply["properties"]["action"]["properties"]["name"]["const"] for reply in led["anyOf"]] == ["write_file"]
    saving = re.compile(led["anyOf"][0]["properties"]["thought"]["pattern"].replace("[.]", "."))
    assert saving.fullmatch("next I must save it in a.txt, so I call write_file with a.txt.")  # says what it takes
    assert not saving.fullmatch("next I must save it in a.txt, so I call write_file with the path 'b.txt'.")


def test_a_word_to_take_is_the_whole_value_in_either_case() -> None:
    schema = action_schema({**TOOLS, "calendar": CALCULATOR}, finish=False, takes=("tomorrow",))
    assert names(schema) == ["calculator", "calendar"]
    phrase = re.compile(argument(schema, "calendar", "expression")["pattern"])
    assert all(phrase.fullmatch(text) for text in ("tomorrow", "Tomorrow"))
    assert not phrase.fullmatch("today") and not phrase.fullmatch('{"x": "tomorrow"}')
    assert not phrase.fullmatch("current_datetime() - 1 tomorrow")  # code spilled around it
    assert not phrase.fullmatch("currentdatetime minus 1 day tomorrow")  # words spilled around it


def test_a_phrase_to_take_is_the_whole_value() -> None:
    for taken, good, bad in [("one week from today", ("one week from today", "One week from today"),
                              ("now() + 7 -> one week from today", "one week from today at 3pm")),
                             ("3天后", ("3天后",), ("3+3 3天后", "3天后是几号"))]:
        schema = action_schema({**TOOLS, "calendar": CALCULATOR}, finish=False, takes=(taken,))
        phrase = re.compile(argument(schema, "calendar", "expression")["pattern"])
        assert all(phrase.fullmatch(text) for text in good) and not any(phrase.fullmatch(text) for text in bad)
