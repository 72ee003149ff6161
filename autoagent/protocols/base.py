"""The protocol interface, and the shared part of the two text protocols (JSON and ReAct)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import Runnable

from ..acting.toolbox import Toolbox
from ..advice import Advice
from ..errors import PromptTemplateError
from ..memory.short_term import ShortTermMemory
from ..prompts import PromptTemplateBuilder, format_prompt
from ..reply import ReplyParseError, ThoughtAndAction

STEP_VARIABLES = {"task_description", "long_term_memory", "short_term_memory", "step_instruction"}


@dataclass(frozen=True)
class Turn:
    """What the model is shown at one step."""

    task: str
    long_term_memory: str
    memory: ShortTermMemory
    rethink: bool = False
    failed: bool = False  # the last step's call failed: it ran and failed, or it repeated one that failed
    advice: Advice = field(default_factory=Advice)  # the advisors' notes: what is still unused, what follows the task

    @property
    def shown_task(self) -> str:
        """The task as the prompt shows it: followed by what the advisors show after it, where they show anything."""
        return with_note(self.task, self.advice.after_task)


def with_note(task: str, note: str) -> str:
    """`task` as a prompt shows it, followed by `note` (the workspace's files as the run began, say) where given."""
    return f"{task}\n\n{note}" if note else task


class Protocol(ABC):
    """What the loop sends the model each step, and how it reads the reply into a ThoughtAndAction."""

    name: ClassVar[str]
    parse_error_template: ClassVar[str] = "parse_error"

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str]) -> None:
        self.prompts = prompts
        self.toolbox = toolbox
        self.identity = identity

    def model(self, llm: BaseChatModel) -> Runnable[Any, BaseMessage]:
        """The model as this protocol calls it (with tools bound, or stop sequences)."""
        return llm

    def strict_model(self, llm: BaseChatModel, finish: bool = True) -> Runnable[Any, BaseMessage] | None:
        """The model constrained to replies this protocol can read (to a tool call, not a finish, when `finish` is
        False), used after an unreadable reply or a finish sent back; None where the model or the protocol offers
        no such thing."""
        return None

    def guided_model(
        self, llm: BaseChatModel, thought_start: str, takes: Sequence[str] = (), avoid: str = "",
        only: str = "",
    ) -> Runnable[Any, BaseMessage] | None:
        """The model held to a tool call whose thought begins with `thought_start` (a task in parts, led to its
        next part), whose arguments take one of `takes` (what that part gives, the result so far) where a tool
        can, and whose tool is not `avoid` (is `only`, when given); None where the model or the protocol offers no
        such thing."""
        return None

    def fixed_tokens(self) -> int:
        """Tokens the model receives beside the messages each call (bound tool schemas)."""
        return 0

    @abstractmethod
    def messages(self, turn: Turn) -> list[BaseMessage]:
        """The messages for this step."""

    @abstractmethod
    def decide(self, reply: BaseMessage) -> ThoughtAndAction:
        """Read the reply; raise ReplyParseError saying what is wrong when it can't be read."""

    def decide_all(self, reply: BaseMessage) -> list[ThoughtAndAction]:
        """Every call the reply makes, in order: one, but where the protocol lets a reply make several."""
        return [self.decide(reply)]

    def explain(self, error: ReplyParseError) -> str:
        """The note the model reads after a reply that could not be read."""
        return self.prompts.render(self.parse_error_template, error=error.explain(self.prompts)).strip()

    def final_answer(self, decision: ThoughtAndAction) -> str | None:
        """The answer a finishing reply carries itself; None means the finish prompt writes it."""
        answer = decision.action.args.get("answer")
        if answer is None:
            return None
        return str(answer).strip() or None


class TextProtocol(Protocol):
    """One prompt rendered from main.templ; the protocols differ in format, step and memory templates."""

    main_template: ClassVar[str] = "main"
    format_template: ClassVar[str]
    first_step_template: ClassVar[str]  # no result yet: only a tool can help
    step_template: ClassVar[str]
    rethink_template: ClassVar[str]
    failed_rethink_template: ClassVar[str]  # the repeat was of a call that failed: fix it, do not finish
    failed_step_template: ClassVar[str] = ""  # after a call that failed; empty: the step template
    memory_template: ClassVar[str]
    pending_template: ClassVar[str] = "pending_mentions"  # while the task gives what no step has used

    def __init__(self, prompts: PromptTemplateBuilder, toolbox: Toolbox, identity: dict[str, str]) -> None:
        super().__init__(prompts, toolbox, identity)
        self._main = prompts.build(
            self.main_template, **identity, tools=toolbox.describe(), format_instruction=self.format_instruction()
        )
        unfilled = set(self._main.input_variables) - STEP_VARIABLES
        if unfilled:
            raise PromptTemplateError(f"{self.main_template}.templ: nothing fills {', '.join(sorted(unfilled))}")
        # Kept byte for byte, final newline included: the small local model was measured on exactly this text.
        self._first_step = prompts.render(self.first_step_template)
        self._step = prompts.render(self.step_template)
        self._rethink = prompts.render(self.rethink_template)
        self._failed_rethink = prompts.render(self.failed_rethink_template)
        self._failed_step = prompts.render(self.failed_step_template or self.step_template)

    def format_instruction(self) -> str:
        """How the model must write its reply."""
        return self.prompts.render(self.format_template).strip()

    def messages(self, turn: Turn) -> list[BaseMessage]:
        """The main prompt, static part first, as one human message."""
        prompt = format_prompt(
            self._main,
            self.main_template,
            task_description=turn.shown_task,
            long_term_memory=turn.long_term_memory,
            short_term_memory=self.memory_text(turn),
            step_instruction=self._instruction(turn),
        )
        return [HumanMessage(prompt)]

    def memory_text(self, turn: Turn) -> str:
        """The steps so far as prompt text."""
        return turn.memory.render(self.prompts, self.memory_template)

    def _instruction(self, turn: Turn) -> str:
        if turn.rethink:
            return self._failed_rethink if turn.failed else self._rethink
        if not len(turn.memory):
            return self._first_step
        return pending_note(self.prompts, turn, self.pending_template) or \
            (self._failed_step if turn.failed else self._step)


def pending_note(prompts: PromptTemplateBuilder, turn: Turn, template: str = "pending_mentions") -> str:
    """The step instruction while the task gives something no step has used yet (no invitation to finish: a small
    model copies it); empty when nothing is pending."""
    if not turn.advice.mentions:
        return ""
    return prompts.render(template, items=", ".join(turn.advice.mentions)).strip()
