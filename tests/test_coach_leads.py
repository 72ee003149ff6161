"""Where the referee leads a step after a failed call: to the tool its error names (not one the call itself wrote),
or, while no call has worked, to take whole what the request gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autoagent.coach import Coach
from autoagent.coach.leads import Leader
from autoagent.coach.referee import Referee
from autoagent.coach.rules import Rule
from autoagent.coach.writes import asks_for_change, object_to_no_change
from autoagent.prompts import PromptTemplateBuilder
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind

TOOLS = ("calculator", "calendar", "current_datetime", "read_file", "write_file", "copy_file", "delete_file",
         "search_files")
WRITERS = ("write_file", "copy_file", "delete_file")


def called(number: int, name: str, observation: str, success: bool = False, **args: str) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="t"), action=Action(name=name, args=args))
    return Step(number, StepKind.ACTION, "", decision, observation, success=success)


def referee() -> Referee:
    return Referee(PromptTemplateBuilder(), TOOLS, WRITERS, "calculator")


def leader() -> Leader:
    return Leader(PromptTemplateBuilder(), TOOLS, WRITERS, "calculator")


def test_a_tool_named_only_in_the_failed_calls_own_arguments_is_no_advice() -> None:
    step = called(1, "calendar", "calendar failed: could not understand the date/time 'current_datetime() - 1' (did "
                  "not understand: current_datetime); try a form like 'tomorrow'", expression="current_datetime() - 1")
    lead = leader().lead("What day of the week was it yesterday?", False, (), [step])
    assert lead is not None and lead.only == "calendar" and lead.takes == ("yesterday",)


def test_a_failed_call_that_did_not_take_the_requests_day_whole_is_led_to_take_it() -> None:
    step = called(1, "calendar", "calendar failed: could not understand it", expression="now() - INTERVAL 2 WEEKS")
    lead = leader().lead("What is the date two weeks from today?", False, (), [step])
    assert lead is not None and lead.takes == ("two weeks from today",) and lead.only == "calendar"
    assert lead.thought_start == ("Step 1 failed; next I must find out what is the date two weeks from today, "
                                  "so I call")  # a question, as a thing to do


def test_a_failed_call_that_ran_files_together_is_led_to_one_file_by_the_tool_for_the_change() -> None:
    step = called(1, "read_file", "read_file failed: 'a.log b.log' does not exist", path="a.log b.log")
    lead = leader().lead("Delete a.log and b.log.", False, (), [step])
    assert lead is not None and lead.takes == ("a.log",) and lead.only == "delete_file"


def test_no_retry_lead_once_a_call_worked_or_when_the_call_took_the_given_whole() -> None:
    took = called(1, "calendar", "calendar failed: could not understand it", expression="two weeks from today")
    assert leader().lead("What is the date two weeks from today?", False, (), [took]) is None
    worked = called(1, "read_file", "15", success=True, path="a.txt")
    failed = called(2, "read_file", "read_file failed: no such file", path="bb.txt")
    assert leader().lead("Read a.txt and b.txt and add the two numbers.", False, (), [worked, failed]) is None


def test_the_retry_lead_is_given_twice_a_run_at_most() -> None:
    judge = leader()
    task = "What is the date two weeks from today?"
    steps = [called(number, "calendar", "calendar failed", expression=f"now() + {number}") for number in (1, 2, 3)]
    assert [judge.lead(task, False, (), steps[:index]) is not None for index in (1, 2, 3)] == [True, True, False]


@pytest.mark.parametrize(("request_", "verb"), [
    ("Put a copy of config.ini in the backup folder.", "copy"),
    ("Save a copy of notes.txt as notes.bak.", "copy"),
    ("Save 42 to out.txt.", "save"),
])
def test_of_several_verbs_of_change_the_one_that_says_most_is_asked_for(request_: str, verb: str) -> None:
    assert asks_for_change(request_) == verb


def test_a_copy_made_for_a_request_to_put_a_copy_somewhere_is_the_change_asked_for(tmp_path: Path) -> None:
    copy = called(1, "copy_file", "Copied config.ini to backup/config.ini.", success=True, source="config.ini",
                  destination="backup/config.ini")
    assert object_to_no_change("Put a copy of config.ini in the backup folder.", [copy], WRITERS, ()) is None


@pytest.mark.parametrize(("request_", "given"), [
    ("Delete every .tmp file in the workspace.", ["*.tmp"]),
    ("Remove all the .log files.", ["*.log"]),
    ("删除所有 .tmp 文件。", ["*.tmp"]),
    ("How many .py files are there?", []),  # a question about them, not every one of them
])
def test_every_file_of_a_kind_the_request_names_is_a_given_pattern(request_: str, given: list[str]) -> None:
    from autoagent.coach.verify import mentions

    assert mentions(request_) == given


def test_a_failed_call_on_a_file_ending_alone_is_led_to_the_pattern_the_request_gives() -> None:
    from autoagent.action_schema import action_schema

    step = called(1, "delete_file", "delete_file failed: '.tmp' does not exist", path=".tmp")
    lead = leader().lead("Delete every .tmp file in the workspace.", False, (), [step])
    assert lead is not None and lead.takes == ("*.tmp",) and lead.only == "delete_file"
    schema = action_schema({"delete_file": {"type": "object", "properties": {"path": {"type": "string"}},
                                            "required": ["path"]}}, finish=False, takes=lead.takes)
    path = schema["anyOf"][0]["properties"]["args"]["properties"]["path"]["pattern"]
    assert re.fullmatch(path, "*.tmp") and not re.fullmatch(path, ".tmp")


def test_a_pattern_the_request_gives_is_used_by_the_pattern_or_by_a_file_it_matches() -> None:
    from autoagent.coach.verify import unused_mentions

    task = "Copy all .txt files into the backup folder."
    one = called(1, "copy_file", "Copied a.txt to backup/a.txt.", success=True, source="a.txt",
                 destination="backup/a.txt")
    every = called(1, "copy_file", "Copied 2 files into backup.", success=True, source="*.txt", destination="backup")
    other = called(1, "copy_file", "Copied c.md to backup/c.md.", success=True, source="c.md",
                   destination="backup/c.md")
    assert unused_mentions(task, [one]) == [] and unused_mentions(task, [every]) == []
    assert unused_mentions(task, [other]) == ["*.txt"]


def test_a_write_to_a_file_named_like_the_requests_folder_is_led_into_the_folder() -> None:
    judge, led = referee(), leader()
    task = "Copy notes.txt into the archive folder."
    action = Action(name="copy_file", args={"source": "notes.txt", "destination": "archive.txt"})
    objection = judge.review_action(task, action, [], writes=True)
    assert objection is not None and objection.rule is Rule.FOLDER_AS_FILE
    assert led.lead(task, False, (), []) is None  # not before it follows the objection
    led.follow(objection, action.name)
    lead = led.lead(task, False, (), [])
    assert lead is not None and lead.takes == ("archive/",) and lead.only == "copy_file"
    assert lead.thought_start.startswith("The request names the folder archive")
    assert led.lead(task, False, (), []) is None  # once


def test_a_failed_call_on_a_question_which_file_mentions_a_word_is_led_to_the_finder_for_it() -> None:
    step = called(1, "read_file", "read_file failed: 'data/Paris.txt' does not exist", path="data/Paris.txt")
    lead = leader().lead("Which file mentions Paris?", False, (), [step])
    assert lead is not None and lead.takes == ("Paris",) and lead.only == "search_files"
    assert "find out which file mentions Paris" in lead.thought_start
    searched = called(1, "search_files", "search_files failed: ...", pattern="Paris")
    assert leader().lead("Which file mentions Paris?", False, (), [searched]) is None  # it looked for that already


def test_arithmetic_with_no_number_of_its_own_before_the_next_given_is_led_to_the_calculator_first() -> None:
    task = "Read input.txt, double the number, and save it to output.txt."
    read = called(1, "read_file", "21", success=True, path="input.txt")
    pending = ("output.txt",)
    lead = leader().lead(task, False, pending, [read])
    assert lead is not None and lead.only == "calculator" and lead.takes == ("21",)
    assert "next I must double the number" in lead.thought_start
    doubled = called(2, "calculator", "42", success=True, expression="21 * 2")
    lead = leader().lead(task, False, pending, [read, doubled])
    assert lead is not None and lead.only == "write_file" and lead.takes == ("output.txt",)


def test_a_note_the_run_was_given_is_never_written_into_a_file(tmp_path: Path) -> None:
    from autoagent import AutoGPT
    from autoagent.tools import file_tools

    from .scripted import ScriptedChatModel, act

    llm = ScriptedChatModel(replies=[
        act("write_file", path="result.txt", content="4140"),
        act("write_file", path="result.txt", content="Wrote 4 characters to result.txt."),
        act("write_file", path="result.txt", content="Wrote 4 characters to result.txt."),
        act("FINISH"), "Saved 4140 to result.txt."])
    result = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path)).execute("Save 4140 in result.txt.")

    assert [step.kind for step in result.steps[1:3]] == [StepKind.REJECTED, StepKind.REJECTED]  # each time
    assert "is what this run was told about an action" in result.steps[2].observation
    assert (tmp_path / "result.txt").read_text() == "4140" and result.finished


def test_a_percentage_the_request_gives_is_used_only_as_a_percentage() -> None:
    from autoagent.coach.verify import unused_mentions

    task = "Add 1250 and 3780, then take 15% of the sum."
    added = called(1, "calculator", "5030", success=True, expression="1250 + 3780")
    wrong = called(2, "calculator", "5045", success=True, expression="1250 + 3780 + 15")
    assert unused_mentions(task, [added, wrong]) == ["15%"]  # 15 added is no percentage
    for expression in ("5030 * 0.15", "5030 * 15 / 100", "15% * 5030"):
        taken = called(2, "calculator", "754.5", success=True, expression=expression)
        assert unused_mentions(task, [added, taken]) == [], expression
    lead = leader().lead(task, False, ("15%",), [added, wrong])
    assert lead is not None and lead.takes == ("15", "5045", "0.15") and lead.only == "calculator"


def test_a_call_of_a_tool_there_is_not_took_nothing_and_is_led_to_the_tool_named_for_the_change() -> None:
    from autoagent.coach.leads import Leader
    from autoagent.prompts import PromptTemplateBuilder

    step = called(1, "rename_file", "Unknown tool 'rename_file'.", path="draft.txt", destination="final.txt")
    leader = Leader(PromptTemplateBuilder(), (*TOOLS, "move_file"), (*WRITERS, "move_file"), "calculator")
    lead = leader.lead("Rename draft.txt to final.txt.", False, (), [step])
    assert lead is not None and lead.only == "move_file" and lead.takes == ("draft.txt",)


def test_a_failed_call_of_another_tool_on_a_question_about_a_day_is_led_to_the_calendar() -> None:
    judge = Leader(PromptTemplateBuilder(), (*TOOLS, "list_files"), WRITERS, "calculator", "calendar")
    step = called(1, "list_files", "list_files failed: 'last_modified_date.txt' does not exist",
                  path="last_modified_date.txt")
    lead = judge.lead("昨天是几月几号？", False, (), [step])  # noqa: RUF001
    assert lead is not None and lead.only == "calendar" and lead.takes == ("昨天",)


def test_a_number_only_a_note_shows_is_not_written_either(tmp_path: Path) -> None:
    from autoagent import AutoGPT
    from autoagent.tools import calculator, file_tools

    from .scripted import ScriptedChatModel, act

    llm = ScriptedChatModel(replies=[
        act("calculator", expression="2^16"), act("write_file", path="power.txt", content="65536"),
        act("write_file", path="power.txt", content="5"), act("FINISH"), "Saved 65536 to power.txt."])
    result = AutoGPT(advisors=[Coach()], llm=llm, tools=[calculator, *file_tools(tmp_path)]).execute(
        "Calculate 2 to the power of 16 and save the number in power.txt.")

    assert result.steps[2].kind is StepKind.REJECTED
    assert "\"5\" is what this run was told about an action" in result.steps[2].observation
    assert (tmp_path / "power.txt").read_text() == "65536" and result.finished


def test_a_number_the_request_gives_is_used_only_as_a_whole_figure() -> None:
    from autoagent.coach.request import read_request
    from autoagent.coach.verify import unused_mentions

    task = "A trial of 90 days starts on 20 November 2026. What is its last day?"
    other_day = called(1, "calendar", "2027-01-30 (Saturday)", success=True, expression="2026-11-01 + 90 days")
    its_day = called(1, "calendar", "2027-02-18 (Thursday)", success=True, expression="2026-11-20 + 90 days")
    assert unused_mentions(task, [other_day]) == ["20"]  # within 2026, not the day the request gives
    assert unused_mentions(task, [its_day]) == []
    task = "Split 1,200 euros over 12 months."  # one number with its thousands separator
    assert read_request(task).mentions == ("1200", "12")
    for expression in ("1200 / 12", "1,200 / 12"):
        shared = called(1, "calculator", "100", success=True, expression=expression)
        assert unused_mentions(task, [shared]) == [], expression
