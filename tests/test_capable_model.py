"""A capable model, scripted as a GPT-4-class model answers ordinary requests: with the coach off, each answer is
taken as given, the run finishes with exit 0, and no model call is made beyond the steps and the finish prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.steps import StepKind, StopReason
from autoagent.tools import calculator, calendar, file_tools

from .cli_backend import FakeBackend, invoke
from .scripted import ScriptedChatModel, act, call

NOTES = "buy bread\nfix the bike\nwrite to Ann\n"
REPORT = "The audit found two late invoices.\nBoth were paid in March.\nNo other issues were found.\n"

# (request, the files it starts with, the model's replies, the answer it gives, the file it leaves and its text)
CASES = [
    ("Name the capital city of Australia.", {}, [act("FINISH")], "The capital of Australia is Canberra.", None),
    ("In which year did Apollo 11 land on the Moon?", {}, [act("FINISH")], "1969", None),
    ("Translate 'good morning' into Spanish.", {}, [act("FINISH")], "Buenos días", None),
    ("Suggest three names for a coffee shop.", {}, [act("FINISH")],
     "1. Bean There\n2. The Daily Grind\n3. Brew Haven", None),
    ("Write a haiku about rain to haiku.txt.", {},
     [act("write_file", path="haiku.txt", content="Soft rain on the roof\nPuddles gather the grey sky\nThe street "
          "hums and shines"), act("FINISH")], "I wrote a haiku about rain to haiku.txt.",
     ("haiku.txt", "Soft rain on the roof\nPuddles gather the grey sky\nThe street hums and shines")),
    ("How many lines does notes.txt have?", {"notes.txt": NOTES},
     [act("read_file", path="notes.txt"), act("FINISH")], "notes.txt has 3 lines.", None),
    ("Summarise report.txt in one sentence.", {"report.txt": REPORT},
     [act("read_file", path="report.txt"), act("FINISH")],
     "The audit found two late invoices, both paid in March, and nothing else.", None),
    ("How many kilometres is a marathon of 26.2 miles? Round to two decimals.", {},
     [act("calculator", expression="26.2 * 1.609344"), act("FINISH")], "A marathon is about 42.16 km.", None),
    ("Add the line 'call the plumber' to the end of notes.txt.", {"notes.txt": NOTES},
     [act("read_file", path="notes.txt"), act("write_file", path="notes.txt", content=NOTES + "call the plumber\n"),
      act("FINISH")], "Added 'call the plumber' as the last line of notes.txt.",
     ("notes.txt", NOTES + "call the plumber\n")),
    ("What date is 30 days after 2026-01-15?", {}, [act("FINISH")], "2026-02-14", None),
]


@pytest.mark.parametrize(("task", "files", "replies", "answer", "left"), CASES, ids=[case[0][:40] for case in CASES])
def test_a_capable_models_answer_is_taken_as_given(tmp_path: Path, task: str, files: dict[str, str],
                                                   replies: list[str], answer: str,
                                                   left: tuple[str, str] | None) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    llm = ScriptedChatModel(replies=[*replies, answer])
    agent = AutoGPT(llm=llm, tools=[calculator, calendar, *file_tools(tmp_path)])

    run = agent.execute(task)

    assert run.stop_reason is StopReason.FINISHED and run.answer == answer and not run.model_answer
    assert [step.kind for step in run.steps][-1] is StepKind.FINISH
    assert all(step.kind in (StepKind.ACTION, StepKind.FINISH) and step.success for step in run.steps)
    assert run.usage.calls == len(replies) + 1  # the steps and the finish prompt, nothing more
    if left is not None:
        assert (tmp_path / left[0]).read_text(encoding="utf-8") == left[1]


def test_the_same_answers_with_the_coach_on_are_not_all_taken(tmp_path: Path) -> None:
    """The reason the coach is opt-in: its rules, made for a small model, send a right knowledge answer back."""
    llm = ScriptedChatModel(replies=[act("FINISH")])
    agent = AutoGPT(llm=llm, tools=[calculator], advisors=[Coach()], max_thought_steps=1)
    run = agent.execute("In which year did Apollo 11 land on the Moon?")
    assert run.steps[0].kind is StepKind.REJECTED and run.steps[0].check == "coach"
    assert run.stop_reason is StopReason.MAX_STEPS and not run.finished


def test_the_command_with_coach_off_prints_the_answer_and_exits_0(backend: FakeBackend, tmp_path: Path) -> None:
    result = invoke(["--coach", "off", "--json", "--workspace", str(tmp_path),
                     "What date is 30 days after 2026-01-15?"], [act("FINISH"), "2026-02-14"], backend)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["finished"] and data["answer"] == "2026-02-14" and data["usage"]["calls"] == 2


def test_auto_leaves_the_coach_off_for_a_model_that_is_not_the_embedded_one(backend: FakeBackend) -> None:
    result = invoke(["--json", "In which year did Apollo 11 land on the Moon?"], [act("FINISH"), "1969"], backend)
    assert result.exit_code == 0 and json.loads(result.stdout)["answer"] == "1969"


def test_the_coach_setting_is_read_from_the_environment(backend: FakeBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_COACH", "on")
    result = invoke(["--json", "--max-steps", "1", "In which year did Apollo 11 land on the Moon?"],
                    [act("FINISH")], backend)
    data = json.loads(result.stdout)
    assert data["steps"][0]["kind"] == "rejected" and data["steps"][0]["check"] == "coach"


def test_a_reply_with_three_tool_calls_runs_all_three_and_sends_each_result_back() -> None:
    three = AIMessage(content="", tool_calls=[
        {"name": "calculator", "args": {"expression": "2 + 2"}, "id": "c1"},
        {"name": "calculator", "args": {"expression": "3 * 3"}, "id": "c2"},
        {"name": "calculator", "args": {"expression": "10 - 4"}, "id": "c3"},
    ])
    llm = ScriptedChatModel(replies=[three, call("final_answer", "c4", answer="4, 9 and 6")])
    run = AutoGPT(llm=llm, tools=[calculator], protocol="tools").execute("Work out 2+2, 3*3 and 10-4.")

    assert [step.observation for step in run.steps[:3]] == ["4", "9", "6"]
    assert [step.in_reply_of for step in run.steps[:3]] == [0, 1, 1]
    assert run.finished and run.answer == "4, 9 and 6" and run.usage.calls == 2
    sent = llm.calls[1]
    replies = [message for message in sent if isinstance(message, AIMessage)]
    assert len(replies) == 1 and [c["id"] for c in replies[0].tool_calls] == ["c1", "c2", "c3"]
    results = [(message.tool_call_id, message.text) for message in sent if isinstance(message, ToolMessage)]
    assert results == [("c1", "4"), ("c2", "9"), ("c3", "6")]


def test_a_reply_that_calls_a_tool_and_then_final_answer_runs_the_tool_first() -> None:
    both = AIMessage(content="", tool_calls=[
        {"name": "calculator", "args": {"expression": "6 * 7"}, "id": "c1"},
        {"name": "final_answer", "args": {"answer": "42"}, "id": "c2"},
    ])
    llm = ScriptedChatModel(replies=[both])
    run = AutoGPT(llm=llm, tools=[calculator], protocol="tools").execute("What is 6 * 7?")
    assert [step.kind for step in run.steps] == [StepKind.ACTION, StepKind.FINISH]
    assert run.steps[0].observation == "42" and run.answer == "42" and run.usage.calls == 1
