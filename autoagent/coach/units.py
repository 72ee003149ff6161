"""The units a request gives and asks for: a final answer must fit them. "What is 7 weeks in minutes?" is 7 weeks in
minutes, not 60 * 7; "180 km in 2.5 hours ... in km per hour" is 180 km / 2.5 hours, not 180 * 2.5.

Dimensional analysis with pint, and only where it settles the matter: every number of the request carries a unit
people use (a bare number may be a count that multiplies), one unit is asked for, and exactly one way of combining
all the quantities, each multiplied or divided once, has that unit's dimension. Anything else is left alone.
The things a request counts are units too (counts.py): "Each bag holds 18 marbles. How many marbles do 7 bags hold?" is
7 bags * 18 marbles per bag. What a percentage or arithmetic the request spells out settles is in settled.py."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..steps import StopReason
from ..tools.units import UNIT_WORD, registry, unit_name
from .counts import Given
from .request import READ_REQUESTS, Request, read_request
from .rules import Rule
from .settled import NUMBER, UnitCheck, check_arithmetic, check_percent
from .verify import Objection
from .words import EN, ZH, one_of, words

if TYPE_CHECKING:
    from pint import UnitRegistry

_PER = rf"\s*(?:/|{one_of('per')})\s*"
_UNIT = rf"(?P<top>{UNIT_WORD})(?:{_PER}(?P<bottom>{UNIT_WORD}))?"
_QUANTITY = re.compile(rf"(?P<value>{NUMBER})\s*-?\s*{_UNIT}", re.I)
_BARE_NUMBER = re.compile(NUMBER)
# Where a request names the unit it wants: "how many seconds", "in km per hour?", "to meters.", "多少秒",
# "每小时多少公里" (the words are words.toml's; their order, the language's).
_HOW_MANY, _PER_ZH = one_of("asks.how_many", ZH), one_of("per", ZH)
_ASKED = (re.compile(rf"{one_of('asks.how_many', EN)}\s+{_UNIT}", re.I),
          re.compile(rf"{one_of('asks.in_unit', EN)}\s+{_UNIT}\s*(?=[?.!,;:\uff1f\u3002\uff0c]|$)", re.I),
          re.compile(rf"{_PER_ZH}\s*(?P<bottom>{UNIT_WORD})\s*{_HOW_MANY}\s*(?P<top>{UNIT_WORD})", re.I),
          re.compile(rf"{_HOW_MANY}\s*{_UNIT}", re.I))
# the words that ask, before the unit asked for ("每小时多少公里" is asked as "公里每小时"); in listed order and not
# as whole words, as it always was ("into metres" keeps "to metres")
_ASKED_PER = re.compile(rf"^({_PER_ZH})\s*(.+?)\s*{_HOW_MANY}\s*(.+)$")
_ASKING = re.compile("^(?:" + "|".join(r"\s+".join(map(re.escape, asking.split())) for asking in (
    *words("asks.how_many", EN), *words("asks.in_unit", EN), *words("asks.how_many", ZH))) + r")\s*", re.I)
MAX_QUANTITIES = 4
# an answer that does not fit what the units, a percentage or the request's own arithmetic settle
_PLURAL = {"foot": "feet", "inch": "inches"}


def _plural(name: str) -> str:
    """A pint unit's name for more than one ("seconds", "feet")."""
    return _PLURAL.get(name, name + "s")


def _pint_unit(match: re.Match[str]) -> str:
    """pint's expression for a unit the request writes ("km per hour" gives "kilometer / hour")."""
    top = unit_name(match.group("top"))
    bottom = match.group("bottom")
    return f"{top} / {unit_name(bottom)}" if bottom else top


def check_units(task: str) -> UnitCheck | None:
    """What the units of a task's request (its first paragraph) settle about the answer, or None when they do not
    settle it (see the module's docstring)."""
    return settle_units(read_request(task))


@lru_cache(maxsize=READ_REQUESTS)
def settle_units(request: Request) -> UnitCheck | None:
    """What the units of `request` settle about the answer (see `check_units`), or None."""
    found = _unit_givens(request.plain) or request.counted
    if found is None:
        return None
    givens, target, asked = found
    if not givens or len(givens) > MAX_QUANTITIES:
        return None
    covered = {given.start for given in givens}
    if any(number.start() not in covered for number in _BARE_NUMBER.finditer(request.plain)):
        return None  # a number without a unit may be a count that multiplies
    return _solve(givens, target, " ".join(asked.split()))


def _unit_givens(request: str) -> tuple[list[Given], str, str] | None:
    """The quantities with units people use that a request gives, the one unit it asks for and the words that ask;
    None when it asks for none, or for several."""
    quantities = [Given(match.group("value"), _pint_unit(match), " ".join(match.group(0).split()),
                        match.start("value")) for match in _QUANTITY.finditer(request)]
    asked = [match for pattern in _ASKED for match in pattern.finditer(request) if not _one_letter_alone(match)]
    asked = [match for match in asked if not any(_within(match, other) for other in asked)]  # 每小时多少公里
    targets = {_pint_unit(match) for match in asked}
    if len(targets) != 1:
        return None
    return quantities, targets.pop(), asked[0].group(0)


def _one_letter_alone(match: re.Match[str]) -> bool:
    """A unit asked for as a lone one-letter Latin word ("in m."): too often not a unit."""
    top = match.group("top")
    return not match.group("bottom") and len(top) == 1 and top.isascii()


def _within(match: re.Match[str], other: re.Match[str]) -> bool:
    """Whether `match` lies inside the longer `other` ("多少公里" in "每小时多少公里")."""
    return match is not other and other.start() <= match.start() and match.end() <= other.end() \
        and other.end() - other.start() > match.end() - match.start()


def _solve(givens: list[Given], target: str, asked: str) -> UnitCheck | None:
    """The one way of multiplying and dividing all `givens` that has `target`'s dimension, or None."""
    units = registry()
    values = [units.Quantity(float(given.value), given.unit) for given in givens]
    wanted = units.Unit(target)
    ways = []
    for signs in itertools.product((1, -1), repeat=len(values)):
        product = units.Quantity(1)
        for one, sign in zip(values, signs, strict=True):
            product = product * one if sign > 0 else product / one
        if product.dimensionality == wanted.dimensionality:
            ways.append((signs, product))
    if len(ways) != 1 or 1 not in ways[0][0]:
        return None
    signs, product = ways[0]
    value = float(product.to(wanted).magnitude)
    conversions = _conversions(units, values, signs, wanted)
    words = [given.words for given in givens]
    numbers = [given.value for given in givens]
    return UnitCheck(_asked_words(asked), _combined(words, signs), tuple(text for text, _, _ in conversions), value,
                     _expression(numbers, signs, conversions, value))


def _asked_words(asked: str) -> str:
    """The unit asked for, without the words that ask ("how many seconds" gives "seconds", "每小时多少公里"
    "公里每小时")."""
    return _ASKING.sub("", _ASKED_PER.sub(r"\3\1\2", asked)).rstrip("?.!,;:\uff1f\u3002\uff0c ")


def _combined(terms: list[str], signs: tuple[int, ...]) -> str:
    """`terms` multiplied (sign 1) and divided (sign -1): "180 km / 2.5 hours"."""
    paired = list(zip(terms, signs, strict=True))
    return " * ".join(term for term, sign in paired if sign > 0) + "".join(f" / {term}" for term, sign in paired
                                                                           if sign < 0)


def _conversions(units: UnitRegistry, values: list[Any], signs: tuple[int, ...],
                 wanted: Any) -> list[tuple[str, float, int]]:
    """Each conversion from a unit of the request to the unit asked for that the answer takes, as people say it
    ("1 day = 86400 seconds"), with its factor and the power the combined quantities hold that unit to."""
    asked = {units.Unit(name).dimensionality: name for name, _ in units.Quantity(1, wanted).unit_items()}
    powers: dict[str, int] = {}
    for value, sign in zip(values, signs, strict=True):
        for name, power in value.unit_items():
            powers[name] = powers.get(name, 0) + sign * int(power)
    conversions = []
    for name, power in powers.items():
        other = asked.get(units.Unit(name).dimensionality)
        if power and other is not None and other != name:
            factor = float(units.Quantity(1, name).to(other).magnitude)
            text = f"1 {name} = {factor:g} {_plural(other)}" if factor >= 1 \
                else f"1 {other} = {1 / factor:g} {_plural(name)}"  # "1 day = 24 hours", not "1 hour = 0.04 days"
            conversions.append((text, factor, power))
    return conversions


def _expression(numbers: list[str], signs: tuple[int, ...], conversions: list[tuple[str, float, int]],
                value: float) -> str:
    """The arithmetic that gives `value` from the request's numbers and the conversions ("9 * 86400", "90 * 1000 /
    3600"), for a calculator; empty when the written factors do not give the value (a unit cancelled against
    another of the same kind)."""
    expression, result = _combined(numbers, signs), 1.0
    for number, sign in zip(numbers, signs, strict=True):
        result = result * float(number) if sign > 0 else result / float(number)
    for _, factor, power in conversions:
        for _ in range(abs(power)):
            times = (factor >= 1) == (power > 0)
            shown = factor if factor >= 1 else 1 / factor
            expression += f" {'*' if times else '/'} {shown:g}"
            result = result * shown if times else result / shown
    return expression if abs(result - value) <= 1e-9 * max(1.0, abs(value)) else ""


def object_to_units(answer: str, task: str, raised: Collection[Rule]) -> Objection | None:
    """Why a drafted final answer does not fit the units the request gives and asks for (the seconds in 9 days
    answered with 3600 * 9): the model is shown how the quantities give the unit asked for (and `expression`,
    the arithmetic, leads its next step), and works it out with a tool. Said once; the second time the run ends
    unverified."""
    check = check_units(task) or check_percent(task) or check_arithmetic(task)
    if check is None or check.fits(answer):
        return None
    factors = f" ({'; '.join(check.factors)})" if check.factors else ""
    variables = {"answer": " ".join(answer.split())[:200], "asked": check.asked, "way": check.way,
                 "factors": factors, "expression": check.expression, "check": f"check_{check.kind}",
                 "items": f"it does not give {check.way}" + (f" in {check.asked}" if check.asked else "")}
    rule = Rule(f"{'unit' if check.kind == 'units' else check.kind}_mismatch")
    ends = StopReason.UNVERIFIED if rule in raised else None
    return Objection(rule, variables, ends=ends)
