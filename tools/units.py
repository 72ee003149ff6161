"""The units people write (English and Chinese words, to pint's names), and arithmetic with them: a quantity such
as "12 km / 1.5 hours" is worked out by pint, which knows what each unit is worth."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pint import UnitRegistry

# pint's name for a unit, and the words people write for it. A one-letter word counts only after a number or in a
# rate ("5 m", "km/h"): as a word on its own it is too often something else.
UNIT_WORDS = {
    "millisecond": ("milliseconds", "millisecond", "ms", "毫秒"),
    "second": ("seconds", "second", "secs", "sec", "s", "秒钟", "秒"),
    "minute": ("minutes", "minute", "mins", "min", "分钟"),
    "hour": ("hours", "hour", "hrs", "hr", "h", "个小时", "小时"),
    "day": ("days", "day", "天"),
    "week": ("weeks", "week", "个星期", "星期", "周"),
    "millimeter": ("millimeters", "millimetres", "millimeter", "millimetre", "mm", "毫米"),
    "centimeter": ("centimeters", "centimetres", "centimeter", "centimetre", "cm", "厘米"),
    "kilometer": ("kilometers", "kilometres", "kilometer", "kilometre", "km", "公里", "千米"),
    "meter": ("meters", "metres", "meter", "metre", "m", "米"),
    "inch": ("inches", "inch"),
    "foot": ("feet", "foot", "ft"),
    "yard": ("yards", "yard", "yd"),
    "mile": ("miles", "mile", "mi"),
    "milligram": ("milligrams", "milligram", "mg", "毫克"),
    "kilogram": ("kilograms", "kilogram", "kg", "千克", "公斤"),
    "gram": ("grams", "gram", "g", "克"),
    "pound": ("pounds", "pound", "lbs", "lb"),
    "ounce": ("ounces", "ounce", "oz"),
    "milliliter": ("milliliters", "millilitres", "milliliter", "millilitre", "ml", "毫升"),
    "liter": ("liters", "litres", "liter", "litre", "l", "升"),
}
_UNIT_OF = {word.lower(): unit for unit, words in UNIT_WORDS.items() for word in words}
# one unit word as a whole word (the longest first: "min" before "mi", "毫秒" before "秒")
_LONGEST_FIRST = "|".join(re.escape(word) for word in sorted(_UNIT_OF, key=len, reverse=True))
UNIT_WORD = rf"(?<![A-Za-z])(?:{_LONGEST_FIRST})(?![A-Za-z])"
_WORD = re.compile(UNIT_WORD, re.I)
# what an expression holds besides its units: no powers, which pint would work out at any size
_ARITHMETIC = re.compile(r"(?!.*\*\*)[\d.\s+\-*/()]*")
_QUANTITY = re.compile(rf"(\d+(?:\.\d+)?)\s*({UNIT_WORD})", re.I)  # "1.5 hours": one quantity, bound tight
_CONVERSION = re.compile(rf"^(?P<expression>.+?)\s+(?:in|to|into)\s+(?P<unit>(?:{UNIT_WORD}|[\s*/^\d])+)$", re.I)


def unit_name(word: str) -> str:
    """pint's name for a unit word people write ("km" gives "kilometer")."""
    return _UNIT_OF[word.lower()]


@cache
def registry() -> UnitRegistry:
    """pint's units, built once (about a second) and only when a text has a unit in it."""
    from pint import UnitRegistry

    return UnitRegistry()


def has_units(expression: str) -> bool:
    """Whether an expression is arithmetic on quantities with units ("12 km / 1.5 hours"): a unit word, and
    otherwise only numbers, + - * / and parentheses (after "in"/"to", the unit to give the result in)."""
    match = _CONVERSION.match(expression.strip())
    text = match.group("expression") if match else expression
    return bool(_WORD.search(text)) and bool(_ARITHMETIC.fullmatch(_WORD.sub(" ", text)))


def evaluate_quantity(expression: str) -> tuple[float, str]:
    """An expression on quantities with units, worked out: its value and its unit ("12 km / 1.5 hours" gives 8 and
    "kilometer / hour"; "2 hours in minutes" gives 120 and "minute"); a unitless result has the unit "". Raises
    ValueError when the units do not go together ("3 km + 2 hours")."""
    from pint.errors import DimensionalityError

    units = registry()
    match = _CONVERSION.match(expression.strip())
    text, target = (match.group("expression"), match.group("unit")) if match else (expression, "")
    try:
        parsed = units.parse_expression(_pint_expression(text))
        quantity = parsed.to(_pint_expression(target)) if target else parsed.to_reduced_units()
    except DimensionalityError as error:
        raise ValueError(f"the units in {expression!r} do not go together: {error}") from None
    except Exception as error:  # pint's parser raises several kinds for a malformed expression
        raise ValueError(f"cannot work out {expression!r} with its units: {error}") from None
    if not hasattr(quantity, "magnitude"):
        return float(quantity), ""
    if quantity.dimensionless:
        return float(quantity.to("dimensionless").magnitude), ""
    return float(quantity.magnitude), f"{quantity.units}"


def _pint_expression(text: str) -> str:
    """An expression as pint's parser reads it: each number with its unit as one quantity ("12 km / 1.5 hours"
    gives "(12 * kilometer) / (1.5 * hour)", not 12 km / 1.5 times an hour), each unit by pint's name."""
    bound = _QUANTITY.sub(lambda match: f"({match.group(1)} * {unit_name(match.group(2))})", text)
    return _WORD.sub(lambda match: unit_name(match.group(0)), bound)  # pint's names are words of their own
