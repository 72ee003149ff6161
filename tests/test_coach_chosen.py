"""Files a run chose itself: moved, copied or removed files the request does not name end it unverified
(coach/chosen.py)."""

from __future__ import annotations

from pathlib import Path

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.chosen import object_to_chosen
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.tools import file_tools

from .scripted import ScriptedChatModel, act


def ran(number: int, name: str, observation: str, **args: object) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="working"), action=Action(name=name, args=dict(args)))
    return Step(number, StepKind.ACTION, "", decision, observation)


def agent_on(folder: Path, *replies: str) -> AutoGPT:
    return AutoGPT(advisors=[Coach()], llm=ScriptedChatModel(replies=list(replies)),  # type: ignore[arg-type]
                   tools=file_tools(folder))


def test_files_a_run_chose_to_remove_end_it_unverified_with_its_answer_shown(tmp_path: Path) -> None:
    (tmp_path / "exports").mkdir()
    (tmp_path / "exports" / "july.csv").write_text("id\n1\n")
    (tmp_path / "exports" / "august.csv").write_text("id\n")
    agent = agent_on(tmp_path, act("list_files", path="exports"), act("delete_file", path="exports/july.csv"),
                     act("FINISH"), "Deleted exports/july.csv.")

    result = agent.execute("Some files in the exports folder hold only their header. Delete those.")

    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop().endswith("it chose files the request does not name: exports/july.csv")
    assert result.answer == "Deleted exports/july.csv."


def test_files_the_request_names_by_name_kind_or_whole_folder_are_not_chosen() -> None:
    tools = ("read_file", "write_file", "delete_file", "move_file", "copy_file")
    cases = [("Rename report.txt to final.txt.", "move_file", {"source": "report.txt", "destination": "final.txt"}),
             ("Delete every .tmp file in the workspace.", "delete_file", {"path": "cache/a.tmp"}),
             ("Copy the notes folder into backup.", "copy_file", {"source": "notes/*", "destination": "backup"}),
             ("Empty the trash folder.", "delete_file", {"path": "trash"}),
             ("Move the PDFs into the docs folder.", "move_file", {"source": "a.pdf", "destination": "docs/a.pdf"}),
             ("Copy every Markdown (.md) file in notes to backup.", "copy_file", {"source": "notes/a.md",
                                                                                  "destination": "backup"})]
    for task, name, args in cases:
        step = ran(1, name, "Done.", **args)
        assert object_to_chosen(task, [step], tools) is None, task
    moved = ran(1, "move_file", "Moved.", source="photos/IMG_1.jpg", destination="photos/lake.jpg")
    objection = object_to_chosen("Rename the photos in the photos folder as renames.csv says.", [moved], tools)
    assert objection is not None and objection.variables["items"] == "photos/IMG_1.jpg"
    # the ending of a file the request names is no kind it names
    assert object_to_chosen("Rename the notes as renames.csv says.", [ran(1, "move_file", "Moved.", source="b.csv")],
                            tools) is not None
    assert object_to_chosen("Rename them.", [ran(1, "move_file", "Moved a.jpg.", source="a.jpg")], tools) is not None
    failed = Step(1, StepKind.ACTION, "", moved.decision, "move_file failed: no such file", success=False)
    assert object_to_chosen("Rename them.", [failed], tools) is None
    assert object_to_chosen("Rename them.", [moved], ("read_file", "write_file")) is None  # no tool moves files
