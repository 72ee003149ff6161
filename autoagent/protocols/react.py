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
OBSERVATION = "\nObservation:"  # the model stops here: observations are ours to write


class ReActProtocol(TextProtocol):
    """`--protocol react`: the reply is read with a few forgiving regular expressions."""

    name = "react"
    format_template = "react_format"
    step_template = "react_step_instruction"
    rethink_template = "react_force_rethink"
    memory_template = "react_step"
    parse_error_template = "react_parse_error"

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
            name = action.group("name").strip(" `'\"*")
            return ThoughtAndAction(thought=thought, action=Action(name=name, args=self._args(name, action["input"])))
        final = _FINAL.search(text)
        if final:
            answer = {"answer": final.group(1).strip()}
            return ThoughtAndAction(thought=thought, action=Action(name=FINISH, args=answer))
        if _ACTION_ONLY.search(text):
            raise ReplyParseError("an 'Action:' line needs an 'Action Input:' line after it", reply.text)
        raise ReplyParseError("no 'Action:' with 'Action Input:', and no 'Final Answer:'", reply.text)

    def _args(self, name: str, raw: str) -> dict[str, Any]:
        """The Action Input as arguments: a JSON object, or plain text for a one-argument tool."""
        raw = raw.strip().strip("`").removeprefix("json").strip()
        parsed = json_repair.loads(raw) if raw else {}
        if isinstance(parsed, dict):
            return parsed
        tool = self.toolbox.tools.get(name)
        fields = list(tool.args) if tool is not None else []
        if len(fields) == 1:  # `Action Input: 2*3` for calculator(expression)
            return {fields[0]: raw.strip("'\"")}
        return {"input": raw}
