"""Text ReAct for models that can't write JSON reliably: Thought / Action / Action Input, or Final Answer."""

from __future__ import annotations

import re
from typing import Any

import json_repair
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from ..reply import FINISH, Action, ReplyParseError, Thought, ThoughtAndAction
from .base import TextProtocol

_THOUGHT = re.compile(r"Thought\s*:\s*(.*?)\s*(?=\n\s*(?:Action|Final Answer)\s*:|\Z)", re.S | re.I)
_ACTION = re.compile(r"Action\s*:\s*(?P<name>[^\n]*?)\s*\n\s*Action\s*Input\s*:\s*(?P<input>.*)", re.S | re.I)
_ACTION_ONLY = re.compile(r"Action\s*:\s*(?P<name>[^\n]+)", re.I)
_FINAL = re.compile(r"Final\s*Answer\s*:\s*(.*)", re.S | re.I)
_INLINE = re.compile(r"\((.+)\)")
_WORD = re.compile(r"[A-Za-z_][\w-]*")
OBSERVATION = "\nObservation:"  # the model stops here: observations are ours to write


class ReActProtocol(TextProtocol):
    """`--protocol react`: the reply is read with a few forgiving regular expressions."""

    name = "react"
    format_template = "react_format"
    first_step_template = "react_first_step_instruction"
    step_template = "react_step_instruction"
    rethink_template = "react_force_rethink"
    failed_rethink_template = "react_force_rethink_failed"
    memory_template = "react_step"
    parse_error_template = "react_parse_error"
    pending_template = "react_pending_mentions"

    def model(self, llm: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The model, stopped before it writes an observation of its own."""
        return llm.bind(stop=[OBSERVATION])

    def decide(self, reply: BaseMessage) -> ThoughtAndAction:
        """An action with its input, or FINISH carrying the final answer."""
        text = reply.text.split(OBSERVATION)[0].strip()
        found = _THOUGHT.search(text)
        thought = Thought(text=found.group(1).strip() if found else "")
        action = _ACTION.search(text)
        if action:
            line = action.group("name")
            name = self._tool_name(line)
            args = self._args(name, action["input"]) or self._inline_args(name, line)
            return ThoughtAndAction(thought=thought, action=Action(name=name, args=args))
        final = _FINAL.search(text)
        if final:
            answer = {"answer": final.group(1).strip()}
            return ThoughtAndAction(thought=thought, action=Action(name=FINISH, args=answer))
        if _ACTION_ONLY.search(text):
            raise ReplyParseError("react_no_action_input", reply.text)
        raise ReplyParseError("react_no_action", reply.text)

    def _tool_name(self, line: str) -> str:
        """The tool an Action line names, also when written as `calculator(expression: ...)` or in prose."""
        words = _WORD.findall(line)
        known = next((word for word in words if self.toolbox.find(word) is not None), None)
        return known or (words[0] if words else line.strip())

    def _inline_args(self, name: str, line: str) -> dict[str, Any]:
        """Arguments written on the Action line itself: `calculator(expression: "2*3")` or `delete_file("a")`."""
        inside = _INLINE.search(line)
        if inside is None:
            return {}
        text = inside.group(1)
        return self._args(name, "{" + text + "}" if ":" in text else text)

    def _args(self, name: str, raw: str) -> dict[str, Any]:
        """The Action Input as arguments: a JSON object, or plain text for a one-argument tool."""
        raw = raw.strip().strip("`").removeprefix("json").strip()
        try:
            parsed = json_repair.loads(raw) if raw else {}
        except RecursionError:  # nested too deep to read: taken as text
            parsed = raw
        if isinstance(parsed, dict):
            return parsed
        tool = self.toolbox.tools.get(name)
        fields = list(tool.args) if tool is not None else []
        if len(fields) == 1:  # `Action Input: 2*3` for calculator(expression); what follows is not input
            return {fields[0]: raw.splitlines()[0].strip("'\"")}
        return {"input": raw}
