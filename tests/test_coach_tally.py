"""A question how many files of a kind the workspace holds is answered with the count a listing shows for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.tally import asked_ending
from autoagent.tools import file_tools

from .scripted import ScriptedChatModel, act


@pytest.mark.parametrize(("request_", "ending"), [
    ("How many text files (.txt) are in the workspace?", ".txt"),
    ("How many Python files are in the workspace?", ".py"),
    ("How many .csv files are there?", ".csv"),
    ("工作区里有几个 .md 文件？", ".md"),  # noqa: RUF001
    ("How many files are in the workspace?", ""),  # all of them: the listing's own total
    ("How many lines does poem.txt have?", ""),
    ("How many blue files are there?", ""),  # no kind of file people name
])
def test_the_kind_of_file_a_question_counts(request_: str, ending: str) -> None:
    assert asked_ending(request_) == ending


def run(tmp_path: Path, answer: str, path: str = ".") -> str:
    for name in ("one.txt", "two.txt", "three.md"):
        (tmp_path / name).write_text("x")
    llm = ScriptedChatModel(replies=[act("list_files", path=path), act("FINISH"), answer])
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path))
    return agent.execute("How many text files (.txt) are there?").answer


def test_an_answer_with_another_count_gives_way_to_the_count_of_that_kind(tmp_path: Path) -> None:
    assert run(tmp_path, "There are 3 text files.") == "There are 2 .txt files: one.txt, two.txt."


def test_an_answer_stating_the_count_of_that_kind_stands(tmp_path: Path) -> None:
    assert run(tmp_path, "There are 2 text files.") == "There are 2 text files."
