"""The scripted calculator task every agent in the bench runs: N calculator calls, then finish.

Standard library only: each agent's script imports it inside its own virtual environment. Each step's thought
is the same text in every framework's reply format, so prompt sizes compare like for like.
"""

from __future__ import annotations

import ast
import json
import operator
import statistics
from collections.abc import Callable
from typing import Any

TASK = "Compute 1+1, then 1+2, then 1+3 and so on, one calculator call at a time, then finish."
CALCULATOR_DESCRIPTION = 'Evaluate an arithmetic expression and return the number, e.g. "1234*5678+17".'
ANSWER = "All the sums are computed."


def expression(step: int) -> str:
    """The calculator argument of step `step` (1-based): different each step, so no loop detection kicks in."""
    return f"1+{step}"


def thought(step: int, steps: int) -> dict[str, str]:
    """The full thought of a step (text, reasoning, plan, criticism, speak); the plan is a bulleted string."""
    if step > steps:
        return {"text": "All sums are computed.", "reasoning": "Every calculator call returned.",
                "plan": "- finish", "criticism": "None.", "speak": "Done."}
    return {"text": f"I will compute {expression(step)} with the calculator.",
            "reasoning": "The task asks for the next sum.",
            "plan": "- compute the sum\n- go on to the next one",
            "criticism": "None.", "speak": f"Computing {expression(step)}."}


def autoagent_reply(step: int, steps: int) -> str:
    """autoagent's Thought/Action JSON reply (plan as a list, FINISH after the last calculator step)."""
    thought_ = dict(thought(step, steps))
    plan = [line.lstrip("- ") for line in thought_.pop("plan").splitlines()]
    action = {"name": "FINISH", "args": {}} if step > steps else {"name": "calculator",
                                                                    "args": {"expression": expression(step)}}
    return json.dumps({"thought": {**thought_, "plan": plan}, "action": action})


def langchain_reply(step: int, steps: int) -> str:
    """LangChain AutoGPT's reply: `thoughts` and `command`, `finish` with a response after the last step."""
    command = ({"name": "finish", "args": {"response": ANSWER}} if step > steps
               else {"name": "calculator", "args": {"expression": expression(step)}})
    return json.dumps({"thoughts": thought(step, steps), "command": command})


_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.Mod: operator.mod,
}


def calculate(text: str) -> str:
    """The peers' calculator: + - * / ^ % on numbers, through the AST (never eval)."""

    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        raise ValueError(f"not arithmetic: {text!r}")

    result = value(ast.parse(text.replace("^", "**"), mode="eval").body)
    return str(int(result)) if float(result).is_integer() else str(result)


def check_run(observations: list[str], steps: int, finished: bool, framework: str) -> None:
    """Fail loudly unless the calculator really ran `steps` times with the right results and the run finished."""
    expected = [str(1 + step) for step in range(1, steps + 1)]
    if observations != expected:
        raise AssertionError(f"{framework}: calculator results {observations[:3]}... ({len(observations)}), "
                             f"expected {expected[:3]}... ({steps})")
    if not finished:
        raise AssertionError(f"{framework}: the run did not end on finish")


def time_runs(run_once: Callable[[int], float], steps: list[int], runs: int, warmup: int = 2) -> dict[str, list[float]]:
    """Milliseconds per step of each timed run, by N; `run_once(n)` builds an agent, runs it (returning the
    seconds the run itself took, construction excluded) and checks the run."""
    for _ in range(warmup):
        run_once(steps[0])
    timings: dict[str, list[float]] = {}
    for n in steps:
        for _ in range(runs):
            timings.setdefault(str(n), []).append(run_once(n) * 1000 / n)
    return timings


def summarize(timings: dict[str, list[float]]) -> str:
    """A one-line progress note: the median per N."""
    return ", ".join(f"N={n}: {statistics.median(values):.3f} ms" for n, values in timings.items())
