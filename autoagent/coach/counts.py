"""The things a request counts, as units: "Each bag holds 18 marbles. How many marbles do 7 bags hold?" gives 7
bags and 18 marbles per bag, and asks for marbles, so the units check (units.py) settles it as 7 bags * 18 marbles
per bag, not 18 / 7. Each thing counted is a unit of its own kind in pint, which only its own count
converts to; a unit people use ("3 walks a day") stays that unit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..tools.units import UNIT_WORD, registry, unit_name
from .words import EN, one_of, words

_NOUN = r"[A-Za-z]{3,}"
_VALUE = r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)(?![\d.]\d)"
_HOW_MANY = re.compile(rf"{one_of('asks.how_many', EN)}\s+(?P<noun>{_NOUN})\b", re.I)
_COUNT = re.compile(rf"{_VALUE}\s+(?P<noun>{_NOUN})\b", re.I)  # "7 bags"
# how many of one thing another holds: "18 marbles per bag"; "a bag holds 18 marbles", "each car has 4 wheels" (the
# words are words.toml's; their order, English's)
_RATES = (re.compile(rf"{_VALUE}\s+(?P<noun>{_NOUN})\s+{one_of('count.per', EN)}\s+(?P<per>{_NOUN})\b", re.I),
          re.compile(rf"{one_of('count.one', EN)}\s+(?P<per>{_NOUN})\s+{one_of('count.verbs', EN)}\s+{_VALUE}"
                     rf"\s+(?P<noun>{_NOUN})\b", re.I))  # the first that takes a number: "a truck carries 40 crates
# per trip" is per trip
# the words after a number that count nothing: "17 and 23", "3 times", "5 more"
_NOT_COUNTED = frozenset(words("count.not_counted"))


@dataclass(frozen=True)
class Given:
    """One quantity a request gives: its number, pint's expression for its unit, and the request's words for it."""

    value: str
    unit: str
    words: str
    start: int  # where its number stands in the request


def counted_givens(request: str) -> tuple[list[Given], str, str] | None:
    """The quantities of a request that asks how many of a counted thing ("how many marbles"), with pint's unit for
    that thing and the words that ask; None when it asks for no counted thing, or counts with a word that counts
    nothing."""
    asked = _HOW_MANY.search(request)
    if asked is None or re.fullmatch(UNIT_WORD, asked.group("noun"), re.I) or _not_counted(asked.group("noun")):
        return None
    givens, taken = [], set()
    for pattern in _RATES:
        for match in pattern.finditer(request):
            if match.start("value") in taken or _not_counted(match.group("noun")) or _not_counted(match.group("per")):
                continue
            taken.add(match.start("value"))
            unit = f"{_unit(match.group('noun'))} / {_unit(match.group('per'))}"
            words = f"{match.group('value')} {match.group('noun')} per {_singular(match.group('per'))}"
            givens.append(Given(match.group("value"), unit, words, match.start("value")))
    for match in _COUNT.finditer(request):
        if match.start("value") not in taken and not _not_counted(match.group("noun")):
            taken.add(match.start("value"))
            givens.append(Given(match.group("value"), _unit(match.group("noun")), " ".join(match.group(0).split()),
                                match.start("value")))
    if not givens:  # nothing counted: pint (a second to load) is not needed ("How many files are there?")
        return None
    return sorted(givens, key=lambda given: given.start), _unit(asked.group("noun")), asked.group(0)


def _not_counted(noun: str) -> bool:
    """A word after a number that counts nothing ("17 and 23")."""
    return noun.lower() in _NOT_COUNTED


def _singular(noun: str) -> str:
    """The word for one of a counted thing ("boxes" gives "box", "marbles" "marble", "berries" "berry")."""
    word = noun.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:x|ch|sh|ss)es$", word):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _unit(noun: str) -> str:
    """pint's unit for what a word counts: a unit people use as itself ("days"), else a thing of its own kind,
    defined on first use ("marbles" gives "counted_marble")."""
    if re.fullmatch(UNIT_WORD, noun, re.I):
        return unit_name(noun)
    name = f"counted_{_singular(noun)}"
    units = registry()
    if name not in units:
        units.define(f"{name} = [{name}]")
    return name
