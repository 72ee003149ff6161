"""The examples: the expense tools on a real SQLite file, the expense agent driven by a scripted model,
callbacks seeing every call, and the embedding API against a fake OpenAI-compatible server."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

from .fake_openai import FakeOpenAI
from .scripted import ScriptedChatModel, act, call

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name: str) -> ModuleType:
    """An example script imported as a module (examples/ is no package)."""
    module_name = f"example_{name}"
    spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


expenses = load_example("expense_agent")


def rows(workspace: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(workspace / expenses.DATABASE) as db:
        return db.execute("SELECT amount, category, note, date FROM expenses ORDER BY id").fetchall()


def test_the_expense_tools_keep_the_books_in_sqlite(tmp_path: Path) -> None:
    add, listing, totals = expenses.expense_tools(tmp_path / "ws")
    assert totals.invoke({}) == "No expenses recorded."  # the database is created on first use

    assert add.invoke({"amount": 12.5, "category": "Food", "note": "lunch", "date": "2025-03-01"}) == (
        "Recorded expense #1: 12.50 for food on 2025-03-01.")
    add.invoke({"amount": 40, "category": "travel", "note": "train", "date": "2025-03-02"})
    add.invoke({"amount": 7.5, "category": "food", "note": "o'brien's café; DROP TABLE expenses", "date": "2025-03-03"})

    assert rows(tmp_path / "ws")[2] == (7.5, "food", "o'brien's café; DROP TABLE expenses", "2025-03-03")
    assert listing.invoke({"category": "food"}).splitlines() == [
        "#1 2025-03-01 12.50 food lunch", "#3 2025-03-03 7.50 food o'brien's café; DROP TABLE expenses"]
    assert listing.invoke({"since": "2025-03-02"}).splitlines()[0] == "#2 2025-03-02 40.00 travel train"
    assert totals.invoke({}).splitlines() == ["travel: 40.00", "food: 20.00", "total: 60.00"]
    assert totals.invoke({"since": "2025-03-03"}).splitlines() == ["food: 7.50", "total: 7.50"]


def test_bad_expense_arguments_raise_for_the_model_to_read(tmp_path: Path) -> None:
    add, listing, _ = expenses.expense_tools(tmp_path)
    with pytest.raises(ValueError, match="amount must be positive, not -3"):
        add.invoke({"amount": -3, "category": "food"})
    with pytest.raises(ValueError, match="since must be a date as YYYY-MM-DD, not 'last week'"):
        listing.invoke({"since": "last week"})
    assert not (tmp_path / expenses.DATABASE).exists()  # checked before anything is written


class Recorder(BaseCallbackHandler):
    """A user's callback handler: records every model and tool event."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, **kwargs: Any) -> None:
        self.events.append("model start")

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        self.events.append("model end")

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        self.events.append(f"tool start {serialized.get('name')}")

    def on_tool_end(self, output: Any, **kwargs: Any) -> None:
        self.events.append(f"tool end {getattr(output, 'content', output)}")


def test_the_expense_agent_adds_two_expenses_and_totals_them(tmp_path: Path) -> None:
    llm = ScriptedChatModel(replies=[
        call("add_expense", "c1", amount=12.5, category="food", note="lunch", date="2025-03-01"),
        call("add_expense", "c2", amount=40, category="travel", note="train ticket", date="2025-03-01"),
        call("total_by_category", "c3"),
        call("final_answer", "c4", answer="You spent 52.50: 40.00 on travel and 12.50 on food."),
    ])
    recorder = Recorder()
    agent = expenses.make_expense_agent(llm, tmp_path, callbacks=[recorder])

    run = agent.execute("I paid 12.50 for lunch and 40 for a train ticket today (2025-03-01). Totals?")

    assert run.finished and run.answer == "You spent 52.50: 40.00 on travel and 12.50 on food."
    assert rows(tmp_path) == [(12.5, "food", "lunch", "2025-03-01"), (40.0, "travel", "train ticket", "2025-03-01")]
    assert run.steps[2].observation == "travel: 40.00\nfood: 12.50\ntotal: 52.50"
    assert {schema["function"]["name"] for schema in llm.bound_tools} == {
        "add_expense", "list_expenses", "total_by_category", "final_answer"}
    # The user's handler saw every model call and every tool call, in order.
    model = ["model start", "model end"]
    assert recorder.events == [
        *model, "tool start add_expense", "tool end Recorded expense #1: 12.50 for food on 2025-03-01.",
        *model, "tool start add_expense", "tool end Recorded expense #2: 40.00 for travel on 2025-03-01.",
        *model, "tool start total_by_category", "tool end travel: 40.00\nfood: 12.50\ntotal: 52.50",
        *model,
    ]
    assert run.usage.calls == recorder.events.count("model start")


def test_callbacks_see_every_call_of_a_json_protocol_run(tmp_path: Path) -> None:
    from autoagent import AutoGPT

    tools = expenses.expense_tools(tmp_path)
    llm = ScriptedChatModel(replies=[act("add_expense", amount=3, category="food"), act("list_expenses"),
                                     act("FINISH"), "Recorded it."])
    recorder = Recorder()

    AutoGPT(llm=llm, tools=tools, callbacks=[recorder]).execute("record 3 for food")

    assert [event.split(" ")[:3] for event in recorder.events if event.startswith("tool start")] == [
        ["tool", "start", "add_expense"], ["tool", "start", "list_expenses"]]
    assert recorder.events.count("model start") == recorder.events.count("model end") == 4  # 3 steps + the answer


def test_the_embedding_example_runs_against_an_openai_compatible_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    embed = load_example("embed_api")
    with FakeOpenAI(act("calculator", expression="17 * 23"), act("FINISH"), "17 * 23 = 391") as server:
        monkeypatch.setenv("AUTOAGENT_MODEL", "openai:fake-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.chdir(tmp_path)

        assert embed.main("What is 17 * 23?") == 0

    lines = capsys.readouterr().out.splitlines()
    assert "[1/8] thinking..." in lines
    assert "[1] calculator({'expression': '17 * 23'}) -> '391'" in lines
    assert "Answer: 17 * 23 = 391" in lines
    assert "(3 model calls and 1 tool calls seen by the callback)" in lines
