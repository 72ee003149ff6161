"""Single-step tool choice of the embedded model under each protocol: parsed, right tool and arguments, time.

Run: .venv/bin/python bench/protocols.py [--protocols json,tools,react] > table.md
Each task is one step: the first prompt is sent, the reply is read by the protocol, and the decision is
checked against the task's expected tool and argument check. Nothing is executed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoagent import AutoGPT
from autoagent.llm import load_chat_model
from autoagent.llm.embeddings import load_embeddings
from autoagent.memory.short_term import ShortTermMemory
from autoagent.protocols import Turn
from autoagent.reply import ReplyParseError
from autoagent.tools import default_tools
from autoagent.tools.calculator import evaluate

Check = Callable[[dict[str, Any]], bool]


def computes(value: float) -> Check:
    """The expression argument evaluates to `value`."""

    def check(args: dict[str, Any]) -> bool:
        try:
            return abs(float(evaluate(str(args.get("expression", "")))) - value) < 1e-6
        except ValueError:
            return False

    return check


def mentions(**expected: str) -> Check:
    """Each named argument contains the expected text (case-insensitive)."""
    return lambda args: all(text.lower() in str(args.get(key, "")).lower() for key, text in expected.items())


@dataclass(frozen=True)
class Task:
    text: str
    tools: tuple[str, ...]
    check: Check


TASKS = [
    Task("What is 1234 * 5678 + 17?", ("calculator",), computes(7006669)),
    Task("What is 15% of 2480?", ("calculator",), computes(372)),
    Task("Compute (17 + 25) * 3 - 8.", ("calculator",), computes(118)),
    Task("What is the square root of 144?", ("calculator",), computes(12)),
    Task("Divide 1000 by 8.", ("calculator",), computes(125)),
    Task("What is 2 to the power of 10?", ("calculator",), computes(1024)),
    Task("How much is 19.99 times 3?", ("calculator",), computes(59.97)),
    Task("Subtract 58 from 1000.", ("calculator",), computes(942)),
    Task("What date is tomorrow?", ("calendar",), mentions(expression="tomorrow")),
    Task("What date is next friday?", ("calendar",), mentions(expression="friday")),
    Task("What will the date be in 3 days?", ("calendar",), mentions(expression="3 days")),
    Task("When is march 5 at 10:30?", ("calendar",), mentions(expression="march 5")),
    Task("What time is it now?", ("current_datetime",), lambda args: True),
    Task("What is today's date and weekday?", ("current_datetime", "calendar"), lambda args: True),
    Task("Write 'hello world' to the file greeting.txt.", ("write_file",),
         mentions(path="greeting.txt", content="hello world")),
    Task("Save the text 'rate: 0.92' into rates.txt.", ("write_file",), mentions(path="rates.txt", content="0.92")),
    Task("Show me the contents of notes.txt.", ("read_file",), mentions(path="notes.txt")),
    Task("Read the file todo.md.", ("read_file",), mentions(path="todo.md")),
    Task("List the files in the workspace.", ("list_files",), lambda args: True),
    Task("Copy notes.txt to backup.txt.", ("copy_file",), mentions(source="notes.txt", destination="backup.txt")),
    Task("Rename draft.txt to final.txt.", ("move_file",), mentions(source="draft.txt", destination="final.txt")),
    Task("Delete the file old.log.", ("delete_file",), mentions(path="old.log")),
    Task("Find the lines that mention 'invoice' in the workspace files.", ("search_files",),
         mentions(pattern="invoice")),
]


def measure(protocol: str, llm: Any, workspace: Path, spec: str) -> dict[str, float]:
    """Parse rate, right-tool-and-arguments rate and seconds per step over TASKS, with the CLI's tool set."""
    tools = default_tools(workspace, load_embeddings(spec))
    agent = AutoGPT(llm=llm, tools=tools, protocol=protocol, compact_thoughts=spec.startswith("local"))
    model = agent.protocol.model(llm)
    strict = agent.protocol.strict_model(llm)
    parsed = right = rescued = 0
    seconds = []
    for task in TASKS:
        messages = agent.protocol.messages(Turn(task.text, "(none)", ShortTermMemory()))
        started = time.perf_counter()
        reply = model.invoke(messages)
        seconds.append(time.perf_counter() - started)
        try:
            decision = agent.protocol.decide(reply)
        except ReplyParseError:
            print(f"  {protocol}: unparsed: {task.text!r}: {reply.text[:120]!r}", file=sys.stderr)
            if strict is None:
                continue
            try:  # the loop's retry after an unreadable reply (here without the note it would add)
                decision = agent.protocol.decide(strict.invoke(messages))
            except ReplyParseError:
                continue
            rescued += 1
            print(f"  {protocol}: parsed on the constrained retry: {decision.action.name}", file=sys.stderr)
        else:
            parsed += 1
        action = decision.action
        ok = action.name.lower() in task.tools and task.check(action.args)  # the toolbox folds case too
        right += ok
        if not ok:
            print(f"  {protocol}: wrong: {task.text!r}: {action.name} {action.args}", file=sys.stderr)
    return {"parsed": parsed / len(TASKS), "rescued": rescued / len(TASKS), "right": right / len(TASKS),
            "median_s": statistics.median(seconds), "mean_s": statistics.mean(seconds)}


def main() -> None:
    """Print a Markdown table, one row per protocol."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocols", default="json,tools,react")
    parser.add_argument("--model", default="local")
    options = parser.parse_args()
    llm = load_chat_model(options.model)
    with tempfile.TemporaryDirectory() as workspace:
        rows = [(name, measure(name, llm, Path(workspace), options.model)) for name in options.protocols.split(",")]
    print(f"{len(TASKS)} single-step tasks, model {options.model}\n")
    print("| protocol | replies parsed | parsed on a constrained retry | right tool and arguments (after it) "
          "| median s/step | mean s/step |")
    print("|---|---|---|---|---|---|")
    for name, row in rows:
        print(f"| {name} | {row['parsed']:.0%} | +{row['rescued']:.0%} | {row['right']:.0%} | {row['median_s']:.2f} "
              f"| {row['mean_s']:.2f} |")


if __name__ == "__main__":
    main()
