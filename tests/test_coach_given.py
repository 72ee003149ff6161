"""What a run owes its request, part by part: every change it asks for is made by a tool that makes that change,
and a call takes the days the request gives, not others."""

from __future__ import annotations

import pytest

from autoagent.coach.given_days import object_to_unknown_day
from autoagent.coach.referee import Referee
from autoagent.coach.request import read_request
from autoagent.coach.writes import object_to_no_change
from autoagent.prompts import PromptTemplateBuilder
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind

WRITERS = ("write_file", "copy_file", "move_file", "delete_file")


def called(number: int, name: str, observation: str, success: bool = True, **args: str) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="t"), action=Action(name=name, args=args))
    return Step(number, StepKind.ACTION, "", decision, observation, success=success)


@pytest.mark.parametrize(("request_", "kinds"), [
    ("Copy plan.md to plan.old.md and then replace every 'draft' in plan.md with 'final'.", [("copy", True),
                                                                                            ("write", True)]),
    ("log.txt has blank lines. Take them out: remove every blank line.", [("delete", False)]),
    ("Remove the comments from main.py.", [("write", True)]),  # content out of a file: the file is written
    ("Remove main.py from the workspace.", [("delete", True)]),
    ("Read prices.csv and give me the average. Do not change the file.", []),
    ("Create a folder named old and move a.txt into it.", [("move", True)]),  # the move says most
    ("从 notes.txt 中删除空行。", [("write", True)]),
    ("Write a limerick about rain.", []),  # no file or folder: the answer is the outcome
])
def test_each_part_of_a_request_that_asks_for_a_change_is_read_with_what_it_does(request_: str,
                                                                                 kinds: list[tuple[str, bool]]) -> None:
    assert [(change.kind, change.placed) for change in read_request(request_).changes] == kinds


def test_a_copy_does_not_make_the_edit_the_next_part_asks_for() -> None:
    request_ = "Copy plan.md to plan.old.md and then replace every 'draft' in plan.md with 'final'."
    copy = called(1, "copy_file", "Copied plan.md to plan.old.md.", source="plan.md", destination="plan.old.md")
    objection = object_to_no_change(request_, [copy], WRITERS, set())
    assert objection is not None and objection.variables["tools"] == "write_file"
    edit = called(2, "write_file", "Wrote 30 characters to plan.md.", path="plan.md", content="final")
    assert object_to_no_change(request_, [copy, edit], WRITERS, set()) is None


def test_a_change_asked_in_a_sentence_that_names_no_file_is_still_asked_when_another_sentence_names_it() -> None:
    request_ = "log.txt has blank lines. Take them out: remove every blank line."
    read = called(1, "read_file", "The content of 'log.txt' ...", path="log.txt")
    objection = object_to_no_change(request_, [read], WRITERS, set())
    assert objection is not None and objection.variables["tools"] == ", ".join(WRITERS)  # how: the model's to read
    assert objection.variables["tool"] == ""  # so no one tool is led to
    wrote = called(2, "write_file", "Wrote 12 characters to log.txt.", path="log.txt", content="a\nb\n")
    assert object_to_no_change(request_, [read, wrote], WRITERS, set()) is None


def test_removing_lines_from_a_file_is_done_by_writing_it_not_by_deleting_it() -> None:
    objection = object_to_no_change("Remove the comments from main.py.", [], WRITERS, set())
    assert objection is not None and objection.variables["tool"] == "write_file"


LEASE = "The lease starts on 14 March 2027 and runs for 60 days. On what date does it end?"


@pytest.mark.parametrize(("expression", "objected"), [
    ("2027-03-04 + 60 days", True),  # a day the request does not give
    ("2027-03-14 + 60 days", False),
    ("March 14, 2027 + 59 days", False),  # the same day, written another way
    ("2027-05-13", False),  # shown by the result before (below)
])
def test_a_call_that_takes_a_day_the_request_does_not_give_is_questioned(expression: str, objected: bool) -> None:
    earlier = [called(1, "calendar", "2027-05-13 (Thursday)", expression="14 March 2027 + 60 days")]
    objection = object_to_unknown_day(Action(name="calendar", args={"expression": expression}), LEASE, earlier)
    assert (objection is not None) is objected
    if objection is not None:
        assert objection.variables == {"day": "2027-03-04", "given": "14 March 2027"}


def test_a_day_given_without_its_year_is_given_and_a_request_with_no_day_questions_none() -> None:
    call = Action(name="calendar", args={"expression": "2027-06-03 - 2027-05-03"})
    assert object_to_unknown_day(call, "How many days are there from 3 May to 3 June 2027?", []) is None
    assert object_to_unknown_day(call, "How many days until the end of the quarter?", []) is None
    assert object_to_unknown_day(call, "How many days are there from 4 May to 3 June 2027?", []) is not None


def test_the_referee_questions_a_day_not_given_once_a_run_and_then_lets_the_call_run() -> None:
    judge = Referee(PromptTemplateBuilder(), ("calendar",), (), "", "calendar")
    call = Action(name="calendar", args={"expression": "2027-03-04 + 60 days"})
    objection = judge.review_action(LEASE, call, [], writes=False)
    assert objection is not None and objection.template == "unknown_day"
    assert "2027-03-04" in judge.prompts.render(objection.template, **objection.variables)
    assert judge.review_action(LEASE, call, [], writes=False) is None
