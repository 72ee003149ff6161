
"""What the answer says: numbers, words, patterns, and how many of a list it names."""

from __future__ import annotations

import re
from pathlib import Path

from .combine import both
from .reading import numbers_in
from .registry import Check, register


@register
def says_number(value: float) -> Check:
    """The answer states `value`."""

    def check(answer: str, workspace: Path) -> str | None:
        if any(abs(number - value) < 1e-6 for number in numbers_in(answer)):
            return None
        return f"answer does not state {value:g}"

    return check


@register
def says_numbers(*values: float) -> Check:
    """The answer states every one of `values`."""

    def check(answer: str, workspace: Path) -> str | None:
        said = numbers_in(answer)
        missing = [value for value in values if not any(abs(number - value) < 1e-6 for number in said)]
        return f"answer does not state {', '.join(f'{v:g}' for v in missing)}" if missing else None

    return check


@register
def says_about(value: float, tolerance: float) -> Check:
    """The answer states a number within `tolerance` of `value` (a rounded conversion)."""

    def check(answer: str, workspace: Path) -> str | None:
        if any(abs(number - value) <= tolerance for number in numbers_in(answer)):
            return None
        return f"answer does not state about {value:g}"

    return check


_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


_ZH_NUMBERS = "零一二三四五六七八九十"


@register
def says_count(value: int) -> Check:
    """The answer states the small count `value`, in digits or in words ("8", "eight", "八")."""
    digits = says_number(value)

    def check(answer: str, workspace: Path) -> str | None:
        words = re.findall(r"[a-z]+", answer.lower())
        if _WORDS[value] in words or (value <= 10 and _ZH_NUMBERS[value] in answer):
            return None
        return digits(answer, workspace)

    return check


@register
def says_text(*needles: str) -> Check:
    """The answer mentions each needle (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        missing = [needle for needle in needles if needle.lower() not in answer.lower()]
        return f"answer does not mention {', '.join(missing)}" if missing else None

    return check


@register
def says_any(*needles: str) -> Check:
    """The answer mentions at least one needle (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if any(n.lower() in answer.lower() for n in needles) else f"answer mentions none of {needles}"

    return check


@register
def says_regex(pattern: str, shown: str) -> Check:
    """The answer matches `pattern` (case-insensitive)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer, re.IGNORECASE) else f"answer does not say {shown}"

    return check


@register
def says_pattern(pattern: str, shown: str) -> Check:
    """The answer matches the regular expression `pattern` (case-sensitive: chemical symbols)."""

    def check(answer: str, workspace: Path) -> str | None:
        return None if re.search(pattern, answer) else f"answer does not say {shown}"

    return check


@register
def says_one_of_each(groups: list[tuple[str, ...]]) -> Check:
    """The answer mentions, for every group, at least one of its needles (case aside)."""

    def check(answer: str, workspace: Path) -> str | None:
        low = answer.lower()
        missing = [group[0] for group in groups if not any(needle.lower() in low for needle in group)]
        return f"answer does not mention {', '.join(missing)}" if missing else None

    return check


@register
def names_keys(*keys: str) -> Check:
    """The answer names every one of `keys`, an underscore in it written as such, as a blank or as a hyphen."""
    return both(*(says_regex(r"\b" + r"[\s_-]?".join(map(re.escape, key.split("_"))) + r"\b", key) for key in keys))


@register
def names_few_of(names: list[str], most: int) -> Check:
    """The answer names at most `most` of `names` (an answer that lists them all has not picked)."""

    def check(answer: str, workspace: Path) -> str | None:
        named = [name for name in names if name.lower() in answer.lower()]
        return None if len(named) <= most else f"answer names {len(named)} of the {len(names)} that are not meant"

    return check


@register
def mentions_few_of(groups: list[tuple[str, ...]], most: int) -> Check:
    """The answer mentions at most `most` of the groups (a group counts when any of its needles is in it, case
    aside): an answer that lists them all has not picked."""

    def check(answer: str, workspace: Path) -> str | None:
        low = answer.lower()
        named = [group[0] for group in groups if any(needle.lower() in low for needle in group)]
        return None if len(named) <= most else f"answer also mentions {', '.join(named)}"

    return check


def _digits_pattern(number: str) -> str:
    """A pattern for the digits of `number`, written with or without blanks or hyphens between them."""
    return r"(?<!\d)" + r"[\s-]?".join(re.sub(r"\D", "", number)) + r"(?!\d)"


@register
def says_codes(wanted: list[str], others: list[str], most_others: int) -> Check:
    """The answer gives every code of `wanted` (its digits with or without hyphens or blanks between them) and at
    most `most_others` of `others` (an answer that lists them all has not picked)."""

    def check(answer: str, workspace: Path) -> str | None:
        missing = [code for code in wanted if not re.search(_digits_pattern(code), answer)]
        if missing:
            return f"answer does not give {', '.join(missing)}"
        named = [code for code in others if re.search(_digits_pattern(code), answer)]
        return None if len(named) <= most_others else f"answer also gives {', '.join(named)}"

    return check


@register
def says_phone(number: str) -> Check:
    """The answer gives the phone number `number`, its digits written with or without blanks or hyphens."""
    digits = re.sub(r"\D", "", number)
    return says_regex(r"(?<!\d)" + r"[\s-]?".join(digits) + r"(?!\d)", number)
