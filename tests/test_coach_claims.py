"""What a finish's answer says of the workspace must hold there (coach/claims.py)."""

from __future__ import annotations

from pathlib import Path

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.claims import object_to_claims
from autoagent.coach.rules import Rule
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.tools import file_tools

from .scripted import ScriptedChatModel, act

WRITERS = ("write_file", "delete_file", "move_file", "copy_file")


def ran(number: int, name: str, observation: str, **args: object) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="working"), action=Action(name=name, args=dict(args)))
    return Step(number, StepKind.ACTION, "", decision, observation)


def agent_on(folder: Path, *replies: str) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(folder)), llm  # type: ignore[arg-type]


def test_an_answer_saying_a_file_was_changed_that_no_step_changed_is_sent_back_once(tmp_path: Path) -> None:
    (tmp_path / "people.csv").write_text("id,name,phone\n1,Ann,555\n")
    agent, _ = agent_on(tmp_path, act("read_file", path="people.csv"), act("FINISH"),
                          "The phone column has been taken out of people.csv.",
                          act("write_file", path="people.csv", content="id,name\n1,Ann\n"), act("FINISH"),
                          "The phone column has been removed from people.csv.")

    result = agent.execute("For privacy, take the phone column out of people.csv.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                     StepKind.FINISH]
    assert "the steps above did not make it so for people.csv" in result.steps[1].observation
    assert result.finished and (tmp_path / "people.csv").read_text() == "id,name\n1,Ann\n"


def test_a_second_answer_claiming_what_no_step_did_ends_the_run_unverified(tmp_path: Path) -> None:
    (tmp_path / "sshd_config").write_text("# a comment\nPort 22\n")
    claim = "sshd_config has been cleaned up: every comment line removed."
    agent, _ = agent_on(tmp_path, act("read_file", path="sshd_config"), act("FINISH"), claim, act("FINISH"), claim)

    result = agent.execute("Clean up sshd_config: take out every comment line.")

    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop().endswith("the answer says of sshd_config what no step made so")
    assert result.answer == claim  # shown, as unsure


def test_files_an_answer_names_that_the_workspace_does_not_hold_are_claims_no_step_made(tmp_path: Path) -> None:
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "2026-07-14-lake.jpg").write_text("x")
    moved = ran(1, "move_file", "Moved photos/IMG_1.jpg to photos/2026-07-14-lake.jpg.", source="photos/IMG_1.jpg",
                destination="photos/2026-07-14-lake.jpg")
    answer = "Renamed as listed: photos/2026-07-14-lake.jpg, photos/2026-07-15-canoe.jpg."

    objection = object_to_claims(answer, "Rename the photos as renames.csv says.", [moved], tmp_path, WRITERS, ())

    assert objection is not None and objection.rule is Rule.FILE_CLAIM and objection.ends is None
    assert objection.variables["items"] == "photos/2026-07-15-canoe.jpg"
    again = object_to_claims(answer, "Rename the photos as renames.csv says.", [moved], tmp_path, WRITERS,
                             {Rule.FILE_CLAIM})
    assert again is not None and again.ends is StopReason.UNVERIFIED


def test_a_file_named_from_its_dot_in_two_parts_is_a_claim_and_a_kind_of_file_is_none(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("KEY=1\n")
    (tmp_path / "a.jpg").write_text("x")
    task = "Create a .env.example from .env, every value left empty."

    objection = object_to_claims("The result is a new file named `.env.example`.", task, [], tmp_path, WRITERS, ())

    assert objection is not None and objection.variables["items"] == ".env.example"
    assert object_to_claims("Every .jpeg file now ends in .jpg, and .env is as it was.", task, [], tmp_path,
                            WRITERS, ()) is None


def test_what_the_steps_did_and_what_a_question_asks_are_no_false_claims(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("a")
    (tmp_path / "summary.txt").write_text("s")
    (tmp_path / "data.csv").write_text("1\n")
    wrote = ran(1, "write_file", "Wrote 1 character to summary.txt.", path="summary.txt", content="s")
    deleted = ran(2, "delete_file", "Deleted old.txt.", path="old.txt")
    steps = [wrote, deleted]
    task = "Summarise data.csv into summary.txt and delete old.txt."

    # a source named beside the file the step wrote; a file a step removed; a file in a folder, by its name; a
    # web address and an e-mail address
    for answer in ("Created summary.txt from data.csv.", "Deleted old.txt.", "a.md is in notes, as before.",
                   "Saved; see https://example.com/index.html or write to ops@example.org."):
        assert object_to_claims(answer, task, steps, tmp_path, WRITERS, ()) is None, answer
    # an answer to a question may name what the steps only read
    assert object_to_claims("data.csv was changed last.", "Which file was changed last?", [], tmp_path, WRITERS,
                            ()) is None
    assert object_to_claims("data.csv has been updated.", task, [], None, WRITERS, ()) is None  # no workspace
    # the same answer, with nothing done, is a claim
    assert object_to_claims("data.csv has been updated.", task, [], tmp_path, WRITERS, ()) is not None


def test_a_chinese_answer_claiming_a_change_no_step_made_is_a_claim(tmp_path: Path) -> None:
    (tmp_path / "账本.txt").write_text("1\n")

    objection = object_to_claims("已删除账本.txt 里的空行。", "删除账本.txt 里的空行。", [], tmp_path, WRITERS, ())

    assert objection is not None and objection.variables["items"] == "账本.txt"
