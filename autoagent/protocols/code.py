"""Code as the action: each step the model writes a short Python program in a fenced block, which the python tool
runs in the workspace (sandboxed); a `Final Answer:` line ends the task with its answer. A coder model writes a
program more reliably than it works a number or a file out in its head, and a fenced block spares it escaping the
program into a JSON string (smolagents' CodeAgent writes its actions as code for the same reasons)."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from ..acting.toolbox import Toolbox
from ..errors import ConfigurationError
from ..memory.short_term import REPLY_CHARS
from ..prompts import PromptTemplateBuilder
from ..reply import FINISH, Action, ReplyParseError, Thought, ThoughtAndAction
from ..steps import Step
from .base import TextProtocol, Turn
from .react import OBSERVATION

TOOL = "python"  # the tool that runs each program
FENCE = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*\n(?P<code>.*?)(?:```|\Z)", re.S | re.I)
_FINAL = re.compile(r"^[ \t]*Final\s*Answer\s*[:：]\s*(?P<answer>.*)", re.S | re.I | re.M)
_THOUGHT = re.compile(r"^\s*Thought\s*[:：]\s*", re.I)


class CodeProtocol(TextProtocol):
    """`--protocol code`: a Thought line, then a ```python block to run, or a Final Answer."""

    name = "code"
    main_template = "code_main"
    format_template = "code_format"
    first_step_template = "code_first_step_instruction"
    step_template = "code_step_instruction"
    rethink_template = "code_force_rethink"
    failed_rethink_template = "code_force_rethink_failed"
    failed_step_template = "code_failed_step_instruction"
    memory_template = "code_step"  # a program that ran; code_answer_step: an answer; code_reply_step: unreadable
    parse_error_template = "code_parse_error"
    pending_template = "code_pending_mentions"

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str]) -> None:
        if toolbox.find(TOOL) is None:
            raise ConfigurationError("--protocol code runs Python programs: it needs the python tool, which runs "
                                     "under bubblewrap (sudo apt-get install bubblewrap) or --python-sandbox none")
        super().__init__(prompts, toolbox, identity)

    def model(self, llm: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The model, stopped before it writes an observation of its own."""
        return llm.bind(stop=[OBSERVATION])

    def decide(self, reply: BaseMessage) -> ThoughtAndAction:
        """The first program of the reply, or its final answer when that comes first."""
        text = reply.text.split(OBSERVATION)[0].strip()
        block, final = FENCE.search(text), _FINAL.search(text)
        if block and block.group("code").strip() and (final is None or block.start() < final.start()):
            thought = _thought(text[:block.start()])
            return ThoughtAndAction(thought=thought, action=Action(name=TOOL, args={"code": block["code"].strip()}))
        if final and final["answer"].strip():
            thought = _thought(text[:final.start()])
            return ThoughtAndAction(thought=thought, action=Action(name=FINISH, args={"answer": final["answer"]}))
        raise ReplyParseError("code_no_action", reply.text)

    def memory_text(self, turn: Turn) -> str:
        """The steps so far, each as the model would have written it: a program, or a final answer, and then what
        came of it."""
        steps = turn.memory.shown(self.prompts)
        if not steps and not turn.memory.omitted:
            return self.prompts.render("empty_memory").strip()
        blocks = [self._block(step) for step in steps]
        note = turn.memory.trim_note(self.prompts)
        return "\n".join([note, *blocks] if note else blocks)

    def _block(self, step: Step) -> str:
        action, observation = step.action, step.observation
        thought = step.decision.thought.text if step.decision else ""
        if action is not None and action.name == TOOL:
            code = str(action.args.get("code", ""))
            return self.prompts.render("code_step", thought=thought, code=code, observation=observation).strip()
        if action is not None and action.name == FINISH:
            answer = str(action.args.get("answer", ""))
            return self.prompts.render("code_answer_step", thought=thought, answer=answer,
                                       observation=observation).strip()
        reply = step.reply.strip()[:REPLY_CHARS]
        return self.prompts.render("code_reply_step", reply=reply, observation=observation).strip()


def _thought(text: str) -> Thought:
    """What the model wrote before its program or answer, without the `Thought:` label."""
    return Thought(text=_THOUGHT.sub("", text.strip()).strip())
