"""Compaction: the steps that leave the window are told in a running summary, shown before the recent steps; a fact
read at step 1 of a 25-step run is still in the last prompt, within the context budget, and after a resume."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from pydantic import Field

from autoagent import AutoGPT
from autoagent.steps import StopReason
from autoagent.transcripts.reader import load_transcript
from autoagent.transcripts.writer import TranscriptWriter

from .scripted import act

FACT = "the vault code is 4711"


@tool
def read_note(note: str) -> str:
    """Read a note."""
    return FACT if note == "vault" else f"note {note}: nothing of use"


class Summarizer(BaseChatModel):
    """Reads a note a step (the vault first, then others), finishes after `steps`; asked for a summary, keeps every
    sentence with a number in it that the prompt shows (as a good summary keeps the facts)."""

    steps: int = 25
    forgets: bool = False  # summarises as a small model may: the task's words, not the values it read
    prompts: list[str] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        prompt = "\n".join(message.text for message in messages)
        if "Write the summary of all these steps" in prompt:
            facts = sorted(set(re.findall(r"the vault code is \d+", prompt)))
            text = "; ".join(facts) if facts and not self.forgets else "notes were read"
        elif "Write the final answer" in prompt:
            text = "4711"
        else:
            self.prompts.append(prompt)
            done = len(self.prompts) - 1
            text = act("read_note", note="vault" if done == 0 else f"n{done}") if done < self.steps else act("FINISH")
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    @property
    def _llm_type(self) -> str:
        return "summarizer"


def test_a_fact_of_step_one_is_in_the_last_prompt_of_a_long_run(tmp_path: Path) -> None:
    model = Summarizer(steps=25)
    agent = AutoGPT(model, tools=[read_note], memory_window=3, max_thought_steps=30, context_window=4096)
    run = agent.execute("Read the notes, then tell the vault code.",
                        observers=[TranscriptWriter({}, directory=tmp_path)])
    assert run.finished and len(run.steps) == 26
    last = model.prompts[-1]
    assert "Summary of steps 1 to 22: the vault code is 4711" in last and "Step 1." not in last  # 23-25 shown
    assert all(len(prompt) < 4 * 4096 for prompt in model.prompts)  # within the context budget
    assert "Summary of steps" not in model.prompts[3]  # steps 1-3 still in the window: no summary yet
    assert "Summary of steps 1 to 1: the vault code is 4711" in model.prompts[4]
    assert run.usage.calls == 26 + 22 + 1  # a summary each time a step left the window, and the answer

    transcript = load_transcript(run.run_id, tmp_path)
    assert transcript.summary == ("the vault code is 4711", 22)


def test_a_resumed_run_starts_from_its_summary(tmp_path: Path) -> None:
    model = Summarizer(steps=25)
    agent = AutoGPT(model, tools=[read_note], memory_window=3, max_thought_steps=10)
    stopped = agent.execute("Read the notes, then tell the vault code.",
                            observers=[TranscriptWriter({}, directory=tmp_path)])
    assert stopped.stop_reason is StopReason.MAX_STEPS and stopped.summarized == 6
    transcript = load_transcript(stopped.run_id, tmp_path)

    again = Summarizer(steps=25)
    again.prompts.extend(["earlier"] * 10)  # the script goes on where the first run stopped
    resumed = AutoGPT(again, tools=[read_note], memory_window=3, max_thought_steps=20).execute(
        "Read the notes, then tell the vault code.", resume=transcript.steps, run_id=stopped.run_id,
        summary=transcript.summary)
    assert resumed.finished
    assert "Summary of steps 1 to 7: the vault code is 4711" in again.prompts[10]
    assert '1. read_note {"note": "vault"} -> "the vault code is 4711"' in again.prompts[10]  # the results, restored


def test_what_a_tool_returned_stays_when_the_summary_drops_it() -> None:
    model = Summarizer(steps=25, forgets=True)
    run = AutoGPT(model, tools=[read_note], memory_window=3, max_thought_steps=30).execute(
        "Read the notes, then tell the vault code.")
    assert run.finished
    last = model.prompts[-1]
    assert "Summary of steps 1 to 22: notes were read" in last  # the summary lost the code...
    assert '1. read_note {"note": "vault"} -> "the vault code is 4711"' in last  # ...what step 1's tool returned has it
    assert "\n…\n" in last and '22. read_note {"note": "n21"}' in last  # the middle steps give way, the latest stay


def test_the_results_in_short_stay_within_their_budget() -> None:
    from autoagent.memory.short_term import RESULT_LINE_CHARS, RESULTS_CHARS, results_in_short
    from autoagent.reply import Action, Thought, ThoughtAndAction
    from autoagent.steps import Step, StepKind

    def step(number: int, observation: str) -> Step:
        call = ThoughtAndAction(thought=Thought(text="t"), action=Action(name="read_file", args={"path": "x" * 200}))
        return Step(number, StepKind.ACTION, "", call, observation)

    for count in (1, 5, 19, 20, 21, 60):
        lines = results_in_short([step(n, f"value {n}\n" + "words " * 300) for n in range(1, count + 1)]).split("\n")
        assert sum(len(line) + 1 for line in lines) <= RESULTS_CHARS + RESULT_LINE_CHARS, count
        assert lines[0].startswith('1. read_file {"path": "xxx') and lines[0].endswith('…"')
        assert lines[-1].startswith(f"{count}. ")
        returned = [json.loads(line.split(" -> ", 1)[1]) for line in lines if line != "…"]  # each string closes
        assert all(text.startswith("value ") for text in returned)
    from autoagent.acting.fence import fence

    quoted = fence("The content of 'key.txt' (1 line):", "The access code\nis KX-4417.", kind="FILE CONTENT",
                   source="the workspace file 'key.txt'")
    assert results_in_short([step(1, quoted)]).endswith('-> "The access code is KX-4417."')  # the text, not the fence


def test_a_run_within_its_window_makes_no_summary() -> None:
    model = Summarizer(steps=2)
    run = AutoGPT(model, tools=[read_note], memory_window=5).execute("Read the notes.")
    assert run.finished and run.summary == "" and run.usage.calls == len(model.prompts) + 1  # the steps and the answer


def test_auto_compacts_a_run_whose_step_limit_passes_twice_its_window() -> None:
    from autoagent.loop.compaction import compacts

    assert compacts(None, 11, 5) and not compacts(None, 10, 5)  # auto: the default
    assert compacts(True, 2, 5) and not compacts(False, 99, 1)
    assert not compacts(None, 30, 5, small=True) and compacts(True, 30, 5, small=True)  # a small model: when asked
    model = Summarizer(steps=5)
    run = AutoGPT(model, tools=[read_note], memory_window=2, max_thought_steps=4).execute("Read the notes.")
    assert run.summary == "" and run.usage.calls == len(model.prompts) + 1  # 4 steps, window 2: no summary
