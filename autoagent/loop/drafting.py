"""Writing a final answer: the finish prompt drafts it from the tools' results (asked again, once, when it is the reply
format rather than an answer); replies drawn at a temperature for checks that compare; the answer of a run that
stopped before finishing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable

from ..llm.reply_caps import sampling
from ..memory.short_term import ShortTermMemory
from ..prompts import format_prompt
from ..reply import ThoughtAndAction
from ..steps import Step, StopReason, ran
from .answers import answer_from_observations, is_answer
from .metering import Meter

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.prompts import PromptTemplate

    from ..advice import Advisor
    from ..llm.reply_caps import ReplyCaps
    from ..prompts import PromptTemplateBuilder
    from ..protocols import Protocol as ReplyProtocol

SAMPLE_TEMPERATURE = 0.7  # how far a sampled reply may stray from the greedy one (self-consistency)
SHORT_ANSWER_TOKENS = 48  # a sampled answer is the answer alone: a number, a name, a few words


@dataclass(frozen=True)
class Written:
    """A drafted final answer, and whether it is one (not the reply format, a call or the prompt's own words)."""

    answer: str
    usable: bool


@dataclass(frozen=True)
class TypedFinish:
    """The finish prompt of an answer held to an output type (autoagent/typed_output.py), and the model held to its
    schema as it writes (the model itself where the backend cannot hold it)."""

    template: PromptTemplate
    model: Runnable[Any, BaseMessage]


@dataclass(frozen=True)
class Drafter:
    """What writing an answer needs of an agent: its model, how its replies are read, its prompts and caps; with
    `typed`, the answer is a JSON value of the output type."""

    llm: BaseChatModel
    protocol: ReplyProtocol
    prompts: PromptTemplateBuilder
    finish_template: PromptTemplate
    reply_caps: ReplyCaps
    typed: TypedFinish | None = None

    def finish_prompt(self, task: str, memory: ShortTermMemory, typed: bool = False) -> str:
        """The finish prompt: the task and the tools' results, and how to write the final answer from them (as a
        JSON value of the output type, where `typed`)."""
        template, name = (self.typed.template, "finish_typed") if typed and self.typed else \
            (self.finish_template, "finish_instruction")
        return format_prompt(template, name, task_description=task,
                             short_term_memory=memory.tool_results().render(self.prompts))

    def write(self, task: str, memory: ShortTermMemory, steps: Sequence[Step], meter: Meter,
              finishing: ThoughtAndAction | None = None, again: bool = True) -> Written:
        """The final answer `finishing` carries (native tool calling's `final_answer`), else the finish prompt's
        from the tools' results; a reply that is no answer is asked for again, once (unless not `again`)."""
        carried = self.protocol.final_answer(finishing) if finishing is not None else None
        if carried and is_answer(carried, steps, task=task):
            return Written(carried, True)
        messages: list[BaseMessage] = [HumanMessage(self.finish_prompt(task, memory, typed=True))]
        model = self.typed.model if self.typed else self.llm
        answer = meter.call(model, messages, self.reply_caps.answer)[0].text.strip()
        scaffold = (self.typed.template if self.typed else self.finish_template).template
        usable = is_answer(answer, steps, scaffold=scaffold, task=task)
        if usable or not again:
            return Written(answer, usable)
        retry = [*messages, AIMessage(answer), HumanMessage(self.prompts.render("answer_again").strip())]
        second = meter.call(model, retry, self.reply_caps.answer)[0].text.strip()
        return Written(second, is_answer(second, steps, scaffold=scaffold, task=task))

    def stopped_answer(self, stop: StopReason, task: str, memory: ShortTermMemory, steps: Sequence[Step],
                       meter: Meter, advisors: Sequence[Advisor]) -> str:
        """The answer of a run that did not finish: after a spent budget no model call is made and the last good
        observation stands; a run that called no tool has none; else the finish prompt writes the best answer the
        tools' results allow, or the model knows where every call failed (a question of fact, the web out of
        reach), asked for once: the step limit bounds the model calls, the answer takes one more. A reply that is no
        answer (the finish prompt's own words, a call written out) is none: the last good observation stands, or
        nothing. Each advisor may then mend it."""
        if stop is StopReason.BUDGET:
            return answer_from_observations(steps)
        if not ran(steps):
            return ""  # nothing was done (every reply unreadable, say): nothing to answer from
        written = self.write(task, memory, steps, meter, again=False)
        answer = written.answer if written.usable else answer_from_observations(steps)
        for advisor in advisors:
            answer = advisor.on_stopped(answer, task, steps)
        return answer


class Draws:
    """Replies drawn at a temperature during one finish, each with its own seed, and kept: the same prompt and seed
    give the same reply however many checks ask."""

    def __init__(self, drafter: Drafter, task: str, memory: ShortTermMemory, meter: Meter) -> None:
        self.drafter, self.task, self.memory, self.meter = drafter, task, memory, meter
        self._drawn: dict[tuple[str, int, int], str] = {}

    def draw(self, prompt: str, count: int, max_tokens: int, first_seed: int = 1) -> list[str]:
        """`count` replies to `prompt` of at most `max_tokens` tokens, with the seeds from `first_seed` on."""
        replies = []
        for seed in range(first_seed, first_seed + count):
            key = (prompt, max_tokens, seed)
            if key not in self._drawn:
                model = sampling(self.drafter.llm, SAMPLE_TEMPERATURE, seed)
                self._drawn[key] = self.meter.call(model, [HumanMessage(prompt)], max_tokens)[0].text
            replies.append(self._drawn[key])
        return replies

    def answers(self, count: int) -> list[str]:
        """`count` short answers to the task from the same results as the finish prompt's (self-consistency)."""
        return self.replies(self.drafter.prompts.render("short_answer").strip(), count)

    def replies(self, question: str, count: int) -> list[str]:
        """`count` short replies to `question`, asked after the finish prompt (the task and the tools' results: the
        local model reuses what it read of it)."""
        prompt = f"{self.drafter.finish_prompt(self.task, self.memory)}\n\n{question}"
        return [reply.strip() for reply in self.draw(prompt, count, SHORT_ANSWER_TOKENS)]
