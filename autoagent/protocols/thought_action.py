"""The AutoGPT protocol: a Thought/Action JSON object each step; FINISH hands over to the finish prompt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from ..acting.toolbox import Toolbox
from ..llm.constrained import bind_json_schema
from ..prompts import PromptTemplateBuilder
from ..reply import ThoughtActionParser, ThoughtAndAction
from .base import TextProtocol


class ThoughtActionProtocol(TextProtocol):
    """`--protocol json`: the reply is parsed leniently by ThoughtActionParser."""

    name = "json"
    format_template = "json_format"
    first_step_template = "first_step_instruction"
    step_template = "step_instruction"
    rethink_template = "force_rethink"
    failed_rethink_template = "force_rethink_failed"
    memory_template = "memory_step"

    def __init__(
        self, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str], compact: bool = False
    ) -> None:
        self.parser = ThoughtActionParser(compact=compact, prompts=prompts)
        super().__init__(prompts, toolbox, identity)

    def format_instruction(self) -> str:
        """The generated example and field meanings, wrapped by json_format.templ."""
        return self.prompts.render(self.format_template, schema=self.parser.get_format_instructions()).strip()

    def model(self, llm: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The model held from the first reply to a reply this protocol reads (one of the tools with its own
        arguments, or FINISH) where the backend offers constrained decoding; else free."""
        return self.strict_model(llm) or llm

    def strict_model(self, llm: BaseChatModel, finish: bool = True) -> Runnable[Any, BaseMessage] | None:
        """The model held to the reply's JSON schema (the tool names and each tool's arguments; FINISH unless
        `finish` is False) by the backend's constrained decoding (llama.cpp's grammar for the embedded model);
        None where it has none."""
        tools = {name: self.toolbox.args_schema(name) for name in self.toolbox.tools}
        return bind_json_schema(llm, self.parser.json_schema(tools, finish))

    def guided_model(
        self, llm: BaseChatModel, thought_start: str, takes: Sequence[str] = (), avoid: str = "",
        only: str = "",
    ) -> Runnable[Any, BaseMessage] | None:
        """The model held to a tool call (no FINISH, not of `avoid`, of `only` if given) whose one-sentence thought
        begins with `thought_start` and names the tool, and whose arguments take one of `takes`, where the backend
        offers constrained decoding and thoughts are compact; else None."""
        tools = {name: self.toolbox.args_schema(name) for name in self.toolbox.tools
                 if name != avoid and (not only or name == only)}
        if not self.parser.compact or not tools:
            return None
        schema = self.parser.json_schema(tools, finish=False, thought_start=thought_start, takes=takes)
        return bind_json_schema(llm, schema)

    def decide(self, reply: BaseMessage) -> ThoughtAndAction:
        """Parse the Thought/Action object."""
        return self.parser.parse(reply.text)

    def final_answer(self, decision: ThoughtAndAction) -> str | None:
        """Always None: the finish prompt writes the answer from the steps, as in AutoGPT."""
        return None
