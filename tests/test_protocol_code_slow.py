"""`--protocol code` on the bundled model (the one a bare `--model local` runs), over a small set of ordinary tasks
of three shapes: a column of a file totalled, the days between two given dates, a file's lines changed in place.

The same weights give different tokens on different CPUs, so the test checks a rate over the set, never one
trajectory. Its threshold sits under what was measured here (2026-12-03, AVX2 build, 2 busy cores, the 1.5B, coach
auto so on): 2 right (the total finished, the edit unverified), the days stopped as a loop, none finished wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.llm.local import ChatLocalLlama
from autoagent.tools import make_python_tool
from autoagent.tools.sandbox import bwrap_problem

from .model_rates import Case, rates

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800),
              pytest.mark.skipif(bwrap_problem() is not None, reason="the python tool's sandbox cannot run here")]

CASES: list[Case] = [
    ("What is the total of the second column of stock.csv?", {"stock.csv": "bolts,120\nnuts,45\nwashers,310\n"},
     lambda run, _: "475" in run.answer.replace(",", "")),
    ("How many days are there from 2031-01-20 to 2031-04-02?", {}, lambda run, _: "72" in run.answer),
    ("Make every line of shout.txt upper case.", {"shout.txt": "quiet please\nthank you\n"},
     lambda _, space: (space / "shout.txt").read_text(encoding="utf-8").split() == ["QUIET", "PLEASE", "THANK",
                                                                                    "YOU"]),
]


def test_most_runs_are_right_and_few_claim_a_wrong_success(chat_weights: Path, tmp_path: Path) -> None:
    llm = ChatLocalLlama(model_path=str(chat_weights))
    llm.llama().reset()

    def agent(space: Path) -> AutoGPT:
        return AutoGPT(llm=llm, tools=[make_python_tool(space)], protocol="code", max_thought_steps=6)

    right, false = rates(CASES, tmp_path, agent, f"{chat_weights.name}, --protocol code")
    assert right >= 1 and false <= 1
