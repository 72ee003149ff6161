"""The units a request gives and asks for: a final answer must fit them. "How many seconds are there in 9 days?" is
9 days in seconds, not 3600 * 9; "342 km in 3 hours ... in km per hour" is 342 km / 3 hours, not 342 * 3.

Dimensional analysis with pint, and only where it settles the matter: every number of the request carries a unit
people use (a bare number may be a count that multiplies), one unit is asked for, and exactly one way of combining
all the quantities, each multiplied or divided once, has that unit's dimension. Anything else is left alone.
A percentage of a number is settled the same way, when the request gives nothing else ("3.5 percent of 12000"), and
so is arithmetic the request spells out and nothing else: "(48 + 52) * 7", "the cube root of 3375", "37 squared"."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..steps import StopReason
from ..tools.calculator import evaluate
from ..tools.units import UNIT_WORD, registry, unit_name
from .verify import OPERAND, Objection
from .writes import asks_for_change

if TYPE_CHECKING:
    from pint import UnitRegistry

_PER = r"\s*(?:/|\bper\b|\ban?\b|每)\s*"
_UNIT = rf"(?P<top>{UNIT_WORD})(?:{_PER}(?P<bottom>{UNIT_WORD}))?"
_NUMBER = r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![0-9])"
_QUANTITY = re.compile(rf"(?P<value>{_NUMBER})\s*-?\s*{_UNIT}", re.I)
_BARE_NUMBER = re.compile(_NUMBER)
# Where a request names the unit it wants: "how many seconds", "in km per hour?", "to meters.", "多少秒",
# "每小时多少公里".
_ASKED = (re.compile(rf"\bhow\s+many\s+{_UNIT}", re.I),
          re.compile(rf"\b(?:in|into|to)\s+{_UNIT}\s*(?=[?.!,;:\uff1f\u3002\uff0c]|$)", re.I),
          re.compile(rf"每\s*(?P<bottom>{UNIT_WORD})\s*(?:多少|几)\s*(?P<top>{UNIT_WORD})", re.I),
          re.compile(rf"(?:多少|几)\s*{_UNIT}", re.I))
# a percentage of a number: "3.5 percent of 12000", "15% of 2480", "250 的 20%", "250的百分之20"
_SHARE, _WHOLE = r"(?P<share>\d+(?:\.\d+)?)", r"(?P<whole>\d+(?:\.\d+)?)"
_PERCENT_OF = (re.compile(rf"{_SHARE}\s*(?:%|\bpercent\b|\bper\s+cent\b)\s+of\s+{_WHOLE}", re.I),
               re.compile(rf"{_WHOLE}\s*的\s*{_SHARE}\s*%"), re.compile(rf"{_WHOLE}\s*的\s*百分之\s*{_SHARE}"))
# arithmetic a request spells out: written with operators a date or a phone number does not have ("(48 + 52) * 7"),
# a root or a power in words ("the cube root of 3375", "37 squared", "2 to the power of 10", "3375 的立方根")
_WRITTEN = re.compile(rf"{OPERAND}(?:\s*(?:[+*/^\u00d7\u00f7]|\s-\s)\s*{OPERAND})+")
_N, _K = r"(?P<n>\d+(?:\.\d+)?)", r"(?P<k>\d+)"
_ROOTS = {"square": 2, "cube": 3, "平方": 2, "立方": 3}
_POWERS = {"squared": 2, "cubed": 3}
_SPELLED = (re.compile(rf"\b(?P<root>square|cube)\s+root\s+of\s+{_N}", re.I),
            re.compile(rf"{_N}\s*的\s*(?P<root>平方|立方)根"),
            re.compile(rf"{_N}\s+(?P<power>squared|cubed)\b", re.I),
            re.compile(rf"{_N}\s+(?:raised\s+)?to\s+the\s+(?:power\s+of\s+)?{_K}(?:(?:st|nd|rd|th)\s+power)?\b", re.I),
            re.compile(rf"{_N}\s*的\s*{_K}\s*次方"))
_ANSWER_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")
MAX_QUANTITIES = 4
# an answer that does not fit what the units, a percentage or the request's own arithmetic settle
UNIT_OBJECTIONS = ("unit_mismatch", "percent_mismatch", "arithmetic_mismatch")
_PLURAL = {"foot": "feet", "inch": "inches"}


def _plural(name: str) -> str:
    """A pint unit's name for more than one ("seconds", "feet")."""
    return _PLURAL.get(name, name + "s")


@dataclass(frozen=True)
class UnitCheck:
    """What a request's units settle: the unit asked for (as the request words it), how its quantities give it
    (in the request's words: "342 km / 3 hours"), the conversions that takes ("1 day = 86400 seconds"), the
    value that comes out, and the arithmetic that gives it."""

    asked: str
    way: str
    factors: tuple[str, ...]
    value: float
    expression: str = ""  # the arithmetic that gives the value ("9 * 86400"), for a calculator
    kind: str = "units"  # what settles it: "units", "percent" or "arithmetic" (the request's own)

    def fits(self, answer: str) -> bool:
        """Whether `answer` states the value, as written or rounded to the decimals the answer shows."""
        for match in _ANSWER_NUMBER.finditer(re.sub(r"(?<=\d),(?=\d{3})", "", answer)):
            stated = float(match.group(0))
            decimals = len(match.group(1) or "")
            if abs(stated - self.value) <= 1e-6 * max(1.0, abs(self.value)) or round(self.value, decimals) == stated:
                return True
        return False


def _pint_unit(match: re.Match[str]) -> str:
    """pint's expression for a unit the request writes ("km per hour" gives "kilometer / hour")."""
    top = unit_name(match.group("top"))
    bottom = match.group("bottom")
    return f"{top} / {unit_name(bottom)}" if bottom else top


def check_units(task: str) -> UnitCheck | None:
    """What the units of a task's request (its first paragraph) settle about the answer, or None when they do not
    settle it (see the module's docstring)."""
    request = re.sub(r"(?<=\d),(?=\d{3})", "", task.strip().split("\n\n")[0])
    quantities = list(_QUANTITY.finditer(request))
    if not quantities or len(quantities) > MAX_QUANTITIES:
        return None
    covered = {index for match in quantities for index in range(*match.span("value"))}
    if any(number.start() not in covered for number in _BARE_NUMBER.finditer(request)):
        return None  # a number without a unit may be a count that multiplies
    asked = [match for pattern in _ASKED for match in pattern.finditer(request) if not _one_letter_alone(match)]
    asked = [match for match in asked if not any(_within(match, other) for other in asked)]  # 每小时多少公里
    targets = {_pint_unit(match) for match in asked}
    if len(targets) != 1:
        return None
    return _solve(quantities, targets.pop(), " ".join(asked[0].group(0).split()))


def check_percent(task: str) -> UnitCheck | None:
    """What a request that takes a percentage of a number and nothing else settles ("What is 3.5 percent of
    12000?", "250 的 20%": 420 and 50), or None: a request with any other number may go on from it."""
    request = re.sub(r"(?<=\d),(?=\d{3})", "", task.strip().split("\n\n")[0])
    found = [match for pattern in _PERCENT_OF for match in pattern.finditer(request)]
    if len(found) != 1 or len(_BARE_NUMBER.findall(request)) != 2:
        return None
    share, whole = found[0].group("share"), found[0].group("whole")
    value = float(share) * float(whole) / 100
    return UnitCheck("", " ".join(found[0].group(0).split()), (), value, f"{whole} * {share} / 100", kind="percent")


def check_arithmetic(task: str) -> UnitCheck | None:
    """What a request that spells out arithmetic and gives no other number settles ("What is (48 + 52) * 7?": 700,
    not 48 + 52 * 7; "the cube root of 3375": 15), or None; None too for a request to change the workspace, whose
    answer need not restate the number ("Saved it to out.txt")."""
    request = re.sub(r"(?<=\d),(?=\d{3})", "", task.strip().split("\n\n")[0])
    if asks_for_change(request):
        return None
    found = [(match, _spelled(match)) for pattern in _SPELLED for match in pattern.finditer(request)]
    found += [(match, match.group(0).replace("\u00d7", "*").replace("\u00f7", "/"))
              for match in _WRITTEN.finditer(request)]
    if len(found) != 1:
        return None
    match, expression = found[0]
    numbers = list(_BARE_NUMBER.finditer(request))
    if any(not match.start() <= number.start() < match.end() for number in numbers):
        return None  # another number: the request may go on from this one
    expression = " ".join(expression.split())
    try:
        value = float(evaluate(expression))
    except ValueError:
        return None
    return UnitCheck("", " ".join(match.group(0).split()), (), value, expression, kind="arithmetic")


def _spelled(match: re.Match[str]) -> str:
    """The calculator's expression for a root or a power said in words ("3375 ^ (1/3)", "37 ^ 2")."""
    found = match.groupdict()
    if found.get("root"):
        return f"{found['n']} ^ (1/{_ROOTS[found['root'].lower()]})"
    power = _POWERS[found["power"].lower()] if found.get("power") else found["k"]
    return f"{found['n']} ^ {power}"


def _one_letter_alone(match: re.Match[str]) -> bool:
    """A unit asked for as a lone one-letter Latin word ("in m."): too often not a unit."""
    top = match.group("top")
    return not match.group("bottom") and len(top) == 1 and top.isascii()


def _within(match: re.Match[str], other: re.Match[str]) -> bool:
    """Whether `match` lies inside the longer `other` ("多少公里" in "每小时多少公里")."""
    return match is not other and other.start() <= match.start() and match.end() <= other.end() \
        and other.end() - other.start() > match.end() - match.start()


def _solve(quantities: list[re.Match[str]], target: str, asked: str) -> UnitCheck | None:
    """The one way of multiplying and dividing all `quantities` that has `target`'s dimension, or None."""
    units = registry()
    values = [units.Quantity(float(match.group("value")), _pint_unit(match)) for match in quantities]
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
    words = [" ".join(match.group(0).split()) for match in quantities]
    numbers = [match.group("value") for match in quantities]
    return UnitCheck(_asked_words(asked), _combined(words, signs), tuple(text for text, _, _ in conversions), value,
                     _expression(numbers, signs, conversions, value))


def _asked_words(asked: str) -> str:
    """The unit asked for, without the words that ask ("how many seconds" gives "seconds", "每小时多少公里"
    "公里每小时")."""
    asked = re.sub(r"^每\s*(.+?)\s*(?:多少|几)\s*(.+)$", r"\2每\1", asked)
    return re.sub(r"^(?:how\s+many|in|into|to|多少|几)\s*", "", asked, flags=re.I).rstrip("?.!,;:\uff1f\u3002\uff0c ")


def _combined(terms: list[str], signs: tuple[int, ...]) -> str:
    """`terms` multiplied (sign 1) and divided (sign -1): "342 km / 3 hours"."""
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


def object_to_units(answer: str, task: str, raised: Collection[str]) -> Objection | None:
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
    template = f"{'unit' if check.kind == 'units' else check.kind}_mismatch"
    ends = StopReason.UNVERIFIED if template in raised else None
    return Objection(template, variables, ends=ends)
