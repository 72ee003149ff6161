"""A task's request is read once, into a typed value (autoagent/coach/request.py), by words that are package data
(autoagent/coach/words.toml), each list of which some module reads."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

import autoagent
from autoagent.coach import verify
from autoagent.coach.request import read_request
from autoagent.coach.settled import check_arithmetic, check_percent
from autoagent.coach.units import check_units

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PACKAGE = Path(autoagent.__file__).resolve().parent
WORDS = PACKAGE / "coach" / "words.toml"
# how a module asks for a list: words("key"), entries("key", ...), one_of("key", ...), kinds("prefix")
_ASKED = re.compile(r"\b(?:words|entries|one_of|kinds)\(\s*[\"']([\w.]+)[\"']")


def test_an_english_request_to_change_the_workspace() -> None:
    request = read_request("Move draft.md and every .bak file into the old folder, then tell me how many remain.")
    assert request.mentions == ("draft.md", "*.bak", "old/")
    assert request.change == "move"
    assert request.parts == ("Move draft.md", "every .bak file into the old folder", "tell me how many remain")
    assert (request.day, request.ending, request.searched) == ("", "", "")


@pytest.mark.parametrize(("text", "field", "value"), [
    ("What date will it be 3 weeks from today?", "day", "3 weeks from today"),
    ("How many markdown files does the project hold?", "ending", ".md"),
    ("Which file refers to the word Zanzibar?", "searched", "Zanzibar"),
    ("后天是星期几", "day", "后天"),
    ("有几个 .json 文件", "ending", ".json"),
    ("哪个文件提到了 熊猫", "searched", "熊猫"),
    ("把 notes.txt 复制到 backup 文件夹", "change", "复制"),
    ("把 notes.txt 复制到 backup 文件夹", "mentions", ("notes.txt", "backup/")),
    ("900 的百分之15 是多少", "mentions", ("900", "15%")),
])
def test_what_a_request_asks_is_read_in_english_and_chinese(text: str, field: str, value: object) -> None:
    assert getattr(read_request(text), field) == value


def test_the_checks_a_request_settles_are_read_from_its_plain_numbers() -> None:
    units = check_units("What is 2.5 hours in minutes?")
    assert units is not None and (units.asked, units.value, units.expression) == ("minutes", 150.0, "2.5 * 60")
    percent = check_percent("What is 8 percent of 2,500?")
    assert percent is not None and (percent.way, percent.value) == ("8 percent of 2500", 200.0)
    root = check_arithmetic("343 的立方根是多少")
    assert root is not None and root.expression == "343 ^ (1/3)" and round(root.value, 9) == 7
    assert check_arithmetic("Save (7 + 5) * 4 to out.txt") is None  # a change: its answer may not say


def test_only_the_first_paragraph_is_the_request() -> None:
    request = read_request("  What is (7 + 5) * 4?\n\nEarlier: 12 apples in 3 days")
    assert request.text == "What is (7 + 5) * 4?"
    assert request.mentions == ("7", "5", "4")


def test_a_request_is_read_once() -> None:
    task = "Copy plan.md into the drafts folder and add 3 to the total."
    request = read_request(task)
    assert read_request(task) is request  # the same value for the same task: cached
    assert verify.mentions(task) == ["plan.md", "drafts/", "3"]
    assert "mentions" in vars(request)  # the public function read it through the cached value
    vars(request)["mentions"] = ("read before",)  # what a second reading would give, were it read again
    assert verify.mentions(task) == ["read before"]
    del vars(request)["mentions"]  # read afresh the next time it is asked for
    assert verify.mentions(task) == ["plan.md", "drafts/", "3"]


def _lists(table: dict[str, Any], prefix: str = "") -> list[str]:
    """The keys of the lists a words.toml table holds ("change.write"), at any depth."""
    found: list[str] = []
    for name, value in table.items():
        key = f"{prefix}{name}"
        found += _lists(value, f"{key}.") if isinstance(value, dict) else [key]
    return found


def _asked() -> set[str]:
    """The keys and prefixes the package's modules ask words.toml for."""
    return {key for path in PACKAGE.rglob("*.py") for key in _ASKED.findall(path.read_text(encoding="utf-8"))}


DATA = tomllib.loads(WORDS.read_text(encoding="utf-8"))
LISTED = sorted({key for language in DATA.values() for key in _lists(language)})


@pytest.mark.parametrize("key", LISTED)
def test_every_list_of_words_is_read_by_some_module(key: str) -> None:
    asked = _asked()
    assert key in asked or any(key.startswith(f"{prefix}.") for prefix in asked), f"no module reads {key!r}"


def test_every_list_a_module_asks_for_is_listed() -> None:
    missing = {key for key in _asked() if key not in LISTED and not any(item.startswith(f"{key}.") for item in LISTED)}
    assert not missing  # a misspelt key reads as an empty list
