"""An expense-tracking agent with native tool calling, its expenses in a real SQLite file in the workspace.

    python examples/expense_agent.py "I paid 12.50 for lunch and 40 for a train ticket; what did I spend on food?"
    python examples/expense_agent.py --model openai:gpt-4o-mini --workspace ./my-books "total by category"

The tools are plain typed functions: their docstrings are what the model reads, and their type hints
become the JSON schema the model's function calling fills. `--protocol tools` (protocol="tools")
hands that schema to the model's own tool-calling API; the task ends with `final_answer`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool, tool

from autoagent import AutoGPT

DATABASE = "expenses.sqlite3"
SCHEMA = """CREATE TABLE IF NOT EXISTS expenses (
    id INTEGER PRIMARY KEY, amount REAL NOT NULL CHECK (amount > 0), category TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '', date TEXT NOT NULL)"""
ROLE = "a careful bookkeeper who records the user's expenses and answers questions about them with the tools."


@contextmanager
def open_books(workspace: Path) -> Iterator[sqlite3.Connection]:
    """The expense database in `workspace`, created on first use; one transaction per use."""
    workspace.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(workspace / DATABASE)) as db, db:
        db.execute(SCHEMA)
        yield db


def _date(text: str | None, name: str) -> str:
    """An ISO date (YYYY-MM-DD), today when empty; a wrong one raises and the model sees why."""
    if not text:
        return dt.date.today().isoformat()
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ValueError(f"{name} must be a date as YYYY-MM-DD, not {text!r}") from None


def expense_tools(workspace: Path) -> list[BaseTool]:
    """add_expense, list_expenses and total_by_category, on the books in `workspace`."""

    @tool(parse_docstring=True)
    def add_expense(amount: float, category: str, note: str = "", date: str | None = None) -> str:
        """Record one expense.

        Args:
            amount: what was paid, a positive number
            category: a short lowercase category such as food, travel, rent
            note: what it was for
            date: the day it was paid, YYYY-MM-DD; today when left out
        """
        if amount <= 0:
            raise ValueError(f"amount must be positive, not {amount}")
        day = _date(date, "date")
        with open_books(workspace) as db:
            row = db.execute("INSERT INTO expenses (amount, category, note, date) VALUES (?, ?, ?, ?)",
                             (amount, category.strip().lower(), note, day))
        return f"Recorded expense #{row.lastrowid}: {amount:.2f} for {category.strip().lower()} on {day}."

    @tool(parse_docstring=True)
    def list_expenses(category: str | None = None, since: str | None = None) -> str:
        """List recorded expenses, oldest first.

        Args:
            category: only this category
            since: only expenses on or after this day, YYYY-MM-DD
        """
        sql = "SELECT id, date, amount, category, note FROM expenses WHERE 1 = 1"
        params: list[str] = []
        if category:
            sql += " AND category = ?"
            params.append(category.strip().lower())
        if since:
            sql += " AND date >= ?"
            params.append(_date(since, "since"))
        with open_books(workspace) as db:
            rows = db.execute(sql + " ORDER BY date, id", params).fetchall()
        lines = [f"#{id_} {day} {amount:.2f} {kind} {note}".rstrip() for id_, day, amount, kind, note in rows]
        return "\n".join(lines) or "No expenses recorded."

    @tool(parse_docstring=True)
    def total_by_category(since: str | None = None) -> str:
        """Total spent per category, largest first, and the overall total.

        Args:
            since: only expenses on or after this day, YYYY-MM-DD
        """
        sql = "SELECT category, SUM(amount) FROM expenses"
        params: list[str] = []
        if since:
            sql += " WHERE date >= ?"
            params.append(_date(since, "since"))
        with open_books(workspace) as db:
            rows = db.execute(sql + " GROUP BY category ORDER BY SUM(amount) DESC, category", params).fetchall()
        if not rows:
            return "No expenses recorded."
        lines = [f"{kind}: {total:.2f}" for kind, total in rows]
        return "\n".join([*lines, f"total: {sum(total for _, total in rows):.2f}"])

    for reader in (list_expenses, total_by_category):
        reader.metadata = {"read_only": True}  # runs without asking; add_expense asks unless --yes
    return [add_expense, list_expenses, total_by_category]


def make_expense_agent(llm: BaseChatModel, workspace: Path, **options: object) -> AutoGPT:
    """The expense agent: native tool calling over the books in `workspace`."""
    return AutoGPT(llm=llm, tools=expense_tools(workspace), protocol="tools", agent_name="Bookkeeper",
                   agent_role=ROLE, **options)  # type: ignore[arg-type]


def main() -> None:
    """Run one task from the command line."""
    from autoagent.llm import load_chat_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("task")
    parser.add_argument("--model", default=None, help="openai:<name> or local (default: as autoagent chooses)")
    parser.add_argument("--workspace", type=Path, default=Path("workspace"))
    args = parser.parse_args()
    agent = make_expense_agent(load_chat_model(args.model), args.workspace)
    result = agent.execute(args.task, verbose=True)
    print(result.answer)


if __name__ == "__main__":
    main()
