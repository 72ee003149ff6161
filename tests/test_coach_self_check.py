"""The coach's self-check (autoagent/coach/self_check.py): a finished run's answer the model itself scores too low
stops unverified, shown as unsure; a model that gives no score is left as it was."""

from __future__ import annotations

from langchain_core.messages import BaseMessage
from pydantic import Field

from autoagent.steps import Step, StepKind, StopReason

from .scripted import ScriptedChatModel, act

TASK = "What is 17 * 23?"


class JudgedModel(ScriptedChatModel):
    """A scripted model that also scores a yes/no question, as the embedded model does from its logits."""

    odds: float = 0.0
    judged: list[list[BaseMessage]] = Field(default_factory=list)

    def yes_log_odds(self, messages: list[BaseMessage]) -> float:
        self.judged.append(list(messages))
        return self.odds


def _run(odds: float, coach: str = "on") -> tuple[JudgedModel, object]:
    from autoagent import AutoGPT
    from autoagent.tools import calculator

    llm = JudgedModel(replies=[act("calculator", expression="17 * 23"), act("FINISH"), "17 * 23 is 391."],
                      odds=odds)
    return llm, AutoGPT(coach=coach, llm=llm, tools=[calculator]).execute(TASK)


def test_an_answer_the_model_doubts_stops_unverified_and_is_shown_as_unsure() -> None:
    llm, result = _run(odds=-0.5)

    assert result.stop_reason is StopReason.UNVERIFIED and not result.finished
    assert result.answer == "17 * 23 is 391."  # the model's answer stands, as unsure
    last = result.steps[-1]
    assert last.check == "coach" and "log-odds -0.50, under 1.25" in last.observation
    system, question = llm.judged[0]
    assert "Yes or No" in system.text
    assert f"Task: {TASK}" in question.text and "What the program printed: 391" in question.text
    assert "Proposed answer: 17 * 23 is 391." in question.text


def test_an_answer_the_model_stands_by_finishes() -> None:
    llm, result = _run(odds=2.0)

    assert result.finished and result.answer == "17 * 23 is 391."
    assert len(llm.judged) == 1


def test_with_the_coach_off_nothing_is_judged() -> None:
    llm, result = _run(odds=-5.0, coach="off")

    assert result.finished and llm.judged == []


def test_a_model_that_gives_no_score_is_left_as_it_was() -> None:
    from autoagent import AutoGPT
    from autoagent.tools import calculator

    llm = ScriptedChatModel(replies=[act("calculator", expression="17 * 23"), act("FINISH"), "17 * 23 is 391."])
    result = AutoGPT(coach="on", llm=llm, tools=[calculator]).execute(TASK)

    assert result.finished and len(llm.prompts) == 3


def test_the_question_shows_the_start_of_the_last_output_as_the_measured_prompt_did() -> None:
    from autoagent.coach.self_check import PRINTED_CHARS, printed

    def step(number: int, kind: StepKind, observation: str) -> Step:
        return Step(number, kind, "", None, observation)

    long = "line one\nline two " + "x" * 200
    steps = [step(1, StepKind.ACTION, long), step(2, StepKind.REJECTED, "Not finished: ...")]
    shown = printed(steps)
    assert shown.startswith("line one\\nline two ") and len(shown) == PRINTED_CHARS + 1  # "\n" written as two
    assert printed([]) == ""


def test_the_check_question_is_the_same_in_both_languages() -> None:
    from autoagent.prompts import PromptTemplateBuilder

    for name in ("self_check", "self_check_system"):
        english, chinese = (PromptTemplateBuilder(lang=lang).render(name, task="t", printed="p", answer="a")
                            if name == "self_check" else PromptTemplateBuilder(lang=lang).render(name)
                            for lang in ("en", "zh"))
        assert english == chinese  # the wording measured is asked whatever the task's language
