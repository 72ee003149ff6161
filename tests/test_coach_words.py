"""The coach's word lists are package data (autoagent/coach/words.toml), read per language."""

from __future__ import annotations

import pytest

from autoagent.coach.words import any_of, kinds, words
from autoagent.coach.writes import asks_for_change, changer


def test_lists_come_from_the_data_file_in_every_language():
    assert "remove" in words("change.delete") and "删除" in words("change.delete")
    assert words("change.delete", ("zh",)) == ("删除", "删掉", "移除")
    assert set(kinds("change")) == {"delete", "write", "copy", "move"}
    assert words("no.such.key") == ()


def test_an_ascii_word_matches_whole_and_other_text_as_written():
    pattern = any_of(("fix", "删除"))
    assert pattern.search("Please FIX notes.md") and not pattern.search("the prefix of notes.md")
    assert pattern.search("把它删除")


@pytest.mark.parametrize(("request_text", "verb"), [
    ("Replace every 'cat' with 'dog' in pets.txt.", "replace"),
    ("Insert a title line at the top of report.md", "insert"),
    ("Update version.txt so it says 3.0", "update"),
    ("把 notes.txt 里的 旧 替换成 新", "替换"),
    ("Add up the numbers in costs.txt.", ""),  # a sum, not a change
    ("Which line of pets.txt did I change?", ""),  # a question about the file
])
def test_a_request_for_an_edit_asks_for_a_change(request_text, verb):
    assert asks_for_change(request_text) == verb


def test_an_edit_is_done_by_the_tool_that_writes():
    assert changer("replace", ("write_file", "delete_file", "move_file")) == "write_file"


@pytest.mark.parametrize(("name", "small"), [
    ("qwen2.5-coder:1.5b", True), ("qwen2.5:0.5b", True), ("Llama-3.2-1B-Instruct", True),
    ("llama3.2:3b", False), ("mixtral-8x7b", False), ("gpt-4o-mini", False), ("", False),
])
def test_auto_helps_a_model_behind_a_url_whose_name_says_it_is_small(name, small):
    from langchain_openai import ChatOpenAI

    from autoagent.coach import coach_wanted
    from autoagent.llm.profile import ModelProfile

    llm = ChatOpenAI(model=name or "unnamed", base_url="http://127.0.0.1:9/v1", api_key="none")
    if not name:
        llm.model_name = ""
    profile = ModelProfile.of(llm)
    assert profile.small is small and profile.nearby  # served on loopback
    assert coach_wanted("auto", profile) is small
    assert coach_wanted("off", profile) is False and coach_wanted("on", profile) is True
