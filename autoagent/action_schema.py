"""The JSON schema of an action, for constrained decoding: one of the tools with its own arguments, or FINISH; and,
for a task led to its next part, a call that takes the value that part gives."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

FINISH = "FINISH"
# An argument named like one of these holds a file, folder or web address; any other string argument a value.
PATH_ARG = re.compile(r"path|file|folder|dir|source|dest|target|url|address|link", re.I)
FILE_NAME = re.compile(r"[\w\-]+\.[A-Za-z][A-Za-z0-9]{1,9}")  # an extension of 2-10 letters and digits
_FOLDER_NAME = re.compile(r"[\w\-]+/")  # a folder the task names, as the referee writes it ("archive/")
_NAME_PATTERN = re.compile(r"\*\.\w+")  # every file of a kind the task names, as the referee writes it ("*.tmp")
_FOLDERS = "([.][/])?([A-Za-z0-9_\\-]{1,40}[/]){0,4}"  # the folders a held file name may be in: no other text
_TEXT = '[^"\\\\\\n]'  # a character a JSON string holds unescaped: no quote, backslash or line break
_PLAIN = '[^"\\\\\\n{}]'  # one such that is no brace either
_EDGE = '[^0-9."\\\\\\n{}]'  # one such that is no digit, point or brace either
_SPACED = '( ?[^ "\\\\\\n])'  # one such that is no space, after at most one space: a led thought does not run on blank
LED_TAIL_CHARS = 120  # what a led thought may say after the tool's name
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
HELD_CHARS = 80  # what a held argument may hold around the number it takes


def literal_pattern(text: str) -> str:
    """`text` as a regular expression matching itself, in the subset llama.cpp's schema converter reads (each
    special character in a class of its own)."""
    special, escaped = ".^$*+?()[]{}|\\", "^]\\"
    return "".join(("[\\" + char + "]" if char in escaped else "[" + char + "]") if char in special else char
                   for char in text)


def action_schema(
    tools: Mapping[str, dict[str, Any]], finish: bool = True, takes: Sequence[str] = ()
) -> dict[str, Any]:
    """An action that is one of `tools` (name: its argument schema) with arguments of that schema, or FINISH
    unless `finish` is False. With `takes` (what the task's next part gives, and the result so far), only a call
    with one of them in its arguments: a task in parts is led on, not back to the call before. Where no tool can
    take any of them, any call."""
    choices = dict(tools)
    if finish:
        choices[FINISH] = {"type": "object", "properties": {}, "additionalProperties": False}
    return {"anyOf": list(_actions(choices, takes).values())}


def guided_schema(tools: Mapping[str, dict[str, Any]], thought_start: str, takes: Sequence[str],
                  thought_chars: int, article: str = "") -> dict[str, Any]:
    """A reply whose thought begins with `thought_start` ("... next I must subtract the fee from the total, so I call")
    and goes on with the name of the tool it calls, after `article` if it likes ("the calculator"), then that
    call (taking one of `takes`, see `action_schema`): the model names the tool right after the words of the part
    to do, where it chooses best. A call held to take one name or phrase (a file, a folder, a day in words) ends
    its thought by saying so ("... so I call delete_file with *.tmp"), where a small model would restate the
    wrong value it tried before."""
    joiner = " " if thought_start[-1:].isascii() else ""
    start = literal_pattern(f"{thought_start}{joiner}")
    optional = f"({literal_pattern(article + joiner)})?" if article else ""
    said = takes[0] if len(takes) == 1 and not _NUMBER.fullmatch(takes[0]) else ""
    replies = []
    for name, action in _actions(tools, takes).items():
        rest = min(max(thought_chars - len(thought_start) - len(article) - len(name) - 2, 0), LED_TAIL_CHARS) // 2
        tail = f"{_SPACED}{{0,{rest}}}"
        if said and _action_taking(name, tools[name], takes) is not None:
            tail = f"{literal_pattern(f' with {said}')}[.]?"
        thought = {"type": "string", "pattern": f"^{start}{optional}{literal_pattern(name)}{tail}$"}
        replies.append({"type": "object", "properties": {"thought": thought, "action": action},
                        "required": ["thought", "action"]})
    return {"anyOf": replies}


def call_schema(tools: Mapping[str, dict[str, Any]], takes: Sequence[str]) -> dict[str, Any]:
    """A native tool call written as the object a model's text calls are read from (`{"name": ..., "arguments":
    {...}}`): one of `tools`, held to take one of `takes` where any can (see `action_schema`)."""
    calls = []
    for action in _actions(tools, takes).values():
        properties = dict(action["properties"])
        properties["arguments"] = properties.pop("args")
        calls.append({**action, "properties": properties, "required": ["name", "arguments"]})
    return {"anyOf": calls}


def _actions(tools: Mapping[str, dict[str, Any]], takes: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each tool's action schema, by name: only the tools that can take one of `takes`, held to take it, where
    any can."""
    held = {name: one for name, args in tools.items() if (one := _action_taking(name, args, takes)) is not None}
    return held or {name: _one_action(name, args) for name, args in tools.items()}


def _one_action(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The action calling `name`: its arguments exactly as the tool declares them (any object for a schema with
    references, which a nested grammar can't resolve)."""
    if not _plainly_typed(args):
        arguments: dict[str, Any] = {"type": "object"}
    else:
        properties = {key: _plain(value) for key, value in args.get("properties", {}).items()}
        arguments = {"type": "object", "properties": properties, "required": list(args.get("required", [])),
                     "additionalProperties": False}
    return _named(name, arguments)


def _action_taking(name: str, args: dict[str, Any], takes: Sequence[str]) -> dict[str, Any] | None:
    """The action calling `name` with one of `takes` in one of the arguments it requires (its inputs; each that
    can hold one is a choice), or None when none can: a file name goes in a path-like string argument; a number
    or a word goes in any other string argument (within an expression or a text), a number also as the value of
    a numeric one, of a tool that needs no path or address."""
    if not _plainly_typed(args):
        return None
    properties = {key: _plain(value) for key, value in args.get("properties", {}).items()}
    required = args.get("required", [])
    files = [item for item in takes if FILE_NAME.fullmatch(item) or _FOLDER_NAME.fullmatch(item)
             or _NAME_PATTERN.fullmatch(item)]
    # a value to work with (a number, a word such as "tomorrow") goes to a tool that works from values, not to one
    # that reads or writes a place
    values = [] if any(PATH_ARG.search(key) for key in required) else [item for item in takes if item not in files]
    choices = []
    for key in required:
        held = _holding(key, properties.get(key), files, values)
        if held is not None:
            choices.append({"type": "object", "properties": {**properties, key: held}, "required": required,
                            "additionalProperties": False})
    if not choices:
        return None
    return _named(name, choices[0] if len(choices) == 1 else {"anyOf": choices})


def _holding(key: str, schema: Any, files: list[str], values: list[str]) -> dict[str, Any] | None:
    """The schema of argument `key` held to take one of `files` or `values`, or None when it can't."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    numbers = [item for item in values if _NUMBER.fullmatch(item)]
    if kind == "string" and PATH_ARG.search(key):
        if not files:
            return None
        # the name itself, or at the end of a path; a folder ("archive/") also with a path inside it
        # a file name in folders or not, a folder ("archive/") with a path inside it or not; a pattern ("*.tmp") as
        # it is (before it, a model wrote ".tmpASTI000/")
        names = "|".join(literal_pattern(item) if item.startswith("*")
                         else f"{_FOLDERS}{literal_pattern(item[:-1])}([/]{_PLAIN}{{0,{HELD_CHARS}}})?"
                         if item.endswith("/") else f"{_FOLDERS}{literal_pattern(item)}" for item in files)
        return {"type": "string", "pattern": f"^({names})$"}
    if kind == "string" and values:
        # in a plain value (no braces, where a model that can't close the string would spill the reply format): a
        # number standing alone, not a part of a longer one ("4" is in "710 / 4", not in "74" or "4.5"); a word or
        # a phrase (a day such as "yesterday", "one week from today") as the whole value, its first letter in either
        # case (around it the model spilled its last call and result, or code such as "now() - 1")
        around = f"{_PLAIN}{{0,{HELD_CHARS}}}"
        forms = [f"({around}{_EDGE})?{literal_pattern(item)}({_EDGE}{around})?" if item in numbers
                 else _either_case(item) for item in values]
        return {"type": "string", "pattern": f"^({'|'.join(forms)})$"}
    if kind in ("integer", "number") and numbers:
        fitting = [int(number) if kind == "integer" else number for number in map(float, numbers)
                   if kind == "number" or number.is_integer()]
        return {"type": kind, "enum": fitting} if fitting else None
    return None


def _either_case(word: str) -> str:
    """`word` as a pattern whose first letter may be a capital ("[tT]omorrow")."""
    first = word[:1]
    if first.lower() == first.upper():
        return literal_pattern(word)
    return f"[{first.lower()}{first.upper()}]{literal_pattern(word[1:])}"


def _named(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The action object: this tool's name and these arguments."""
    return {"type": "object", "properties": {"name": {"const": name}, "args": arguments},
            "required": ["name", "args"], "additionalProperties": False}


def _plainly_typed(args: dict[str, Any]) -> bool:
    """True when an argument schema is an object without references (a nested grammar can't resolve those)."""
    return "$ref" not in json.dumps(args) and args.get("type", "object") == "object"


def _plain(schema: Any) -> Any:
    """A property schema without the keys a grammar does not use (titles, descriptions, defaults)."""
    if isinstance(schema, dict):
        return {key: _plain(value) for key, value in schema.items() if key not in ("title", "description", "default")}
    if isinstance(schema, list):
        return [_plain(item) for item in schema]
    return schema
