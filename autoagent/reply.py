"""What the model replies each step (a Thought and an Action) and how the reply is parsed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import json_repair
from langchain_core.exceptions import OutputParserException
from langchain_core.output_parsers import BaseOutputParser
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from .action_schema import FINISH, action_schema, guided_schema
from .errors import PromptTemplateError
from .prompts import PromptTemplateBuilder, english_prompts
from .text import encodable

COMPACT_THOUGHT_CHARS = 300  # a one-sentence thought, with room to spare


# What each field means, for the model, is in prompts/<lang>/reply_fields.templ.
class Thought(BaseModel):
    """The model's reasoning for this step; only `text` is required."""

    text: str = Field(examples=["..."])
    reasoning: str = Field("", examples=["..."])
    plan: list[str] = Field(default_factory=list, examples=[["..."]])
    criticism: str = Field("", examples=["..."])
    speak: str = Field("", examples=["..."])

    @field_validator("plan", mode="before")
    @classmethod
    def _plan_from_text(cls, value: Any) -> Any:
        # Models often write the plan as one string with one step a line, or put objects in it.
        if isinstance(value, str):
            return [line.strip(" -*\t") for line in value.splitlines() if line.strip(" -*\t")]
        if isinstance(value, list):
            return [item if isinstance(item, str) else json.dumps(item, ensure_ascii=False) for item in value]
        return value

    @field_validator("text", "reasoning", "criticism", "speak", mode="before")
    @classmethod
    def _none_as_empty(cls, value: Any) -> Any:
        return "" if value is None else value


class Action(BaseModel):
    """The tool to run next and its arguments; `FINISH` ends the task."""

    name: str = Field(examples=["tool_name"])
    args: dict[str, Any] = Field(default_factory=dict, examples=[{"arg_name": "value"}])
    call_id: str = Field("", exclude=True)  # the id of a native tool call; never asked of the model
    _signature: str | None = PrivateAttr(None)

    @field_validator("args", mode="before")
    @classmethod
    def _args_from_text(cls, value: Any) -> Any:
        if value is None or value == "":
            return {}
        if isinstance(value, str):
            repaired = json_repair.loads(value)
            return repaired if isinstance(repaired, dict) else value
        return value

    def signature(self) -> str:
        """A canonical text of name and arguments, used to spot a repeated action (computed once: a parsed
        action does not change)."""
        if self._signature is None:
            self._signature = f"{self.name.strip().lower()} {json.dumps(self.args, sort_keys=True, default=str)}"
        return self._signature


class ThoughtAndAction(BaseModel):
    """One step's reply: what the model thinks and what it does."""

    thought: Thought
    action: Action

    @model_validator(mode="before")
    @classmethod
    def _accept_light_shapes(cls, data: Any) -> Any:
        # A one-string thought and a bare tool name are accepted beside the full shape.
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if isinstance(data.get("thought"), str):
            data["thought"] = {"text": data["thought"]}
        if isinstance(data.get("action"), str):
            data["action"] = {"name": data["action"], "args": data.pop("args", {})}
        return data

    def is_finish(self) -> bool:
        """True when the action is FINISH (any letter case)."""
        return self.action.name.strip().upper() == FINISH


def _example(model: type[BaseModel]) -> dict[str, Any]:
    """An example object built from each field's first example."""
    example: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            example[name] = _example(annotation)
        else:
            example[name] = (field.examples or [""])[0]
    return example


def _field_paths(model: type[BaseModel], prefix: str = "") -> list[str]:
    """The dotted path of each leaf field the model writes."""
    paths: list[str] = []
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            paths += _field_paths(annotation, f"{prefix}{name}.")
        else:
            paths.append(f"{prefix}{name}")
    return paths


def field_meanings(prompts: PromptTemplateBuilder) -> dict[str, str]:
    """What each field of the reply means (dotted path: meaning), from reply_fields.templ; every field needs one."""
    text = prompts.render("reply_fields", finish=FINISH)
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    meanings = {path.strip(): meaning.strip() for path, meaning in pairs}
    missing = [path for path in _field_paths(ThoughtAndAction) if path not in meanings]
    if missing:
        raise PromptTemplateError(f"reply_fields.templ: no meaning for {', '.join(missing)}")
    return meanings


def describe_validation_error(err: ValidationError) -> str:
    """Each problem as `field.path: message`, joined by semicolons, for the model to read."""
    return "; ".join(f"{'.'.join(str(part) for part in e['loc']) or 'reply'}: {e['msg']}" for e in err.errors())


class ReplyParseError(OutputParserException):
    """A reply that is not a valid Thought/Action object. What the model reads is the template `reason`
    (prompts/<lang>/) filled with `details`; `problem` is that text in English."""

    def __init__(self, reason: str, reply: str, **details: str) -> None:
        self.reason = reason
        self.details = details
        self.problem = self.explain(english_prompts())
        super().__init__(self.problem, llm_output=reply)

    def explain(self, prompts: PromptTemplateBuilder) -> str:
        """What is wrong with the reply, in the language of `prompts`."""
        return prompts.render(self.reason, **self.details).strip()


class ThoughtActionParser(BaseOutputParser[ThoughtAndAction]):
    """Parses a reply leniently: code fences, prose around it, single quotes, trailing commas,
    truncated JSON. `compact` asks for a one-string thought (cheaper for small models); both
    shapes are always accepted."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    compact: bool = False
    # The language of the field meanings in the format instructions.
    prompts: PromptTemplateBuilder = Field(default_factory=english_prompts, exclude=True)

    def parse(self, text: str) -> ThoughtAndAction:
        """Return the reply's ThoughtAndAction or raise ReplyParseError saying what is wrong."""
        try:
            data = json_repair.loads(text) if text.strip() else ""
            if not text.isascii() or "\\u" in text:  # only then can the data hold a lone surrogate: U+FFFD
                data = json.loads(encodable(json.dumps(data, ensure_ascii=False)))
        except RecursionError:  # nested too deep for any JSON reader: the model hears it and tries again
            raise ReplyParseError("reply_too_deep", text) from None
        if isinstance(data, list):  # wrapped in a list, or split in parts: {"thought": ...} {"action": ...}
            parts = [item for item in data if isinstance(item, dict)]
            data = {key: value for part in reversed(parts) for key, value in part.items()} if parts else data
        if not isinstance(data, dict) or not data:
            raise ReplyParseError("reply_no_json", text)
        try:
            return ThoughtAndAction.model_validate(data)
        except ValidationError as err:
            raise ReplyParseError("reply_invalid", text, problems=describe_validation_error(err)) from err

    def json_schema(
        self, tools: Mapping[str, dict[str, Any]] | None = None, finish: bool = True, thought_start: str = "",
        takes: Sequence[str] = (),
    ) -> dict[str, Any]:
        """The reply's JSON schema, from the models, for constrained decoding. A compact thought is bounded so a
        rambling model still reaches its action; with `tools` (name: argument schema) the action is one of them,
        with its own arguments, or FINISH (unless `finish` is False). With `thought_start` too (compact thoughts
        only), a tool call led to the task's next part: see `guided_schema`."""
        if not self.compact and tools is None:
            return ThoughtAndAction.model_json_schema(mode="serialization")
        if thought_start and self.compact and tools is not None:
            article = self.prompts.render("led_tool_article").strip()  # "so I call the calculator"
            return guided_schema(tools, thought_start, takes, COMPACT_THOUGHT_CHARS, article)
        thought: dict[str, Any] = (
            {"type": "string", "maxLength": COMPACT_THOUGHT_CHARS} if self.compact
            else Thought.model_json_schema(mode="serialization")
        )
        action = Action.model_json_schema(mode="serialization") if tools is None else action_schema(tools, finish)
        return {"type": "object", "properties": {"thought": thought, "action": action},
                "required": ["thought", "action"]}

    def get_format_instructions(self) -> str:
        """A compact example and the meaning of each field, generated from the models."""
        meanings = field_meanings(self.prompts)
        if not self.compact:
            example = json.dumps(_example(ThoughtAndAction), ensure_ascii=False)
            lines = [f"{path}: {meanings[path]}" for path in _field_paths(ThoughtAndAction)]
            return example + "\n" + "\n".join(lines)
        text = Thought.model_fields["text"]
        example = json.dumps({"thought": (text.examples or [""])[0], "action": _example(Action)}, ensure_ascii=False)
        lines = [f"thought: {meanings['thought.text']}"]
        lines += [f"{path}: {meanings[path]}" for path in _field_paths(Action, "action.")]
        return example + "\n" + "\n".join(lines)

    @property
    def _type(self) -> str:
        return "thought_and_action"
