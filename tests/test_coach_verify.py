"""A run earns "finished": unsupported finishes are sent back, rewrites questioned, format JSON never the answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.coach.clauses import clause_of, next_clause
from autoagent.coach.leads import Leader
from autoagent.coach.verify import (
    claimed_calculation,
    mentions,
    unused_mentions,
    worked_out,
)
from autoagent.loop.answers import is_answer, is_format_json
from autoagent.reply import Action, Thought, ThoughtAndAction
from autoagent.steps import Step, StepKind, StopReason
from autoagent.tools import file_tools

from .scripted import ScriptedChatModel, act


@tool
def multiply(a: int, b: int) -> str:
    """Multiply two integers."""
    return str(a * b)


@tool
def explode(reason: str) -> str:
    """A tool that always fails."""
    raise RuntimeError(f"boom: {reason}")


def hold_schemas(monkeypatch: pytest.MonkeyPatch, llm: ScriptedChatModel) -> list[dict[str, object]]:
    """Record every schema a reply is held to, answering from `llm` as if held."""
    held: list[dict[str, object]] = []

    def bind(model: object, schema: dict[str, object]) -> RunnableLambda:
        held.append(schema)
        return RunnableLambda(lambda messages: llm.invoke(messages))

    monkeypatch.setattr("autoagent.protocols.thought_action.bind_json_schema", bind)
    return held


def agent_with(*replies: str, tools: list | None = None) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(advisors=[Coach()], llm=llm, tools=tools or [multiply, explode]), llm  # type: ignore[arg-type]


def test_a_finish_before_any_tool_ran_is_sent_back_once() -> None:
    agent, llm = agent_with(act("FINISH"), act("multiply", a=6, b=7), act("FINISH"), "It is 42.")

    result = agent.execute("What is 6 times 7?")

    assert [step.kind for step in result.steps] == [StepKind.REJECTED, StepKind.ACTION, StepKind.FINISH]
    assert result.finished and result.answer == "It is 42."
    assert "no tool has run successfully" in llm.prompts[1]


def test_a_second_finish_with_no_tool_stands_for_a_task_that_needs_none_when_the_model_says_it_again() -> None:
    agent, llm = agent_with(act("FINISH"), act("FINISH"), "Hello to you too.", "Hello!", "hello")

    result = agent.execute("Say hello.")

    assert result.finished and [step.kind for step in result.steps] == [StepKind.REJECTED, StepKind.FINISH]
    assert result.answer == "Hello to you too." and len(llm.calls) == 5  # two short answers sampled beside it


def test_an_answer_from_what_the_model_knows_that_it_does_not_give_again_is_unverified() -> None:
    @tool
    def web_search(query: str) -> str:
        """Search the web."""
        raise ValueError("no network")

    agent, _ = agent_with(act("web_search", query="capital"), act("FINISH"), act("FINISH"),
                          "The capital of Australia is Sydney.", "Canberra", "Sydney", tools=[web_search])

    result = agent.execute("What is the capital of Australia?")

    assert result.stop_reason is StopReason.UNVERIFIED and not result.finished
    assert result.answer == "The capital of Australia is Sydney."  # shown, as unsure
    assert result.steps[-1].check == "coach" and "did not agree" in result.steps[-1].observation


def test_an_answer_from_what_the_model_knows_stands_when_every_sample_agrees_though_the_search_failed() -> None:
    @tool
    def web_search(query: str) -> str:
        """Search the web."""
        raise ValueError("no network")

    agent, _ = agent_with(act("web_search", query="capital"), act("FINISH"), act("FINISH"),
                          "The capital of Australia is Canberra.", "Canberra.", "canberra", tools=[web_search])

    result = agent.execute("What is the capital of Australia?")

    assert result.finished and result.answer == "The capital of Australia is Canberra."


def test_finishing_when_every_tool_failed_is_not_finished() -> None:
    agent, llm = agent_with(act("rename_file", src="a"), act("FINISH"), act("FINISH"), "Renamed.")

    result = agent.execute("Rename a to b.")

    assert not result.finished and result.stop_reason is StopReason.STEP_FAILED
    assert result.answer == "Renamed." and len(llm.calls) == 4  # the draft is shown, as unsure: not finished
    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.REJECTED]


def test_a_finish_right_after_a_failed_action_is_sent_back() -> None:
    agent, llm = agent_with(act("multiply", a=2, b=3), act("explode", reason="x"), act("FINISH"),
                            act("FINISH"), "6")

    result = agent.execute("Multiply 2 by 3.")

    assert [step.kind for step in result.steps][-2:] == [StepKind.REJECTED, StepKind.FINISH]
    assert "the action of step 2 failed" in llm.prompts[3]
    assert result.finished


def test_rewriting_a_file_the_run_just_wrote_is_questioned_once(tmp_path: Path) -> None:
    tools = file_tools(tmp_path)
    agent, llm = agent_with(act("write_file", path="hi.txt", content="hello"),
                            act("write_file", path="hi.txt", content="hi"), act("FINISH"), "Done.", tools=tools)

    result = agent.execute("Write the word hello into a file named hi.txt.")  # (a "5" is a copied note: test_leads)

    assert (tmp_path / "hi.txt").read_text() == "hello"
    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.FINISH]
    assert "already wrote hi.txt" in llm.prompts[2]


def test_the_model_may_insist_on_a_rewrite(tmp_path: Path) -> None:
    tools = file_tools(tmp_path)
    again = act("write_file", path="hi.txt", content="hello!")
    agent, _ = agent_with(act("write_file", path="hi.txt", content="hello"), again, again, act("FINISH"), "Done.",
                          tools=tools)

    agent.execute("Write hello into hi.txt, then make it hello!")

    assert (tmp_path / "hi.txt").read_text() == "hello!"


def test_format_json_from_the_finish_prompt_gives_way_to_the_observation() -> None:
    format_json = "```json\n" + act("FINISH") + "\n```"
    agent, llm = agent_with(act("multiply", a=1234, b=5678), act("FINISH"), format_json, format_json)

    result = agent.execute("What is 1234 * 5678?")

    assert result.answer == "7006652" and result.finished  # asked again once, then the coach stands in the result
    assert "That was not an answer" in llm.prompts[-1]
    assert result.model_answer == format_json.strip() and result.steps[-1].check == "coach"


def test_without_the_coach_format_json_twice_ends_the_run_unverified_with_the_result_shown() -> None:
    format_json = "```json\n" + act("FINISH") + "\n```"
    llm = ScriptedChatModel(replies=[act("multiply", a=1234, b=5678), act("FINISH"), format_json, "It is 7006652."])
    result = AutoGPT(llm=llm, tools=[multiply]).execute("What is 1234 * 5678?")
    assert result.finished and result.answer == "It is 7006652."  # the second ask gave an answer: it stands
    llm = ScriptedChatModel(replies=[act("multiply", a=1234, b=5678), act("FINISH"), format_json, format_json])
    result = AutoGPT(llm=llm, tools=[multiply]).execute("What is 1234 * 5678?")
    assert result.stop_reason is StopReason.UNVERIFIED and result.answer == "7006652"
    assert result.model_answer == format_json.strip() and result.steps[-1].check == "answer"


def test_format_json_is_recognised_and_real_answers_are_kept() -> None:
    assert is_format_json(json.dumps({"thought": "done", "action": {"name": "FINISH", "args": {}}}))
    assert is_format_json('{"action": {"name": "calculator"')
    assert not is_format_json('{"total": 42}')
    assert not is_format_json("The answer is 42.")
    assert is_format_json("FINISH {}") and is_format_json("Action: calculator -> 42")
    assert not is_format_json("Finished: hi.txt holds hello.")
    assert is_answer("  The answer is 42. ", []) and not is_answer("  ", [])


def test_a_finish_that_leaves_a_given_number_or_file_unused_is_sent_back_once(tmp_path: Path) -> None:
    tools = [multiply, *file_tools(tmp_path)]
    agent, llm = agent_with(act("multiply", a=345, b=12), act("FINISH"),
                            act("write_file", path="result.txt", content="4140"), act("FINISH"), "Done.",
                            tools=tools)

    result = agent.execute("Compute 345 * 12 and write the result into a file named result.txt.")

    assert "Not done yet: the task also gives result.txt, which no step has used" in llm.prompts[1]  # said before
    assert "the task gives result.txt, but no step has used it yet" in llm.prompts[2]  # and after a finish
    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                     StepKind.FINISH]
    assert (tmp_path / "result.txt").read_text() == "4140" and result.finished


def test_a_second_finish_that_still_leaves_a_given_unused_ends_the_run_unverified(tmp_path: Path) -> None:
    agent, _ = agent_with(act("multiply", a=345, b=12), act("FINISH"), act("FINISH"), "It is 4140.",
                          tools=[multiply, *file_tools(tmp_path)])

    result = agent.execute("Compute 345 * 12 and write the result into a file named result.txt.")

    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop().endswith("the task gives result.txt, which no step used")
    assert result.answer == "It is 4140."  # the best answer the results allow is still given


def test_a_file_name_may_have_a_long_extension_and_an_email_address_is_none() -> None:
    assert mentions("Which keys are in messages_en.properties but not in messages_de.properties?") == [
        "messages_en.properties", "messages_de.properties"]
    assert mentions("Write to elena.petrova@example.org about notes.txt.") == ["notes.txt"]


def test_an_expression_that_is_only_a_number_takes_nothing() -> None:
    def calculated(expression: str) -> Step:
        decision = ThoughtAndAction(thought=Thought(text="t"), action=Action(name="calculator",
                                                                              args={"expression": expression}))
        return Step(1, StepKind.ACTION, "", decision, "26")

    assert unused_mentions("Which element has the atomic number 26?", [calculated(" 26 ")]) == ["26"]
    assert unused_mentions("Which element has the atomic number 26?", [calculated("26 * 2")]) == []


def test_mentions_are_the_numbers_file_names_and_days_from_today_a_task_gives() -> None:
    assert mentions("Compute 345 * 12 and write it to result.txt, then 12 again.") == ["345", "12", "result.txt"]
    assert mentions("What is 15% of 2480?") == ["15%", "2480"]  # a percentage, to be taken as one
    assert mentions("10天后是几月几号") == ["10天后"]  # its number is the phrase's
    assert mentions("What date will it be one week from today?") == ["one week from today"]
    assert mentions("What was the date 2 weeks ago, and next friday?") == ["2 weeks ago", "next friday"]
    assert mentions("下周五是几号？") == ["下周五"]  # noqa: RUF001
    assert mentions("What date is the day after tomorrow?") == ["the day after tomorrow"]  # not "tomorrow" alone
    assert mentions("and doubled?\n\n(Earlier in this conversation: What is 6*7? 42)") == []
    assert mentions("see report2.txt, e.g. https://example.com/a.html at 10am") == ["report2.txt"]
    assert mentions("What day of the week will it be Tomorrow?") == ["Tomorrow"]
    assert mentions("明天下午3点开会") == ["明天", "3"]
    assert mentions("What is today's date? And the time now?") == []  # today needs no argument of any tool
    assert mentions("Is tomorrowland open?") == []
    assert mentions("Move notes.txt into the archive folder.") == ["notes.txt", "archive/"]
    assert mentions("Copy a.txt to the folder named backup, not to the workspace folder") == ["a.txt", "backup/"]
    assert mentions("Put it in a new folder, or the same directory") == []
    assert mentions("把 notes.txt 移到 archive 文件夹") == ["notes.txt", "archive/"]


def test_a_folder_the_task_names_is_used_only_by_a_path_holding_it_whole() -> None:
    def moved_to(destination: str) -> Step:
        return Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
            name="move_file", args={"source": "notes.txt", "destination": destination})), "Moved.", success=True)

    task = "Move notes.txt into the archive folder."
    assert unused_mentions(task, [moved_to("archive.txt")]) == ["archive/"]
    assert unused_mentions(task, [moved_to("archive")]) == []
    assert unused_mentions(task, [moved_to("archive/notes.txt")]) == []


def test_after_a_finish_is_sent_back_the_next_reply_is_held_to_a_tool_call(monkeypatch: pytest.MonkeyPatch) -> None:
    held: list[bool] = []

    def strict_model(self: object, llm: object, finish: bool = True) -> RunnableLambda | None:
        if finish:
            return None
        return RunnableLambda(lambda messages: held.append(True) or AIMessage(act("multiply", a=6, b=7)))

    monkeypatch.setattr("autoagent.protocols.thought_action.ThoughtActionProtocol.strict_model", strict_model)
    agent, llm = agent_with(act("FINISH"), act("FINISH"), "It is 42.")

    result = agent.execute("What is 6 times 7?")

    assert held == [True] and len(llm.calls) == 3  # FINISH (sent back), the held call, FINISH, the answer
    assert [step.kind for step in result.steps] == [StepKind.REJECTED, StepKind.ACTION, StepKind.FINISH]
    assert result.finished and result.answer == "It is 42."


def test_a_number_counts_as_used_when_an_argument_holds_its_value() -> None:
    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="record", args={"amount": 12.5, "expression": "2480 * 0.15"})), "ok")
    assert unused_mentions("Record 12.50, then 15% of 2480 and 7 more.", [step]) == ["7"]


def test_given_numbers_worked_into_an_argument_count_as_used() -> None:
    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="calculator", args={"expression": "5030 * 0.15"})), "754.5")
    assert unused_mentions("Add 1250 and 3780, then take 15% of the sum.", [step]) == []  # 5030 = 1250 + 3780
    assert unused_mentions("Add 1250 and 3781, then take 15% of the sum.", [step]) == ["1250", "3781"]
    assert worked_out(["20", "3550", "4"], {0.2 * 3550}) == set()  # a product of a percentage: not one step
    assert worked_out(["20", "3550", "4"], {0.2}) == {"20"}


def test_an_answer_stating_a_number_no_tool_gave_is_sent_back_once(tmp_path: Path) -> None:
    (tmp_path / "numbers.txt").write_text("12\n30\n58\n")
    tools = [*file_tools(tmp_path), multiply]
    agent, llm = agent_with(act("read_file", path="numbers.txt"), act("FINISH"), "The product is 350.",
                            act("multiply", a=12, b=30), act("FINISH"), "The product is 360.", tools=tools)

    result = agent.execute("Read numbers.txt and tell me the product of its first two numbers.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                     StepKind.FINISH]
    assert 'your answer would say "The product is 350."' in llm.prompts[3]
    assert "no tool result shows 350" in llm.prompts[3]
    assert result.finished and result.answer == "The product is 360."


def test_a_call_on_numbers_of_its_own_grounds_nothing() -> None:
    from autoagent.coach.verify import founded, ungrounded_numbers

    copied = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="calculator", args={"expression": "1234*5678+17"})), "7006669")
    task = "What is the highest value in temps.csv?"
    assert founded(task, [copied]) == [] and ungrounded_numbers("It is 7006669.", task, [copied]) == ["7006669"]
    read = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="read_file", args={"path": "temps.csv"})), "day,temp\nmon,21.5\ntue,30.25")
    summed = Step(2, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="calculator", args={"expression": "21.5 + 30.25"})), "51.75")
    assert founded(task, [read, summed]) == [read, summed]  # numbers read from a file found the sum
    assert ungrounded_numbers("The sum is 51.75.", task, [read, summed]) == []


def call(number: int, name: str, observation: str, success: bool = True, **args: object) -> Step:
    return Step(number, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name=name, args=args)), observation, success)


def test_an_answer_that_rounds_a_result_to_its_own_decimals_is_grounded() -> None:
    from autoagent.coach.verify import rounded, ungrounded_numbers

    task = "Convert 130 km/h to miles per hour."
    divided = call(1, "calculator", "80.7782549908534", expression="130 / 1.609344")
    assert ungrounded_numbers("About 80.78 mph, or 80.8.", task, [divided]) == []
    assert ungrounded_numbers("About 80.77 mph.", task, [divided]) == ["80.77"]  # cut short, not rounded
    assert ungrounded_numbers("About 81 mph.", task, [divided]) == ["81"]  # a whole number is never a rounding
    assert rounded("2.5", {2.45}) and rounded("2.5", {2.549}) and not rounded("2.5", {2.56}) and not rounded("3", {3.2})


def test_a_second_answer_no_tool_result_supports_ends_the_run_unverified(tmp_path: Path) -> None:
    (tmp_path / "numbers.txt").write_text("12\n30\n58\n")
    agent, _ = agent_with(act("read_file", path="numbers.txt"), act("FINISH"), "The sum is 110.",
                          act("FINISH"), "The sum is 110.", tools=file_tools(tmp_path))

    result = agent.execute("Read numbers.txt and tell me the sum of the numbers in it.")

    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop() == "the answer was not verified: it states what no tool result shows: 110"
    assert result.answer == "The sum is 110."


def test_an_answer_that_works_out_its_own_sum_is_checked_by_the_calculator(tmp_path: Path) -> None:
    from autoagent.tools import calculator

    (tmp_path / "numbers.txt").write_text("12\n30\n58\n")
    tools = [*file_tools(tmp_path), calculator]
    agent, llm = agent_with(act("read_file", path="numbers.txt"), act("FINISH"), "It is 12 + 30 + 58 = 110.",
                            act("FINISH"), "The sum is 100.", tools=tools)

    result = agent.execute("Read numbers.txt and tell me the sum of the numbers in it.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.FINISH]
    checked = result.steps[1]
    assert (checked.action.name, checked.action.args) == ("calculator", {"expression": "12 + 30 + 58"})  # type: ignore[union-attr]
    assert checked.observation == "100" and "12 + 30 + 58" in checked.decision.thought.text  # type: ignore[union-attr]
    assert "-> 100" in llm.prompts[3]  # the model decides its finish with the checked result in view
    assert result.finished and result.answer == "The sum is 100."


def test_a_checked_answer_that_still_states_an_unshown_number_gives_way_to_the_tools_number(tmp_path: Path) -> None:
    from autoagent.tools import calculator

    (tmp_path / "numbers.txt").write_text("12\n30\n58\n")
    agent, _ = agent_with(act("read_file", path="numbers.txt"), act("FINISH"), "It is 12 + 30 + 58 = 110.",
                          act("FINISH"), "It is 110.", act("FINISH"), "It is 110.",
                          tools=[*file_tools(tmp_path), calculator])

    result = agent.execute("Read numbers.txt and tell me the sum of the numbers in it.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.REJECTED,
                                                     StepKind.FINISH]
    # checked once, then told once; the finish prompt miswriting the calculator's number again, the number stands
    assert result.finished and result.answer == "100"


def test_claimed_calculations_are_the_arithmetic_an_answer_works_out() -> None:
    assert claimed_calculation("The sum is 12 + 30 + 58 = 110.") == "12 + 30 + 58"
    assert claimed_calculation("It is 1,250 * (3 - 1) = 2500") == "1250 * (3 - 1)"
    assert claimed_calculation("和是 12\u00d715=40。") == "12*15"
    assert claimed_calculation("The sum is 110.") is None
    assert claimed_calculation("On 2026-11-30 = Monday") is None


def test_the_clause_of_a_mention_is_the_part_of_the_task_that_gives_it() -> None:
    task = "Read qty.txt, multiply the number in it by 7, and write the result to total.txt."
    assert clause_of(task, "7") == "multiply the number in it by 7"
    assert clause_of(task, "total.txt") == "write the result to total.txt"
    assert clause_of("Take 20% of 3550, then divide that amount by 4.", "4") == "divide that amount by 4"
    assert clause_of("Take 0.25 of 3550 and save it in 'out.txt'", "out.txt") == "save it in out.txt"
    assert clause_of("Save 7 in a.txt", "a.txt") == "save 7 in a.txt" and clause_of("CSV 7", "7") == "CSV 7"
    assert clause_of("Take 40% of 3550, then divide it by 4", "4") == "divide it by 4"  # 40 does not give 4
    whole = "把 25 乘以 16 的结果写入文件 answer.txt"
    assert clause_of(whole + "。", "answer.txt") == whole


def test_a_task_in_parts_is_led_to_its_next_part_in_the_tasks_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    replies = [act("multiply", a=6, b=7), act("multiply", a=42, b=5), act("FINISH"), "It is 210."]
    llm = ScriptedChatModel(replies=replies)
    held = hold_schemas(monkeypatch, llm)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[multiply], compact_thoughts=True)
    agent.execute("Multiply 6 by 7, then add 5 to the product.")
    led = [reply for schema in held for reply in schema.get("anyOf", [])]  # type: ignore[attr-defined]
    assert len(led) == 1  # one reply led to: the thought names multiply, the one tool that can take the 5
    thought = str(led[0]["properties"]["thought"]["pattern"]).replace("[.]", ".")
    assert thought.startswith("^The result so far is 42; next I must add 5 to the product, so I call (the )?multiply")
    args = led[0]["properties"]["action"]["properties"]["args"]["anyOf"]
    assert next(choice["properties"]["a"] for choice in args) == {"type": "integer", "enum": [5, 42]}


def test_after_a_repeat_the_run_is_led_to_the_part_that_follows_by_another_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "numbers.txt").write_text("12\n30\n58\n")
    read = act("read_file", path="numbers.txt")
    replies = [read, read, act("add_up", numbers="12 30 58"), act("FINISH"), "The sum is 100."]
    llm = ScriptedChatModel(replies=replies)
    held: list[dict[str, object]] = []

    @tool
    def add_up(numbers: str) -> str:
        """Add up the numbers in a text."""
        return str(sum(int(number) for number in numbers.split()))

    def bind(model: object, schema: dict[str, object]) -> RunnableLambda:
        held.append(schema)
        return RunnableLambda(lambda messages: llm.invoke(messages))

    monkeypatch.setattr("autoagent.protocols.thought_action.bind_json_schema", bind)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[*file_tools(tmp_path), add_up], compact_thoughts=True)
    result = agent.execute("Read numbers.txt and tell me the sum of the numbers in it.")
    assert result.finished and result.answer == "The sum is 100."
    led = [reply for schema in held for reply in schema.get("anyOf", [])]  # type: ignore[attr-defined]
    named = {reply["properties"]["action"]["properties"]["name"]["const"] for reply in led}
    assert named and "read_file" not in named and "add_up" in named  # not the tool it just repeated
    thought = str(led[0]["properties"]["thought"]["pattern"]).replace("[.]", ".")
    assert thought.startswith("^From the results above, next I must tell me the sum of the numbers in it, so I call")


def test_the_next_clause_follows_the_parts_done() -> None:
    read = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="read_file", args={"path": "data.txt"})), "5", success=True)
    assert next_clause("读取文件 data.txt，告诉我里面所有数字的和。", [read]) == "告诉我里面所有数字的和"
    assert next_clause("Read data.txt and tell me the sum.", [read]) == "tell me the sum"
    assert next_clause("Summarise data.txt.", [read]) == ""  # nothing follows
    assert next_clause("Read other.txt and tell me the sum.", [read]) == ""  # no part is done


def test_an_answer_copying_a_fences_note_gives_way_to_what_the_fence_quotes(tmp_path: Path) -> None:
    (tmp_path / "motd.txt").write_text("Server maintenance on Friday night.")
    read = file_tools(tmp_path)[0]
    quoted = read.invoke({"path": "motd.txt"})
    note = quoted.splitlines()[1]
    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="read_file", args={"path": "motd.txt"})), quoted)
    assert not is_answer(f'The file motd.txt says "{note}"', [step])
    assert is_answer("It says: Server maintenance on Friday night.", [step])


def test_an_answer_copied_from_the_finish_prompts_own_words_gives_way_to_the_result() -> None:
    copied = "state the result itself (the number, the date, the text found, or what was done, with file names)."
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), copied, copied])
    result = AutoGPT(advisors=[Coach()], llm=llm, tools=[multiply]).execute("Multiply 6 by 7.")
    assert result.finished and result.answer == "42"
    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="multiply", args={"a": 6, "b": 7})), "42")
    assert is_answer("The product is 42.", [step], scaffold="The product is")


def test_an_unfinished_runs_answer_stating_a_number_no_tool_showed_gives_way_to_the_result() -> None:
    llm = ScriptedChatModel(replies=[act("multiply", a=1234, b=5678), "The result is 90,592."])
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[multiply], max_thought_steps=1)
    result = agent.execute("What is 1234 times 5678?")
    assert result.stop_reason is StopReason.MAX_STEPS and result.answer == "7006652"
    llm = ScriptedChatModel(replies=[act("multiply", a=1234, b=5678), "It is 7,006,652."])
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[multiply], max_thought_steps=1)
    assert agent.execute("1234 times 5678?").answer == "It is 7,006,652."


def test_after_a_call_whose_error_names_another_tool_the_next_call_is_held_to_that_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "draft.txt").write_text("my draft\n")
    replies = [act("write_file", path="draft.txt", content="final.txt"),
               act("move_file", source="draft.txt", destination="final.txt"), act("FINISH"), "Renamed it."]
    llm = ScriptedChatModel(replies=replies)
    held = hold_schemas(monkeypatch, llm)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path), compact_thoughts=True)
    result = agent.execute("Rename draft.txt to final.txt.")

    assert result.finished and (tmp_path / "final.txt").read_text() == "my draft\n"
    led = [reply for schema in held for reply in schema.get("anyOf", [])  # type: ignore[attr-defined]
           if "pattern" in reply.get("properties", {}).get("thought", {})]
    assert {reply["properties"]["action"]["properties"]["name"]["const"] for reply in led} == {"move_file"}
    thought = str(led[0]["properties"]["thought"]["pattern"])
    assert thought.startswith("^Step 1 failed, and its result says what to use instead, so I call")


def test_an_error_naming_no_other_tool_leads_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.prompts import PromptTemplateBuilder

    def failed(name: str, observation: str) -> Step:
        return Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
            name=name, args={})), observation, success=False)

    leader = Leader(PromptTemplateBuilder(), ("read_file", "list_files", "search_files"))
    task = "Find the file."
    assert leader.lead(task, False, (), [failed("list_files", "list_files failed: 'a' is a file (use read_file)")]) \
        .only == "read_file"  # type: ignore[union-attr]
    assert leader.lead(task, False, (), [failed("read_file", "read_file failed: no such file")]) is None
    assert leader.lead(task, False, (), [failed("read_file", "use list_files or search_files")]) is None  # two
    assert leader.lead(task, False, (), [failed("read_file", "read_file failed: use read_file_v2")]) is None  # its own


def test_the_final_answer_is_written_from_the_calls_that_worked(tmp_path: Path) -> None:
    (tmp_path / "bills.txt").write_text("invoice 2231\n")
    replies = [act("read_file", path="invoice.txt"), act("search_files", pattern="invoice"), act("FINISH"),
               "It is bills.txt."]
    agent, llm = agent_with(*replies, tools=file_tools(tmp_path))
    result = agent.execute("Which file mentions an invoice?")
    assert result.answer == "It is bills.txt."
    assert "bills.txt:1" in llm.prompts[-1] and "invoice.txt" not in llm.prompts[-1].split("Results")[1]


def test_a_number_inside_a_longer_result_does_not_ground_an_answer() -> None:
    from autoagent.coach.verify import ungrounded_numbers

    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="calculator", args={"expression": "12 * 1.5"})), "18", success=True)
    assert ungrounded_numbers("The speed is 8 km/h.", "A runner covers 12 km in 1.5 hours.", [step]) == ["8"]
    assert ungrounded_numbers("The product is 18.", "A runner covers 12 km in 1.5 hours.", [step]) == []


def test_a_file_name_the_task_gives_is_used_only_as_a_place_not_as_text_written() -> None:
    wrote = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="write_file", args={"path": "final.txt", "content": "draft.txt"})), "Wrote 9 characters.", success=True)
    moved = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="move_file", args={"source": "draft.txt", "destination": "final.txt"})), "Moved.", success=True)
    searched = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="lookup", args={"name": "draft.txt"})), "found", success=True)  # a tool that takes no path
    assert unused_mentions("Rename draft.txt to final.txt.", [wrote]) == ["draft.txt"]
    assert unused_mentions("Rename draft.txt to final.txt.", [moved]) == []
    assert unused_mentions("Look up draft.txt.", [searched]) == []


def test_an_answer_that_writes_out_a_call_or_copies_the_task_gives_way_to_the_result() -> None:
    step = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="calculator", args={"expression": "342/3"})), "114", success=True)
    for written in ('calculator\nAction: {"expression": "342/3"}', 'calculator({"expression": "342/3"})',
                    "calculator", "What is 342 / 3?"):
        assert not is_answer(written, [step], task="What is 342 / 3?"), written
    assert is_answer("The calculator says 114.", [step], task="What is 342 / 3?")


def test_writing_a_calculation_instead_of_its_result_is_questioned_once(tmp_path: Path) -> None:
    from autoagent.tools import calculator

    tools = [*file_tools(tmp_path), calculator]
    agent, llm = agent_with(act("write_file", path="result.txt", content="12 + 30"),
                            act("write_file", path="result.txt", content="42"), act("FINISH"), "Wrote 42.", tools=tools)

    result = agent.execute("Save the result of 12 plus 30 to result.txt.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.ACTION, StepKind.FINISH]
    checked = result.steps[0]  # the agent works the calculation out itself, and the model writes its result
    assert (checked.action.name, checked.action.args, checked.observation) == (  # type: ignore[union-attr]
        "calculator", {"expression": "12 + 30"}, "42")
    assert "result.txt, 12 + 30, is a calculation" in checked.decision.thought.text  # type: ignore[union-attr]
    assert "-> 42" in llm.prompts[1]
    assert (tmp_path / "result.txt").read_text() == "42" and result.finished


def test_without_a_calculator_a_calculation_written_is_questioned_once(tmp_path: Path) -> None:
    agent, llm = agent_with(act("write_file", path="result.txt", content="12 + 30"),
                            act("multiply", a=6, b=7), act("write_file", path="result.txt", content="42"),
                            act("FINISH"), "Wrote 42.", tools=[*file_tools(tmp_path), multiply])

    result = agent.execute("Save the result of 6 times 7 to result.txt.")

    assert result.steps[0].kind is StepKind.REJECTED
    assert 'the text for result.txt, "12 + 30", is a calculation, not its result' in llm.prompts[1]
    assert (tmp_path / "result.txt").read_text() == "42" and result.finished


def test_a_calculation_written_again_after_the_question_is_written(tmp_path: Path) -> None:
    agent, _ = agent_with(act("write_file", path="sum.txt", content="2 + 2"),
                          act("write_file", path="sum.txt", content="2 + 2"), act("FINISH"), "Wrote it.",
                          tools=file_tools(tmp_path))

    agent.execute("Write the expression 2 + 2 into sum.txt.")

    assert (tmp_path / "sum.txt").read_text() == "2 + 2"


def test_a_finish_that_changed_nothing_the_request_asks_to_change_is_sent_back_once(tmp_path: Path) -> None:
    (tmp_path / "temp.txt").write_text("x\n")
    agent, llm = agent_with(act("read_file", path="temp.txt"), act("FINISH"), act("delete_file", path="temp.txt"),
                            act("FINISH"), "Deleted temp.txt.", tools=file_tools(tmp_path))

    result = agent.execute("Remove temp.txt from the workspace.")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                     StepKind.FINISH]
    assert "asks for a change in the workspace, but no step has made one yet" in llm.prompts[2]
    assert "delete_file" in result.steps[1].observation and "read_file" not in result.steps[1].observation
    assert result.finished and not (tmp_path / "temp.txt").exists()


def test_a_second_finish_that_changed_nothing_ends_the_run_unverified(tmp_path: Path) -> None:
    (tmp_path / "temp.txt").write_text("x\n")
    agent, _ = agent_with(act("read_file", path="temp.txt"), act("FINISH"), act("FINISH"), "Done.",
                          tools=file_tools(tmp_path))

    result = agent.execute("Please delete temp.txt.")

    assert not result.finished and result.stop_reason is StopReason.UNVERIFIED
    assert result.describe_stop().endswith("the request asks for a change in the workspace, and no step made one")


@pytest.mark.parametrize(("request_", "asks"), [
    ("Remove temp.txt from the workspace.", True),
    ("What is 345*12? Save it to result.txt.", True),
    ("Can you copy notes.txt into the backup folder?", True),
    ("把 12 加 30 的结果保存到 result.txt。", True),
    ("Which files did I create yesterday?", False),
    ("Write a haiku about autumn.", False),
    ("What does the file motd.txt say?", False),
    ("哪个文件被删除了？", False),  # noqa: RUF001
])
def test_a_request_asks_for_a_change_with_a_verb_of_change_and_a_place_not_as_a_question(request_: str,
                                                                                          asks: bool) -> None:
    from autoagent.coach.writes import asks_for_change

    assert bool(asks_for_change(request_)) is asks


def test_a_day_counted_in_numbers_is_taken_by_a_call_that_gave_a_date_with_its_number() -> None:
    def ran(name: str, expression: str, observation: str) -> Step:
        action = Action(name=name, args={"expression": expression})
        return Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=action), observation)

    dated = ran("calendar", "today + 10 days", "2026-12-11 (Friday)")
    assert unused_mentions("What date is it 10 days from today?", [dated]) == []
    timed = ran("calendar", "in 10 days", "2026-12-11T12:22 (Friday)")
    assert unused_mentions("What date is it 10 days from today?", [timed]) == []
    assert unused_mentions("3天后是几号？", [ran("calculator", "3+3", "6")]) == ["3天后"]  # noqa: RUF001
    assert unused_mentions("What date was it 5 days ago?", [ran("calendar", "in 3 days", "2026-12-04")]) == [
        "5 days ago"]
    assert unused_mentions("What date will it be one week from today?",
                           [ran("calendar", "now() + 7", "2026-12-08T10:00 (Tuesday)")]) == ["one week from today"]


def test_a_finish_that_leaves_the_models_own_plan_half_done_is_sent_back_and_led_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.tools import calculator

    llm = ScriptedChatModel(replies=[act("calculator", thought="I add them and then divide by 3.",
                                         expression="12 + 18 + 27"), act("FINISH"),
                                     act("calculator", expression="57 / 3"), act("FINISH"), "The average is 19."])
    held = hold_schemas(monkeypatch, llm)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[calculator], compact_thoughts=True)  # type: ignore[arg-type]

    result = agent.execute("What is the average of 12, 18 and 27?")

    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.REJECTED, StepKind.ACTION,
                                                     StepKind.FINISH]
    assert "the thought of step 1 says that next you must divide by 3" in result.steps[1].observation
    led = [reply for schema in held for reply in schema.get("anyOf", [])]  # type: ignore[attr-defined]
    thought = str(led[0]["properties"]["thought"]["pattern"]).replace("[.]", ".")
    assert thought.startswith("^The result so far is 57; next I must divide by 3, so I call")
    assert result.finished and result.answer == "The average is 19."


def test_a_plan_whose_numbers_a_call_took_is_done() -> None:
    agent, _ = agent_with(act("multiply", thought="I multiply 6 by 7 and then report 42.", a=6, b=7),
                          act("FINISH"), "It is 42.")

    result = agent.execute("What is 6 times 7?")

    assert result.finished and [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.FINISH]


def test_after_a_finish_without_the_change_asked_for_the_next_call_is_held_to_the_tool_that_makes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "temp.txt").write_text("x\n")
    llm = ScriptedChatModel(replies=[act("read_file", path="temp.txt"), act("FINISH"),
                                     act("delete_file", path="temp.txt"), act("FINISH"), "Deleted."])
    held = hold_schemas(monkeypatch, llm)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path), compact_thoughts=True)  # type: ignore[arg-type]

    result = agent.execute("Remove temp.txt from the workspace.")

    led = [reply for schema in held for reply in schema.get("anyOf", [])]  # type: ignore[attr-defined]
    assert [reply["properties"]["action"]["properties"]["name"]["const"] for reply in led] == ["delete_file"]
    assert result.finished and not (tmp_path / "temp.txt").exists()


def test_rewriting_a_file_the_request_asks_to_remove_is_not_the_change() -> None:
    from autoagent.coach.writes import object_to_no_change

    wrote = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="write_file", args={"path": "temp.txt", "content": "x"})), "Wrote 1 character to temp.txt.")
    writers = ("write_file", "delete_file")
    objection = object_to_no_change("Remove temp.txt from the workspace.", [wrote], writers, set())
    assert objection is not None and objection.variables["tools"] == "delete_file"
    assert object_to_no_change("Save it to temp.txt.", [wrote], writers, set()) is None


def test_a_part_of_the_task_that_asks_for_a_change_is_led_to_the_tool_named_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("write_file", path="out.txt", content="42"),
                                     act("FINISH"), "Saved 42."])
    held = hold_schemas(monkeypatch, llm)
    agent = AutoGPT(advisors=[Coach()], llm=llm, tools=[multiply, *file_tools(tmp_path)], compact_thoughts=True)  # type: ignore[arg-type]

    agent.execute("Multiply 6 by 7, then save the result to out.txt.")

    led = [reply for schema in held for reply in schema.get("anyOf", [])]  # type: ignore[attr-defined]
    assert [reply["properties"]["action"]["properties"]["name"]["const"] for reply in led] == ["write_file"]
    assert (tmp_path / "out.txt").read_text() == "42"


def test_a_failed_read_before_a_requested_write_does_not_lead_to_a_listing() -> None:
    from autoagent.prompts import PromptTemplateBuilder

    def failed() -> Step:  # a fresh step each time: a lead is counted per run
        return Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
            name="read_file", args={"path": "out.txt"})), "'out.txt' does not exist (use list_files to see)", False)

    tools, writers = ("read_file", "list_files", "write_file"), ("write_file",)
    assert Leader(PromptTemplateBuilder(), tools, writers).lead("Save 42 to out.txt.", False, (), [failed()]) is None
    asking = Leader(PromptTemplateBuilder(), tools, writers).lead("Which file is like out.txt?", False, (), [failed()])
    assert asking is not None and asking.only == "list_files"


def test_a_folder_the_request_names_written_as_a_file_is_questioned_once(tmp_path: Path) -> None:
    (tmp_path / "archive").mkdir()
    (tmp_path / "notes.txt").write_text("old notes\n")
    agent, llm = agent_with(act("move_file", source="notes.txt", destination="archive.txt"),
                            act("move_file", source="notes.txt", destination="archive/notes.txt"), act("FINISH"),
                            "Moved.", tools=file_tools(tmp_path))

    result = agent.execute("Move notes.txt into the archive folder.")

    assert result.steps[0].kind is StepKind.REJECTED
    assert "names the folder archive, and archive.txt would be a file beside it" in llm.prompts[1]
    assert (tmp_path / "archive" / "notes.txt").exists() and result.finished


def test_an_answer_with_a_date_no_tool_showed_gives_way_to_the_date_tools_result() -> None:
    @tool
    def calendar(expression: str) -> str:
        """Resolve a date phrase."""
        return "2026-12-06 (Sunday)"

    agent, llm = agent_with(act("calendar", expression="5 days from today"), act("FINISH"), "2026-12-07",
                            act("FINISH"), "2026-12-07", tools=[calendar])

    result = agent.execute("Give me the date 5 days from today.")  # no question about a day: see test_days.py

    assert "no tool result shows 2026-12-07" in llm.prompts[3]
    assert result.finished and result.answer == "2026-12-06 (Sunday)"


def test_a_part_of_the_task_that_is_arithmetic_is_led_to_the_calculator() -> None:
    from autoagent.prompts import PromptTemplateBuilder

    def read(number: int, path: str, kind: StepKind = StepKind.ACTION) -> Step:
        return Step(number, kind, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
            name="read_file", args={"path": path})), "15" if path == "a.txt" else "27")

    tools = ("read_file", "read_webpage", "calculator")
    leader = Leader(PromptTemplateBuilder(), tools, (), "calculator")
    steps = [read(1, "a.txt"), read(2, "b.txt"), read(3, "a.txt", StepKind.REPEATED)]
    lead = leader.lead("Read a.txt and b.txt and add the two numbers.", True, (), steps)
    assert lead is not None and lead.only == "calculator" and "add the two numbers" in lead.thought_start


def test_a_stand_in_result_that_does_not_answer_by_itself_is_unverified(tmp_path: Path) -> None:
    format_json = "```json\n" + act("FINISH") + "\n```"
    llm = ScriptedChatModel(replies=[act("write_file", path="hi.txt", content="hello"), act("FINISH"), format_json,
                                     format_json])
    result = AutoGPT(advisors=[Coach()], llm=llm, tools=file_tools(tmp_path)).execute("Write hello into hi.txt.")
    assert result.stop_reason is StopReason.UNVERIFIED and result.answer == "Wrote 5 characters to hi.txt."
    assert result.model_answer == format_json.strip() and result.steps[-1].check == "coach"


def test_an_answer_that_copies_a_long_run_of_the_finish_prompt_is_no_answer() -> None:
    from autoagent.loop.answers import copies_of

    scaffold = "Task: {task}\nWrite the final answer to the task for the user from these results: state the result"
    assert copies_of(scaffold, "The final answer is: write the final answer to the task for the user from these "
                               "results: state the result itself")  # whatever the case
    assert copies_of(scaffold, "The final answer is: Write the final answer to the task for the user from these")
    assert not copies_of(scaffold, "The answer is 42; the task asked for the total.")


def test_a_version_grounds_itself_but_not_the_numbers_inside_it() -> None:
    from autoagent.coach.verify import ungrounded_numbers

    read = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text=""), action=Action(
        name="read_file", args={"path": "app.json"})), '{"name": "demo", "release": "4.12.3", "port": 8080}')
    task = "Which release does app.json name?"
    assert ungrounded_numbers("The release is 4.12.3.", task, [read]) == []
    assert ungrounded_numbers("The release is 12.0.", task, [read]) == ["12.0"]  # not a number the file shows
    assert ungrounded_numbers("It listens on port 8080.", task, [read]) == []
    assert ungrounded_numbers("The release is 4.12.4.", task, [read]) == ["4.12.4"]


def test_a_day_written_out_that_no_tool_showed_gives_way_to_the_date_tools_result() -> None:
    @tool
    def calendar(expression: str) -> str:
        """Resolve a date phrase."""
        return "2026-03-06 (Friday)"

    wrong = "The date is 20 March 2026."  # each number of it is the request's, the day is no tool's
    agent, llm = agent_with(act("calendar", expression="2026-01-20 + 45 days"), act("FINISH"), wrong,
                            act("FINISH"), wrong, tools=[calendar])

    result = agent.execute("Give me the date 45 days after 20 January 2026.")

    assert "no tool result shows 20 March 2026" in llm.prompts[3]
    assert result.finished and result.answer == "2026-03-06 (Friday)"


def test_a_day_written_out_as_the_tool_showed_it_is_grounded() -> None:
    from autoagent.coach.verify import ungrounded_numbers
    from autoagent.coach.written_dates import dates_in

    read = Step(1, StepKind.ACTION, "", ThoughtAndAction(thought=Thought(text="t"), action=Action(
        name="calendar", args={"expression": "2026-01-20 + 45 days"})), "2026-03-06 (Friday)")
    task = "Give me the date 45 days after 20 January 2026."
    for answer in ("It is 6 March 2026.", "It is March 6th, 2026.", "是2026年3月6日。", "It is Mar. 6, 2026."):
        assert ungrounded_numbers(answer, task, [read]) == [], answer
    assert [day.isoformat() for _, day in dates_in("from 30 February 2026 to 1 May 2026")] == ["2026-05-01"]


def test_the_digits_of_a_name_in_a_call_are_no_figure_of_its_own() -> None:
    from autoagent.coach.verify import figures, founded, ungrounded_numbers

    code = ('with open("numbers.txt", encoding="utf-8") as f:\n    numbers = [int(line) for line in f]\n'
            'digest = hashlib.sha256(b"")\nprint(sum(numbers) * 3)')
    assert figures({"code": code}) == {3.0}  # not 8 of utf-8, nor 256 or 56 of sha256
    assert figures({"expression": "10-8 + 2.5", "n": 4, "on": True, "rows": ["report-2025.csv", {"x": 7}]}) \
        == {10.0, 8.0, 2.5, 4.0, 7.0}
    task = "What is the sum of the numbers in numbers.txt?"
    summed = call(1, "python", "100", code=code.replace(" * 3", ""))
    assert founded(task, [summed]) == [summed]
    assert ungrounded_numbers("The sum of the numbers in numbers.txt is 100.", task, [summed]) == []


def test_a_program_s_printed_sum_grounds_the_answer_under_the_code_protocol(tmp_path: Path) -> None:
    from autoagent.tools import make_python_tool

    (tmp_path / "numbers.txt").write_text("10\n20\n30\n40\n")
    program = ("Thought: I sum them.\n```python\nwith open('numbers.txt', encoding='utf-8') as f:\n"
               "    print(sum(int(line) for line in f))\n```")
    llm = ScriptedChatModel(replies=[program, "Thought: I know the answer.\nFinal Answer: The sum is 100."])
    result = AutoGPT(llm=llm, tools=[make_python_tool(tmp_path, "none")], protocol="code", advisors=[Coach()]).execute(
        "What is the sum of the numbers in numbers.txt?")
    assert result.finished and result.answer == "The sum is 100."
    assert [step.kind for step in result.steps] == [StepKind.ACTION, StepKind.FINISH]
