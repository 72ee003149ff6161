"""Native tool calling: tools bound with `bind_tools`, results sent back as tool messages tied to the call id."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field, create_model

from ..acting.toolbox import Toolbox
from ..action_schema import call_schema
from ..errors import ConfigurationError
from ..llm.constrained import bind_tools_held
from ..llm.tokens import estimate_tokens
from ..prompts import PromptTemplateBuilder
from ..reply import FINISH, Action, ReplyParseError, Thought, ThoughtAndAction
from ..steps import Step
from .base import Protocol, Turn, pending_note

FINAL_ANSWER = "final_answer"


def final_answer_tool(prompts: PromptTemplateBuilder) -> BaseTool:
    """The `final_answer` tool that ends the task, described in the language of `prompts`."""

    def final_answer(answer: str) -> str:
        return answer

    arguments = create_model(FINAL_ANSWER, answer=(str, Field(description=prompts.render("final_answer_arg").strip())))
    description = prompts.render("final_answer_tool").strip()
    return StructuredTool.from_function(final_answer, name=FINAL_ANSWER, description=description, args_schema=arguments)


def optional_arguments(tool: BaseTool) -> dict[str, Any]:
    """The tool's function schema with every argument optional: the toolbox, not the model, says what is
    missing, so the model asks or computes instead of inventing a value."""
    schema = convert_to_openai_tool(tool)
    schema["function"].get("parameters", {}).pop("required", None)
    return schema


class ToolCallingProtocol(Protocol):
    """`--protocol tools`: the model's function-calling API; `final_answer` ends the task."""

    name = "tools"
    parse_error_template = "tools_no_call"

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str]) -> None:
        super().__init__(prompts, toolbox, identity)
        self._system = prompts.render("tools_system", **identity).strip()
        self._rethink = prompts.render("tools_force_rethink").strip()
        self._failed_rethink = prompts.render("tools_force_rethink_failed").strip()
        finish = convert_to_openai_tool(final_answer_tool(prompts))
        self._schemas = [*(optional_arguments(tool) for tool in toolbox.tools.values()), finish]

    def fixed_tokens(self) -> int:
        """The bound tool schemas, which reach the model beside the messages."""
        return estimate_tokens(json.dumps(self._schemas))

    def model(self, llm: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The model with every tool and `final_answer` bound."""
        try:
            return llm.bind_tools(self._schemas)
        except NotImplementedError as err:
            raise ConfigurationError(
                f"{type(llm).__name__} has no native tool calling: use --protocol json or react"
            ) from err

    def guided_model(
        self, llm: BaseChatModel, thought_start: str, takes: Sequence[str] = (), avoid: str = "",
        only: str = "",
    ) -> Runnable[Any, BaseMessage] | None:
        """The model held to one call of a tool (not of `avoid`, of `only` if given) whose arguments take one of
        `takes`, where the backend writes its calls as text under constrained decoding (the embedded model); a
        native call has no thought to start."""
        tools = {name: self.toolbox.args_schema(name) for name in self.toolbox.tools
                 if name != avoid and (not only or name == only)}
        if not tools:
            return None
        bound = [convert_to_openai_tool(schema) for schema in self._schemas]
        return bind_tools_held(llm, bound, call_schema(tools, takes))

    def messages(self, turn: Turn) -> list[BaseMessage]:
        """System prompt, the task, then each remembered step as a tool call and its result."""
        task = self.prompts.render(
            "tools_task", task_description=turn.shown_task, long_term_memory=turn.long_term_memory
        ).strip()
        messages: list[BaseMessage] = [SystemMessage(self._system), HumanMessage(task)]
        note = turn.memory.trim_note(self.prompts)
        if note:
            messages.append(HumanMessage(note))
        shown = turn.memory.shown(self.prompts)
        carried = {step.number for step in shown}  # a step whose reply made later calls too: sent back as one
        for index, step in enumerate(shown):
            if step.in_reply_of in carried:
                continue  # sent with the step whose reply made it
            group = [step] + [later for later in shown[index + 1:] if later.in_reply_of == step.number]
            messages += self._exchange(group)
        if turn.rethink:
            messages.append(HumanMessage(self._failed_rethink if turn.failed else self._rethink))
        elif turn.advice.mentions:
            messages.append(HumanMessage(pending_note(self.prompts, turn).strip()))
        return messages

    @staticmethod
    def _exchange(group: Sequence[Step]) -> list[BaseMessage]:
        """One reply and what came of it: its tool calls, each result as a tool message under its call's id."""
        step = group[0]
        calls = [(member, member.action) for member in group if member.action is not None and member.action.call_id]
        if not calls:  # a reply without a tool call, and what we said to it
            return [AIMessage(step.reply), HumanMessage(step.observation)]
        tool_calls = [{"name": FINAL_ANSWER if action.name == FINISH else action.name,  # as the model called it
                       "args": action.args, "id": action.call_id, "type": "tool_call"} for _, action in calls]
        return [AIMessage(step.reply, tool_calls=tool_calls),
                *(ToolMessage(member.observation, tool_call_id=action.call_id) for member, action in calls)]

    def decide(self, reply: BaseMessage) -> ThoughtAndAction:
        """The first tool call of the reply; `final_answer` becomes FINISH."""
        return self.decide_all(reply)[0]

    def decide_all(self, reply: BaseMessage) -> list[ThoughtAndAction]:
        """Every tool call of the reply, in order, each with its call id; `final_answer` becomes FINISH."""
        calls = getattr(reply, "tool_calls", None) or []
        if not calls:
            broken = getattr(reply, "invalid_tool_calls", None) or []
            if broken:
                call = broken[0]
                raise ReplyParseError("tools_unreadable_call", reply.text, tool=str(call.get("name")),
                                      error=str(call.get("error")))
            raise ReplyParseError("tools_called_none", reply.text)
        decisions = []
        for call in calls:
            name = FINISH if call["name"] == FINAL_ANSWER else call["name"]
            call_id = call.get("id") or f"call_{uuid.uuid4().hex[:12]}"
            thought = Thought(text=reply.text.strip() or f"call {call['name']}")
            decisions.append(ThoughtAndAction(thought=thought,
                                              action=Action(name=name, args=call.get("args") or {}, call_id=call_id)))
        return decisions
