"""Typed answers: the final answer held to a schema (`AgentOptions(output_type=...)`, `--output-schema FILE`). The
finish prompt asks for one JSON value that follows it, the model writing it is held to it where the backend can
(llama.cpp's grammar for the embedded model, a server's structured output), and the answer is checked last of all
the checks: an invalid one is sent back once with what is wrong, then the run ends unverified with it shown.
`RunResult.output` holds the value (an instance of the pydantic model, where one was given)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable
from pydantic import TypeAdapter, ValidationError

from .checks import CheckContext, NamedCheck, Verdict
from .errors import ConfigurationError
from .llm import FREE_REPLIES
from .llm.constrained import bind_json_schema
from .prompts import PromptTemplateBuilder

NAME = "output"  # the name the check's verdicts carry in the transcript
_FENCE = re.compile(r"^```[\w-]*\s*\n?|\n?\s*```$")


class InvalidOutput(ValueError):
    """An answer that is no JSON value, or one the schema does not accept: what is wrong, in one line."""


@dataclass(frozen=True)
class OutputType:
    """What the final answer must be: a JSON value `schema` accepts; `model` (a pydantic model, or any type pydantic
    can validate) gives the parsed value its type."""

    schema: dict[str, Any]
    model: Any = None

    @classmethod
    def of(cls, output_type: Any) -> OutputType:
        """From a pydantic model (or any type pydantic validates: `list[int]`) or a JSON Schema as a dict."""
        if isinstance(output_type, OutputType):
            return output_type
        if isinstance(output_type, dict):
            try:
                jsonschema.Draft202012Validator.check_schema(output_type)
            except jsonschema.SchemaError as err:
                raise ConfigurationError(f"the output schema is not a valid JSON Schema: {err.message}") from err
            return cls(output_type)
        try:
            return cls(TypeAdapter(output_type).json_schema(), output_type)
        except Exception as err:  # pydantic says why in its own words
            raise ConfigurationError(f"output_type {output_type!r} has no JSON Schema: {err}") from err

    @classmethod
    def from_file(cls, path: Path) -> OutputType:
        """The JSON Schema in `path` (`--output-schema`)."""
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise ConfigurationError(f"cannot read the output schema {path}: {err}") from err
        if not isinstance(schema, dict):
            raise ConfigurationError(f"the output schema {path} is not a JSON object (a JSON Schema)")
        return cls.of(schema)

    def parse(self, answer: str) -> Any:
        """The value `answer` gives (in a code fence or not); InvalidOutput says what is wrong."""
        text = _FENCE.sub("", answer.strip()).strip()
        try:
            value = json.loads(text)
        except ValueError as err:
            raise InvalidOutput(f"the answer is not one JSON value ({err})") from err
        if self.model is not None:
            try:
                return TypeAdapter(self.model).validate_python(value)
            except ValidationError as err:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'the value'}: {e['msg']}"
                                     for e in err.errors())
                raise InvalidOutput(problems) from err
        errors = sorted(jsonschema.Draft202012Validator(self.schema).iter_errors(value), key=lambda e: e.path)
        if errors:
            raise InvalidOutput("; ".join(f"{'.'.join(map(str, e.path)) or 'the value'}: {e.message}"
                                          for e in errors[:5]))
        return value

    def admits(self, answer: str) -> bool:
        """Whether `answer` is a value of this type (a check's answer that is not may not replace the model's)."""
        try:
            self.parse(answer)
        except InvalidOutput:
            return False
        return True

    def shown(self) -> str:
        """The schema as the finish prompt shows it."""
        return json.dumps(self.schema, ensure_ascii=False)

    def check(self, prompts: PromptTemplateBuilder) -> NamedCheck:
        """The check of a finish against the schema: an invalid answer is sent back once, then stops the run."""

        def output(context: CheckContext) -> Verdict:
            try:
                self.parse(context.answer)
            except InvalidOutput as err:
                note = prompts.render("output_invalid", problem=str(err), schema=self.shown()).strip()
                return Verdict.send_back(note) if context.sent_back == 0 else Verdict.stop(note)
            return Verdict.accept()

        return NamedCheck(NAME, output)


def held_to_schema(llm: BaseChatModel, schema: dict[str, Any]) -> Runnable[Any, BaseMessage]:
    """`llm` held to `schema` as it writes: llama.cpp's grammar for the embedded model, a server's structured
    output (an OpenAI-compatible server of one's own, or OpenAI's `json_schema` response format); else `llm` as it
    is, its answer checked all the same."""
    from langchain_openai import ChatOpenAI

    from .llm.openai_compatible import json_schema_bound

    held = bind_json_schema(llm, schema)
    if held is not None:
        return held
    if isinstance(llm, ChatOpenAI) and not (llm.metadata or {}).get(FREE_REPLIES):
        return json_schema_bound(llm, schema, "answer")
    return llm
