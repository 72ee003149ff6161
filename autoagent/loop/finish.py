"""A finish, and the final answer it comes to: the draft is written (asked again, once, when it is the reply format
rather than an answer), then every check has its say, in order: the coach's where it helps, then the user's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.callbacks import Callbacks
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from ..acting.approval import is_read_only
from ..checks import CheckContext, NamedCheck, VerdictKind
from ..events import RunObserver
from ..llm.reply_caps import sampling
from ..memory.short_term import ShortTermMemory
from ..prompts import format_prompt
from ..protocols.code import TOOL as PROGRAM_TOOL
from ..reply import ThoughtAndAction
from ..steps import RunResult, Step, StepKind, StepOutcome, StopReason
from .answers import answer_from_observations, is_answer
from .metering import Meter

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.prompts import PromptTemplate

    from ..acting.toolbox import Toolbox
    from ..coach import Coach
    from ..llm.reply_caps import ReplyCaps
    from ..prompts import PromptTemplateBuilder
    from ..protocols import Protocol as ReplyProtocol


class Finisher(Protocol):
    """What a finish needs of its agent: the model, how replies are read, the prompts and the checks."""

    llm: BaseChatModel
    protocol: ReplyProtocol
    prompts: PromptTemplateBuilder
    finish_template: PromptTemplate
    reply_caps: ReplyCaps
    toolbox: Toolbox
    checks: list[NamedCheck]

    def run_own(self, number: int, reply: str, tool: str, args: dict[str, Any], thought: str, events: RunObserver,
                callbacks: Callbacks, check: str) -> StepOutcome:
        """A step the agent takes itself for a check's verdict."""
        ...

SAMPLE_TEMPERATURE = 0.7  # how far a sampled answer may stray from the greedy one (self-consistency)
SHORT_ANSWER_TOKENS = 48  # a sampled answer is the answer alone: a number, a name, a few words
UNUSABLE = "the model's final answer was the reply format, not an answer, when asked twice"
CORE = "answer"  # the name the core's own verdict carries: the reply format is not an answer


@dataclass(frozen=True)
class Written:
    """A drafted final answer, and whether it is one (not the reply format, a call or the prompt's own words)."""

    answer: str
    usable: bool


def finish_prompt(agent: Finisher, task: str, memory: ShortTermMemory) -> str:
    """The finish prompt: the task and the tools' results, and how to write the final answer from them."""
    return format_prompt(agent.finish_template, "finish_instruction", task_description=task,
                         short_term_memory=memory.tool_results().render(agent.prompts))


def write_answer(agent: Finisher, task: str, memory: ShortTermMemory, steps: Sequence[Step], meter: Meter,
                 finishing: ThoughtAndAction | None = None) -> Written:
    """The final answer `finishing` carries (native tool calling's `final_answer`), else the finish prompt's from
    the tools' results; a reply that is no answer is asked for again, once."""
    carried = agent.protocol.final_answer(finishing) if finishing is not None else None
    if carried and is_answer(carried, steps, task=task):
        return Written(carried, True)
    messages: list[BaseMessage] = [HumanMessage(finish_prompt(agent, task, memory))]
    answer = meter.call(agent.llm, messages, agent.reply_caps.answer)[0].text.strip()
    if is_answer(answer, steps, scaffold=agent.finish_template.template, task=task):
        return Written(answer, True)
    again = [*messages, AIMessage(answer), HumanMessage(agent.prompts.render("answer_again").strip())]
    second = meter.call(agent.llm, again, agent.reply_caps.answer)[0].text.strip()
    return Written(second, is_answer(second, steps, scaffold=agent.finish_template.template, task=task))


def sample_answers(agent: Finisher, task: str, memory: ShortTermMemory, meter: Meter, count: int,
                   first_seed: int = 1) -> list[str]:
    """`count` short answers to `task` from the same results as the finish prompt's, each sampled at a
    temperature with its own seed (a model that takes neither answers as it always does)."""
    prompt = f"{finish_prompt(agent, task, memory)}\n\n{agent.prompts.render('short_answer').strip()}"
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    return [meter.call(sampling(agent.llm, SAMPLE_TEMPERATURE, seed), messages, SHORT_ANSWER_TOKENS)[0].text.strip()
            for seed in range(first_seed, first_seed + count)]


def sample_contents(agent: Finisher, task: str, steps: Sequence[Step], path: str, meter: Meter, count: int,
                    first_seed: int = 1) -> list[str]:
    """`count` drafts of the whole content the task asks `path` to hold, each written anew at a temperature with its
    own seed from the results of the calls that changed nothing (a write's own content is not shown, so a draft
    that matches it was worked out again, not copied)."""
    prompt = agent.prompts.render("write_again", task_description=task, path=path,
                                  short_term_memory=_looked(agent, steps).render(agent.prompts))
    return _draw(agent, prompt, meter, count, first_seed, agent.reply_caps.answer)


def sample_inputs(agent: Finisher, task: str, steps: Sequence[Step], tool: str, meter: Meter, count: int,
                  first_seed: int = 1) -> list[str]:
    """`count` inputs of `tool` that work out what the task asks for (the calculator: an expression; the python
    tool: a program that prints it), each written anew at a temperature with its own seed from the results of the
    calls of other tools that changed nothing (the run's own calls of `tool` are not shown, so an input that comes to
    the same number was worked out again, not copied)."""
    program = tool == PROGRAM_TOOL
    template, cap = ("program_again", agent.reply_caps.step) if program else ("work_again", SHORT_ANSWER_TOKENS)
    prompt = agent.prompts.render(template, task_description=task, tool=tool,
                                  short_term_memory=_looked(agent, steps, leaving_out=tool).render(agent.prompts))
    return [text.strip() for text in _draw(agent, prompt, meter, count, first_seed, cap)]


def _looked(agent: Finisher, steps: Sequence[Step], leaving_out: str = "") -> ShortTermMemory:
    """The steps whose calls worked and changed nothing (but those of the tool `leaving_out`), as a memory."""
    looked = ShortTermMemory(max(len(steps), 1))
    for step in steps:
        tool = agent.toolbox.find(step.action.name) if step.action else None
        if step.kind is StepKind.ACTION and step.success and tool is not None and is_read_only(tool) \
                and tool.name != leaving_out:
            looked.add(step)
    return looked


def _draw(agent: Finisher, prompt: str, meter: Meter, count: int, first_seed: int, cap: int) -> list[str]:
    """`count` replies to `prompt`, each sampled at a temperature with its own seed from `first_seed` on."""
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    return [meter.call(sampling(agent.llm, SAMPLE_TEMPERATURE, seed), messages, cap)[0].text
            for seed in range(first_seed, first_seed + count)]

def ask_model(agent: Finisher, task: str, memory: ShortTermMemory, question: str, meter: Meter,
              count: int) -> list[str]:
    """`count` short replies to `question`, asked after the finish prompt (the task and the tools' results: the
    local model reuses what it read of it), each sampled at a temperature with its own seed."""
    prompt = f"{finish_prompt(agent, task, memory)}\n\n{question}"
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    return [meter.call(sampling(agent.llm, SAMPLE_TEMPERATURE, seed), messages, SHORT_ANSWER_TOKENS)[0].text.strip()
            for seed in range(1, count + 1)]


class FinishReview:
    """The finishes of one run: each drafted answer goes past the checks, each of which may accept it (or put
    another in its place, the model's own kept), send the model back with a note, run a tool first, or stop."""

    def __init__(self, agent: Finisher, memory: ShortTermMemory, meter: Meter, long_term_memory: str,
                 coach: Coach | None) -> None:
        self.agent, self.memory, self.meter, self.coach = agent, memory, meter, coach
        self.checks: list[NamedCheck] = [*([coach.check(long_term_memory)] if coach else []), *agent.checks]
        self.sent_back: Counter[str] = Counter()  # per check, how often it sent this run back
        self.seeds: Counter[str] = Counter()  # per file, the seeds its drafts took so far

    def review(self, number: int, reply: str, decision: ThoughtAndAction, task: str, result: RunResult,
               events: RunObserver, callbacks: Callbacks) -> StepOutcome:
        """The step a finish makes, and whether the run ends; an accepted or stopped run's answer is set on
        `result` (with the model's own in `model_answer` where a check replaced it)."""
        steps = result.steps
        written: list[Written] = []

        def draft() -> str:  # once a finish, however many checks read it
            if not written:
                written.append(write_answer(self.agent, task, self.memory, steps, self.meter, decision))
            # the coach stands in the last good result for a draft that is no answer; the core says it is unsure
            return written[0].answer if written[0].usable or not self.coach else answer_from_observations(steps)

        samples: list[str] = []

        def sample(count: int) -> list[str]:  # drawn once a finish, however many checks ask, more when more asked
            if len(samples) < count:
                samples.extend(sample_answers(self.agent, task, self.memory, self.meter, count - len(samples),
                                              first_seed=len(samples) + 1))
            return samples[:count]

        contents: dict[str, list[str]] = {}

        def sample_content(path: str, count: int) -> list[str]:  # drawn once a finish for each file, with seeds
            drawn = contents.setdefault(path, [])  # not drawn before in this run: the same prompt, new drafts
            needed = count - len(drawn)
            if needed > 0:
                drawn.extend(sample_contents(self.agent, task, steps, path, self.meter, needed,
                                             first_seed=self.seeds[path] + 1))
                self.seeds[path] += needed
            return drawn[:count]

        inputs: dict[str, list[str]] = {}

        def sample_input(tool: str, count: int) -> list[str]:  # drawn once a finish for each tool
            if len(inputs.get(tool, ())) < count:
                inputs[tool] = sample_inputs(self.agent, task, steps, tool, self.meter, count)
            return inputs[tool][:count]

        replies: dict[str, list[str]] = {}

        def sample_reply(question: str, count: int) -> list[str]:  # asked once a finish, however many checks ask
            if len(replies.get(question, ())) < count:
                replies[question] = ask_model(self.agent, task, self.memory, question, self.meter, count)
            return replies[question][:count]

        context = CheckContext(task, steps, draft, tuple(self.agent.toolbox.tools), sample=sample,
                               sample_content=sample_content, sample_input=sample_input, sample_reply=sample_reply)
        # the core: a draft that is no answer, asked twice, is no finish; the last result stands, as unsure
        if not self.coach and (not context.answer or not written[0].usable):
            result.answer, result.model_answer = answer_from_observations(steps), written[0].answer
            step = Step(number, StepKind.REJECTED, reply, decision, UNUSABLE, False, check=CORE)
            return StepOutcome(step, StopReason.UNVERIFIED, detail=UNUSABLE)
        own, replaced_by, why = "", "", ""
        for check in self.checks:
            verdict = check.review(replace(context, sent_back=self.sent_back[check.name]))
            if verdict.kind is VerdictKind.ACCEPT and verdict.answer is not None:
                own = own or context.answer
                replaced_by, why = check.name, verdict.note
                context = context.with_answer(verdict.answer)
            elif verdict.kind is VerdictKind.SEND_BACK:
                self.sent_back[check.name] += 1
                return StepOutcome(Step(number, StepKind.REJECTED, reply, decision, verdict.note, False,
                                        check=check.name))
            elif verdict.kind is VerdictKind.RUN_TOOL:
                return self.agent.run_own(number, reply, verdict.tool, dict(verdict.args), verdict.note, events,
                                          callbacks, check=check.name)
            elif verdict.kind is VerdictKind.STOP:
                if verdict.answer is not None:  # the check's answer stands, as unsure; the model's own is kept
                    own, context = own or context.answer, context.with_answer(verdict.answer)
                    result.model_answer = own if own != verdict.answer else ""
                result.answer = context.answer if written or own else ""  # an unsure answer still shows
                step = Step(number, StepKind.REJECTED, reply, decision, verdict.note, False, check=check.name)
                return StepOutcome(step, verdict.reason, detail=verdict.note)
        result.answer = context.answer
        if written and not written[0].usable and not own and self.coach:  # the coach stood in the last result
            own, replaced_by, why = written[0].answer, self.coach.name, UNUSABLE
            if not self.coach.answers_itself(result.answer):  # "Wrote 5 characters": that the task is done is unsure
                result.model_answer = own
                step = Step(number, StepKind.REJECTED, reply, decision, UNUSABLE, False, check=replaced_by)
                return StepOutcome(step, StopReason.UNVERIFIED, detail=UNUSABLE)
        result.model_answer = own if own != result.answer else ""
        note = f"{why}: {result.answer}" if result.model_answer else ""
        return StepOutcome(Step(number, StepKind.FINISH, reply, decision, note, check=replaced_by if note else ""),
                           StopReason.FINISHED)
