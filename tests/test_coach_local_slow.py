"""The bundled model with the coach on and off, over a small set of ordinary tasks of four shapes (a product, a
value read from a file, a file written, the weekday of a given date).

The same weights give different tokens on different CPUs, so each test checks rates over the set (how many right,
how many said finished but wrong), never one trajectory. The thresholds sit under what was measured here (2026-12-01,
AVX2 build, 2 busy cores): coach on 4 right, 0 finished wrong; coach off 2 right, 2 finished wrong.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.llm.local import ChatLocalLlama
from autoagent.tools import default_tools

from .model_rates import Case, rates

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

WEEKDAY = dt.date(2031, 3, 14).strftime("%A")

CASES: list[Case] = [
    ("What is 48 * 25?", {}, lambda run, _: "1200" in run.answer.replace(",", "")),
    ("What is the price in price.txt plus 15?", {"price.txt": "27\n"},
     lambda run, _: "42" in run.answer),
    ("Write the word banana into a file named fruit.txt.", {},
     lambda _, space: (space / "fruit.txt").is_file() and "banana" in (space / "fruit.txt").read_text().lower()),
    ("What day of the week is 2031-03-14?", {}, lambda run, _: WEEKDAY.lower() in run.answer.lower()),
]


def _rates(coach: str, weights: Path, tmp_path: Path) -> tuple[int, int]:
    """How many runs were right, and how many said finished but were wrong."""
    llm = ChatLocalLlama(model_path=str(weights))
    llm.llama().reset()

    def agent(space: Path) -> AutoGPT:
        return AutoGPT(llm=llm, tools=default_tools(space), compact_thoughts=True, max_thought_steps=6,
                       advisors=[Coach()] if coach == "on" else [])

    return rates(CASES, tmp_path, agent, f"{weights.name}, coach {coach}")


@pytest.fixture(params=["local_weights", "chat_weights"], ids=["0.5b", "default"])
def weights(request: pytest.FixtureRequest) -> Path:
    """The base bundled model, and the one a bare `--model local` runs (the 1.5B where it is installed)."""
    return Path(request.getfixturevalue(request.param))


def test_with_the_coach_on_most_runs_are_right_and_few_claim_a_wrong_success(weights: Path, tmp_path: Path) -> None:
    right, false = _rates("on", weights, tmp_path)
    assert right >= 2 and false <= 1


def test_with_the_coach_off_the_model_alone_still_gets_some_right(weights: Path, tmp_path: Path) -> None:
    right, false = _rates("off", weights, tmp_path)
    assert right >= 1 and false <= 3
