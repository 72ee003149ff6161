"""The coach's checks of what a run wrote: a file worked out from what the run read stands only when the model writes
it the same again (autoagent/coach/edits.py), and the framing a file's content was quoted in is never written; the
answer to a request that asks for no change stands only when the model gives it again, numbers or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoagent import AutoGPT
from autoagent.acting.fence import fence
from autoagent.acting.toolbox import Toolbox
from autoagent.checks import CheckContext, Verdict, VerdictKind
from autoagent.coach import Coach
from autoagent.coach.drafts import Drafts
from autoagent.coach.edits import derived, describe, edits_verdict, lines_of, shape, written
from autoagent.coach.referee import Referee
from autoagent.prompts import PromptTemplateBuilder
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.tools import file_tools

from .scripted import act
from .test_consistency import _Sampled

WRITERS = ("write_file", "copy_file")
PROMPTS = PromptTemplateBuilder()
SIZES = "250\n18\n1024\n7\n"


def called(number: int, name: str, observation: str, success: bool = True, **args: str) -> Step:
    decision = ThoughtAndAction(thought=Thought(text="t"), action=Action(name=name, args=args))
    return Step(number, StepKind.ACTION, "", decision, observation, success=success)


def read_sizes() -> Step:
    return called(1, "read_file", fence("The content of 'sizes.txt' (4 lines):", SIZES, kind="FILE",
                                        source="the workspace file 'sizes.txt'"), path="sizes.txt")


def test_the_last_content_each_file_got_from_a_write_that_worked_is_what_was_written() -> None:
    steps = [read_sizes(),
             called(2, "write_file", "Wrote 2 characters to a.txt.", path="a.txt", content="v1"),
             called(3, "write_file", "failed", success=False, path="a.txt", content="never written"),
             called(4, "write_file", "Wrote 2 characters to a.txt.", path="a.txt", content="v2"),
             called(5, "copy_file", "Copied a.txt to b.txt.", source="a.txt", destination="b.txt")]
    assert written(steps, WRITERS) == {"a.txt": "v2"}  # a copy writes no text of the model's


def test_a_content_is_derived_when_most_of_its_words_stand_in_what_the_reads_showed() -> None:
    steps = [read_sizes()]
    assert derived("7\n18\n250\n1024", steps, WRITERS)
    assert derived("1. 7\n2. 18\n3. 250\n4. 1024", steps, WRITERS)  # numbered: most of it was read
    assert not derived("An old silent pond\nA frog jumps into the pond\nSplash! Silence again", steps, WRITERS)
    assert not derived("", steps, WRITERS)


def test_contents_are_compared_line_by_line_without_blanks_fences_or_surrounding_quotes() -> None:
    assert lines_of("```\n7\n\n18  \n```\n") == ["7", "18"] == lines_of('"7\n18"')
    assert lines_of("7\n18") != lines_of("18\n7")


def context(steps: list[Step], *drafts: str) -> Drafts:
    """The drafts of a finish whose model writes `drafts`, in order, each time it is asked to write a file anew."""

    def draw(prompt: str, count: int, max_tokens: int, first_seed: int) -> list[str]:
        return list(drafts)[first_seed - 1:first_seed - 1 + count]

    finish = CheckContext("Sort sizes.txt.", steps, lambda: "Done.", draw_replies=draw)
    return Drafts(PROMPTS, Toolbox(file_tools(Path("."))), 512).begin(finish)


def test_a_file_written_from_what_was_read_stands_only_when_the_drafts_write_it_the_same() -> None:
    steps = [read_sizes(), called(2, "write_file", "Wrote 13 characters to sizes.txt.", path="sizes.txt",
                                  content="7\n18\n250\n1024")]
    assert edits_verdict(context(steps, "7\n18\n250\n1024", "```\n7\n18\n250\n1024\n```"), WRITERS, PROMPTS) is None
    stopped = edits_verdict(context(steps, "7\n18\n250\n1024", "250\n18\n1024\n7"), WRITERS, PROMPTS)
    assert stopped is not None and stopped.kind is VerdictKind.STOP and stopped.reason is StopReason.UNVERIFIED
    assert stopped.note.startswith("sizes.txt was not written the same when the model wrote it again")
    undrawn = Drafts(PROMPTS, Toolbox([]), 512).begin(CheckContext.of("Sort sizes.txt.", steps, "Done."))
    assert edits_verdict(undrawn, WRITERS, PROMPTS) is None  # a run that cannot draw drafts


def made_up(content: str, *drafts: str) -> Verdict | None:
    steps = [called(1, "write_file", "Wrote it.", path="poem.txt", content=content)]
    return edits_verdict(context(steps, *drafts), WRITERS, PROMPTS)


def test_a_made_up_file_stands_when_the_drafts_take_its_shape_whatever_their_words() -> None:
    poem = "Autumn moon\nrises over\nthe still pond"
    assert made_up(poem, "Cold rain\non the roof\nall night", "```\nA frog\n\njumps in\nsplash\n```") is None
    assert made_up('{"name": "Lena", "age": 34}', '{\n  "age": 51,\n  "name": "Omar"\n}', '{"name": "Ai", "age": 9}') \
        is None  # a JSON object's keys, in any order and layout
    assert made_up("fruit,colour\napple,red", "fruit,colour\nplum,purple", "fruit,colour\nkiwi,green") is None
    assert made_up("Red, gold and brown\nleaves fall", "Leaves fall\nslowly, softly, down", "Two\nlines") is None
    stopped = made_up(poem, "Cold rain\non the roof", "Cold rain\non the roof\nall night\nlong")  # drafts disagree
    assert stopped is not None and stopped.kind is VerdictKind.STOP and stopped.reason is StopReason.UNVERIFIED
    assert stopped.note == "poem.txt did not take the same shape when the model wrote it again: 3 lines | 2 lines | " \
        "4 lines"


def test_where_two_drafts_agree_on_a_shape_the_made_up_file_lacks_the_agent_writes_the_first() -> None:
    rewrite = made_up("Autumn moon\nrises\nover\nthe pond", "Cold rain\non the roof\nall night",
                      "Old pond\nfrog jumps\nsplash")
    assert rewrite is not None and rewrite.kind is VerdictKind.RUN_TOOL
    assert rewrite.args == {"path": "poem.txt", "content": "Cold rain\non the roof\nall night"}
    keys = made_up('{"name": "Lena"}', '{"name": "Omar", "age": 51}', '{"age": 9, "name": "Ai"}')
    assert keys is not None and keys.args["content"] == '{"name": "Omar", "age": 51}'
    columns = made_up("fruit,colour,price\napple,red,1", "fruit,colour\nplum,purple", "fruit,colour\nkiwi,green")
    assert columns is not None and columns.args["content"] == "fruit,colour\nplum,purple"  # tables: their fields
    ragged = made_up("fruit,colour\napple", "fruit,colour\nplum,purple", "fruit,colour\nkiwi,green")
    assert ragged is None  # lines that are no table (a poem's commas) are compared by their number only


def test_a_shape_is_a_json_objects_keys_or_a_count_of_lines_with_a_tables_fields() -> None:
    assert shape('```json\n{"b": 1, "a": [1, 2]}\n```') == ("object", "a", "b")
    assert shape('[{"id": 1, "x": 2}, {"id": 2}]') == ("array", "2", "id", "x")
    assert shape("a|b|c\n1|2|3\n\n4|5|6\n") == ("lines", "3", "3 fields split by '|'")
    assert shape("one, two\nthree") == ("lines", "2")  # commas on some lines only: no table
    assert shape("just one, line") == ("lines", "1")
    assert describe(shape("a,b\n1,2")) == "2 lines of 2 fields split by ','"
    assert describe(shape('{"name": "x", "age": 1}')) == "an object of age, name"


def test_where_the_drafts_agree_with_each_other_and_not_with_the_file_the_agent_writes_theirs_once() -> None:
    steps = [read_sizes(), called(2, "write_file", "Wrote 13 characters to sizes.txt.", path="sizes.txt",
                                  content="250\n18\n1024\n7\n")]
    rewrite = edits_verdict(context(steps, "```\n7\n18\n250\n1024\n```", "7\n18\n250\n1024"), WRITERS, PROMPTS)
    assert rewrite is not None and rewrite.kind is VerdictKind.RUN_TOOL and rewrite.tool == "write_file"
    assert rewrite.args == {"path": "sizes.txt", "content": "7\n18\n250\n1024\n"}  # the file's own ending kept
    assert "came out alike twice" in rewrite.note
    own = Step(3, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=rewrite.note), action=Action(
        name="write_file", args=dict(rewrite.args))), "Wrote 17 characters to sizes.txt.", success=True, check="coach")
    again = edits_verdict(context([*steps, own], "7\n18\n250\n1024", "250\n18\n1024\n7"), WRITERS, PROMPTS)
    assert again is not None and again.kind is VerdictKind.STOP  # once a file: the next disagreement stops
    sorted_steps = [read_sizes(), called(2, "write_file", "Wrote 13 characters to sizes.txt.", path="sizes.txt",
                                         content="7\n18\n250\n1024\n")]
    copied = edits_verdict(context(sorted_steps, SIZES, SIZES), WRITERS, PROMPTS)  # drafts that copy the read file
    assert copied is not None and copied.kind is VerdictKind.STOP


def sort_run(tmp_path: Path, first: str, *replies: str) -> tuple[Any, _Sampled]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "sizes.txt").write_text(SIZES, encoding="utf-8")
    llm = _Sampled(replies=[act("read_file", path="sizes.txt"), act("write_file", path="sizes.txt", content=first),
                            act("FINISH"), "The numbers in sizes.txt are now sorted.", *replies])
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path))
    return agent.execute("Sort the numbers in sizes.txt from small to large and save it."), llm


def test_the_coach_has_a_sampling_model_write_a_worked_out_file_again_without_showing_it_the_write(
        tmp_path: Path) -> None:
    agreed, llm = sort_run(tmp_path, "7\n18\n250\n1024", "7\n18\n250\n1024", "7\n18\n250\n1024\n")
    assert agreed.finished and agreed.answer == "The numbers in sizes.txt are now sorted."
    drafted = llm.prompts[-2:]
    assert all("sizes.txt" in prompt and "7\n18\n250\n1024" not in prompt and "Wrote" not in prompt
               for prompt in drafted)  # the read is shown, the write's content and its result are not
    assert [given["seed"] for given in llm.given if "seed" in given] == [1, 2]

    disputed, _ = sort_run(tmp_path / "again", "7\n18\n250\n1024", "7\n18\n250\n1024", "18\n7\n250\n1024")
    assert disputed.stop_reason is StopReason.UNVERIFIED
    assert disputed.answer == "The numbers in sizes.txt are now sorted."  # shown, as unsure
    assert disputed.steps[-1].check == "coach" and "not written the same" in disputed.steps[-1].observation


def test_the_agent_writes_what_two_drafts_agree_on_and_the_next_finish_draws_new_drafts(tmp_path: Path) -> None:
    right = "7\n18\n250\n1024"
    run, llm = sort_run(tmp_path, "250\n18\n1024\n7", right, right,  # the drafts agree, the file does not
                        act("FINISH"), "sizes.txt is sorted.", right, right)
    assert run.finished and (tmp_path / "sizes.txt").read_text(encoding="utf-8") == right
    own = run.steps[-2]
    assert own.check == "coach" and own.action is not None and own.action.args["content"] == right and own.success
    assert [given["seed"] for given in llm.given if "seed" in given] == [1, 2, 3, 4]  # new seeds, the same prompt


def test_the_framing_of_a_quoted_file_is_never_written_into_a_file() -> None:
    read = read_sizes()
    tag = read.observation.splitlines()[1].rsplit(" ", 1)[-1].rstrip(":.")
    referee = Referee(PromptTemplateBuilder(), ("read_file", "write_file"), ("write_file",))
    copied = Action(name="write_file", args={"path": "big.txt", "content": read.observation.upper()})
    objection = referee.review_action("Make sizes.txt upper case.", copied, [read], writes=True)
    assert tag and objection is not None and objection.template == "copied_fence"
    assert referee.review_action("Make sizes.txt upper case.", copied, [read], writes=True) is not None  # each time
    plain = Action(name="write_file", args={"path": "big.txt", "content": SIZES})
    assert referee.review_action("Copy sizes.txt.", plain, [read], writes=True) is None


def test_an_answer_without_numbers_to_a_question_about_a_file_stands_only_when_given_again(tmp_path: Path) -> None:
    (tmp_path / "todo.md").write_text("- [ ] pack\n- [x] call\n- [ ] ship\n", encoding="utf-8")

    def run(*samples: str) -> Any:
        llm = _Sampled(replies=[act("read_file", path="todo.md"), act("FINISH"),
                                "Nothing is left to do in todo.md.", *samples])
        agent = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path))
        return agent.execute("What is left to do in todo.md?")

    disputed = run("2", "pack and ship")
    assert disputed.stop_reason is StopReason.UNVERIFIED and "did not agree" in disputed.steps[-1].observation
    assert disputed.answer == "Nothing is left to do in todo.md." and not disputed.model_answer
    outvoted = run("pack and ship", "pack and ship.")  # the samples agree with each other, the draft stands
    assert outvoted.stop_reason is StopReason.UNVERIFIED and outvoted.answer == "Nothing is left to do in todo.md."
    assert run("Nothing is left.", "nothing left").finished


def test_a_check_that_stops_a_run_with_its_own_answer_shows_it_and_keeps_the_models() -> None:
    from .scripted import ScriptedChatModel

    def unsure(context: CheckContext) -> Verdict:
        return Verdict.stop("the day was not checked", answer="2026-03-06")

    llm = ScriptedChatModel(replies=[act("FINISH"), "It is March 7."])
    run = AutoGPT(llm=llm, tools=[], checks=[unsure]).execute("What day is it?")
    assert run.stop_reason is StopReason.UNVERIFIED and run.answer == "2026-03-06"
    assert run.model_answer == "It is March 7." and run.steps[-1].check == "unsure"


def test_a_check_may_ask_the_model_a_question_of_its_own_after_the_task_and_the_results() -> None:
    def asks_to_change(context: CheckContext) -> Verdict:
        replies = context.ask("Does the task ask to change a file? Reply yes or no.", 3)
        changed = any(step.action is not None and step.action.name == "write_file" for step in context.steps)
        yes = sum(reply.lower().startswith("yes") for reply in replies)
        return Verdict.send_back("Make the change first.") if 2 * yes > len(replies) and not changed else \
            Verdict.accept()

    llm = _Sampled(replies=[act("FINISH"), "Nothing to do.", "Yes", "yes.", "No", act("FINISH"), "Done.",
                            "no", "No", "No"])
    run = AutoGPT(llm=llm, tools=[], checks=[asks_to_change], max_thought_steps=3).execute("Tidy the notes.")
    assert [step.kind for step in run.steps] == [StepKind.REJECTED, StepKind.FINISH] and run.finished
    assert llm.prompts[2].startswith(llm.prompts[1]) and llm.prompts[2].endswith("Reply yes or no.")  # after it
    assert [given["seed"] for given in llm.given if "seed" in given] == [1, 2, 3, 1, 2, 3]  # a finish draws anew


def test_a_path_keeps_the_dot_its_name_starts_with() -> None:
    from autoagent.coach.writes import plain_path, written_to

    assert [plain_path(path) for path in (" ./notes.txt", "/notes.txt", "././a/b.md", ".env", "./.env.example")] == [
        "notes.txt", "notes.txt", "a/b.md", ".env", ".env.example"]
    assert written_to(Action(name="write_file", args={"path": ".env.example", "content": "A="})) == ".env.example"
