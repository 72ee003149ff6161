"""Native tool calls and text ReAct drive the same loop, with the same guarantees."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.errors import ConfigurationError
from autoagent.steps import StepKind, StopReason

from .scripted import ScriptedChatModel, call


@tool(parse_docstring=True)
def record_expense(description: str, net_amount: float, tax_rate: float, gross_amount: float) -> str:
    """Record an expense in the ledger.

    Args:
        description: what was bought
        net_amount: the amount before tax
        tax_rate: the tax rate, e.g. 0.19
        gross_amount: the amount including tax
    """
    return f"recorded {description}: net {net_amount}, tax {tax_rate}, gross {gross_amount}"


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    return str(eval(expression, {"__builtins__": {}}))  # test double for fixed inputs only


def agent_with(protocol: str, *replies: str | AIMessage, **kwargs: object) -> tuple[AutoGPT, ScriptedChatModel]:
    llm = ScriptedChatModel(replies=list(replies))
    return AutoGPT(llm=llm, tools=[record_expense, calculator], protocol=protocol, **kwargs), llm  # type: ignore[arg-type]


# --- native tool calling ---------------------------------------------------------------------------


def test_tools_are_bound_with_every_argument_optional_plus_final_answer() -> None:
    _, llm = agent_with("tools")
    names = [schema["function"]["name"] for schema in llm.bound_tools]
    assert names == ["record_expense", "calculator", "final_answer"]
    expense = llm.bound_tools[0]["function"]["parameters"]
    assert set(expense["properties"]) == {"description", "net_amount", "tax_rate", "gross_amount"}
    assert "required" not in expense
    assert expense["properties"]["gross_amount"]["description"] == "the amount including tax"


def test_missing_argument_is_named_then_computed_by_the_model() -> None:
    agent, llm = agent_with(
        "tools",
        call("record_expense", "c1", description="laptop", net_amount=1000, tax_rate=0.19),
        call("calculator", "c2", expression="1000 * 1.19"),
        call("record_expense", "c3", description="laptop", net_amount=1000, tax_rate=0.19, gross_amount=1190.0),
        call("final_answer", "c4", answer="Recorded the laptop: 1190.0 gross."),
    )

    run = agent.execute("Record a laptop bought for 1000 net at 19% tax.")

    assert run.stop_reason is StopReason.FINISHED
    assert run.answer == "Recorded the laptop: 1190.0 gross."  # carried by final_answer: no finish prompt
    assert len(llm.calls) == 4
    first, second, third = run.steps[:3]
    assert not first.success and first.observation == "Invalid arguments for record_expense: missing gross_amount."
    assert second.observation == "1190.0"
    assert third.success and third.observation.startswith("recorded laptop")
    # Each result went back as a tool message tied to its call id.
    tool_messages = [m for m in llm.calls[3] if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in tool_messages] == ["c1", "c2", "c3"]
    assert tool_messages[0].content == "Invalid arguments for record_expense: missing gross_amount."
    calls_sent = [m.tool_calls[0]["id"] for m in llm.calls[3] if isinstance(m, AIMessage) and m.tool_calls]
    assert calls_sent == ["c1", "c2", "c3"]
    assert isinstance(llm.calls[0][0], SystemMessage) and "final_answer" in llm.calls[0][0].text


def test_a_finish_sent_back_is_replayed_to_the_model_as_its_final_answer_call() -> None:
    agent, llm = agent_with("tools", call("final_answer", "c1", answer="42"),
                            call("calculator", "c2", expression="6*7"), call("final_answer", "c3", answer="42"),
                            advisors=[Coach()])
    run = agent.execute("What is 6*7?")
    assert [step.kind for step in run.steps] == [StepKind.REJECTED, StepKind.ACTION, StepKind.FINISH]
    replayed = [message for message in llm.calls[1] if isinstance(message, AIMessage)]
    assert [tool_call["name"] for tool_call in replayed[0].tool_calls] == ["final_answer"]  # not our FINISH


def test_reply_without_a_tool_call_is_reported_back() -> None:
    agent, llm = agent_with("tools", AIMessage("I think the answer is 42."), call("calculator", expression="6*7"),
                            call("final_answer", answer="42"))
    run = agent.execute("answer")
    assert [step.kind for step in run.steps] == [StepKind.PARSE_ERROR, StepKind.ACTION, StepKind.FINISH]
    note = llm.calls[1][-1]
    assert note.text == "You replied without calling a tool (the reply called no tool). " \
                        "Call a tool, or call final_answer with your answer."
    assert run.answer == "42"


def test_a_tool_call_with_unreadable_arguments_is_named() -> None:
    broken = AIMessage("", invalid_tool_calls=[{"name": "calculator", "args": "{expression: ", "id": "c1",
                                                "error": "Expecting value", "type": "invalid_tool_call"}])
    agent, _ = agent_with("tools", broken, call("calculator", "c2", expression="2+2"), call("final_answer", answer="4"))
    run = agent.execute("2+2")
    assert "the call to calculator had unreadable arguments: Expecting value" in run.steps[0].observation
    assert run.finished and run.steps[1].observation == "4"  # the model read the note and called it again


def test_repeated_tool_call_forces_a_rethink_then_is_taken_as_the_finish() -> None:
    same = [call("calculator", f"c{i}", expression="2+2") for i in range(3)]
    agent, llm = agent_with("tools", *same, "4")
    run = agent.execute("2+2")
    assert run.stop_reason is StopReason.FINISHED  # the model insists on a result it has
    assert "repeated an earlier one" in llm.calls[2][-1].text
    assert run.answer == "4"  # the finish prompt writes the answer


def test_a_repeated_tool_call_that_failed_is_told_to_avoid_its_error() -> None:
    same = [call("calculator", f"c{i}", expression="2+") for i in range(2)]
    agent, llm = agent_with("tools", *same, call("calculator", "c3", expression="2+2"),
                            call("final_answer", "c4", answer="4"))
    run = agent.execute("2+2")
    assert run.finished and run.answer == "4"
    assert "repeated one that failed" in llm.calls[2][-1].text and "it failed: " in run.steps[1].observation


def test_step_limit_applies_to_tool_calling() -> None:
    replies = [call("calculator", f"c{i}", expression=f"{i}+1") for i in range(2)]
    agent, _ = agent_with("tools", *replies, "best effort", max_thought_steps=2)
    run = agent.execute("count")
    assert run.stop_reason is StopReason.MAX_STEPS and run.answer == "best effort"


def test_a_model_without_tool_calling_is_a_clear_error() -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    with pytest.raises(ConfigurationError, match="no native tool calling: use --protocol json or react"):
        AutoGPT(llm=FakeListChatModel(responses=["x"]), tools=[calculator], protocol="tools")


# --- text ReAct ------------------------------------------------------------------------------------


def test_react_runs_a_tool_and_finishes_with_its_own_answer() -> None:
    agent, llm = agent_with(
        "react",
        "Thought: I should compute it.\nAction: calculator\nAction Input: {\"expression\": \"6*7\"}",
        "Thought: I know the answer.\nFinal Answer: 42",
    )
    run = agent.execute("What is 6*7?")
    assert run.finished and run.answer == "42"
    assert run.steps[0].observation == "42" and run.steps[0].decision.thought.text == "I should compute it."
    assert "Action: calculator\nAction Input: {\"expression\": \"6*7\"}\nObservation: 42" in llm.prompts[1]
    assert "Final Answer: the answer to the task" in llm.prompts[0]
    assert llm.stops[0] == ["\nObservation:"]
    assert len(llm.calls) == 2


def test_react_accepts_plain_text_input_for_a_one_argument_tool_and_drops_invented_observations() -> None:
    agent, _ = agent_with(
        "react",
        "Thought: compute\nAction: `calculator`\nAction Input: 2*21\nObservation: 41 (made up)",
        "Final Answer: 42",
    )
    run = agent.execute("2*21")
    assert run.steps[0].action.args == {"expression": "2*21"}  # type: ignore[union-attr]
    assert run.steps[0].observation == "42"


@pytest.mark.parametrize("line", ['calculator(expression: "6*7")', "The calculator tool", "**calculator**"])
def test_react_finds_the_tool_name_in_a_loosely_written_action_line(line: str) -> None:
    agent, _ = agent_with("react", f'Thought: compute\nAction: {line}\nAction Input: {{"expression": "6*7"}}',
                          "Final Answer: 42")
    assert agent.execute("6*7").steps[0].observation == "42"


@pytest.mark.parametrize("line", ['calculator(expression: "6*7")', 'calculator("6*7")'])
def test_react_reads_arguments_written_on_the_action_line(line: str) -> None:
    agent, _ = agent_with("react", f"Thought: compute\nAction: {line}\nAction Input:", "Final Answer: 42")
    assert agent.execute("6*7").steps[0].action.args == {"expression": "6*7"}  # type: ignore[union-attr]


def test_react_plain_input_is_its_first_line_only() -> None:
    agent, _ = agent_with("react", "Thought: t\nAction: calculator\nAction Input: 2*3\nThought: more talk",
                          "Final Answer: 6")
    assert agent.execute("2*3").steps[0].action.args == {"expression": "2*3"}  # type: ignore[union-attr]


def test_react_malformed_reply_gets_a_format_reminder_and_uses_a_step() -> None:
    agent, llm = agent_with("react", "I will use the calculator now.", "Action: calculator",
                            "Thought: add\nAction: calculator\nAction Input: 2+2", "Final Answer: 4",
                            max_thought_steps=5)
    run = agent.execute("2+2")
    assert [step.kind for step in run.steps] == [StepKind.PARSE_ERROR, StepKind.PARSE_ERROR, StepKind.ACTION,
                                                 StepKind.FINISH]
    assert "Reply with Thought, Action and Action Input lines" in run.steps[0].observation
    assert "an 'Action:' line needs an 'Action Input:' line" in run.steps[1].observation
    assert "could not be read (no 'Action:'" in llm.prompts[1]
    assert run.answer == "4"


def test_react_malformed_replies_exhaust_the_step_budget() -> None:
    agent, _ = agent_with("react", "hmm", "hmm", max_thought_steps=2)
    assert agent.execute("x").stop_reason is StopReason.MAX_STEPS


def test_a_led_step_of_native_tool_calling_on_the_embedded_model_is_held_to_one_call_taking_the_given(
        tmp_path: Path) -> None:
    from autoagent.llm.local import ChatLocalLlama

    agent = AutoGPT(llm=ChatLocalLlama(model_path=str(tmp_path / "never-loaded.gguf")), tools=[calculator],
                    protocol="tools")
    model = agent.protocol.guided_model(agent.llm, "", ("4",), only="calculator")
    assert model is not None
    kwargs = model.kwargs  # type: ignore[attr-defined]
    assert [tool["function"]["name"] for tool in kwargs["tools"]] == ["calculator", "final_answer"]  # as bound
    (call,) = kwargs["response_format"]["schema"]["anyOf"]
    assert call["required"] == ["name", "arguments"] and call["properties"]["name"] == {"const": "calculator"}
    expression = call["properties"]["arguments"]["properties"]["expression"]["pattern"]
    assert re.fullmatch(expression, "710 / 4") and not re.fullmatch(expression, "710 / 5")
    assert agent_with("tools")[0].protocol.guided_model(ScriptedChatModel(replies=[]), "", ("4",)) is None


def test_unknown_protocol() -> None:
    with pytest.raises(ValueError, match="unknown protocol 'xml'"):
        agent_with("xml")


# --- constrained decoding (JSON protocol) ---------------------------------------------------------


def test_the_embedded_model_is_constrained_to_the_reply_schema_from_the_first_reply(tmp_path: Path) -> None:
    from autoagent.llm.local import ChatLocalLlama

    agent = AutoGPT(llm=ChatLocalLlama(model_path=str(tmp_path / "never-loaded.gguf")), tools=[calculator],
                    compact_thoughts=True)
    model = agent.protocol.model(agent.llm)
    assert model is not agent.llm  # held to the schema before any reply went wrong
    schema = model.kwargs["response_format"]["schema"]  # type: ignore[attr-defined]
    assert schema["required"] == ["thought", "action"] and schema["properties"]["thought"]["maxLength"] == 300
    choices = schema["properties"]["action"]["anyOf"]
    assert [choice["properties"]["name"] for choice in choices] == [{"const": "calculator"}, {"const": "FINISH"}]
    assert all(set(choice["properties"]) == {"name", "args"} for choice in choices)  # call_id is never asked for
    assert choices[0]["properties"]["args"] == {"type": "object", "properties": {"expression": {"type": "string"}},
                                                "required": ["expression"], "additionalProperties": False}
    assert choices[1]["properties"]["args"]["properties"] == {}
    free = ScriptedChatModel(replies=[])
    protocol = agent_with("json")[0].protocol
    assert protocol.model(free) is free and protocol.strict_model(free) is None  # no constrained decoding: as is


def test_where_the_backend_is_constrained_every_step_is_and_the_finish_prompt_is_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from langchain_core.runnables import RunnableLambda

    from .scripted import act

    schemas: list[dict[str, object]] = []
    strict_calls: list[object] = []
    strict_replies = ["no json at all", act("calculator", expression="2+2"), act("FINISH")]

    def strict(messages: object) -> AIMessage:
        strict_calls.append(messages)
        return AIMessage(strict_replies[len(strict_calls) - 1])

    def bind(llm: object, schema: dict[str, object]) -> RunnableLambda:
        schemas.append(schema)
        return RunnableLambda(strict)

    monkeypatch.setattr("autoagent.protocols.thought_action.bind_json_schema", bind)
    agent, llm = agent_with("json", "4")
    run = agent.execute("What is 2+2?")
    assert [step.kind for step in run.steps] == [StepKind.PARSE_ERROR, StepKind.ACTION, StepKind.FINISH]
    assert run.steps[1].observation == "4"
    assert len(strict_calls) == 3  # the first reply too, not only the retry after the unreadable one
    assert len(llm.calls) == 1 and "Write the final answer" in llm.prompts[0] and run.answer == "4"
    assert schemas and all("anyOf" in schema["properties"]["action"] for schema in schemas)  # type: ignore[index]

