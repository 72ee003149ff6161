"""What a request settles about its answer besides its units (units.py): a percentage of a number, when the request
gives nothing else ("4.5 percent of 8000" is 360), and arithmetic it spells out and nothing else ("(25 + 15) * 3"
is 120, not 25 + 15 * 3; "the cube root of 2744" is 14)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..tools.calculator import evaluate
from .request import READ_REQUESTS, Request, read_request
from .verify import OPERAND
from .words import EN, ZH, alternation, kinds, one_of, words

NUMBER = r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![0-9])"  # a number standing alone, not in a name such as "a1.txt"
_BARE_NUMBER = re.compile(NUMBER)
# a percentage of a number: "4.5 percent of 8000", "12% of 640", "480 的 25%", "480的百分之25" (the words are
# words.toml's; their order, the language's)
_SHARE, _WHOLE = r"(?P<share>\d+(?:\.\d+)?)", r"(?P<whole>\d+(?:\.\d+)?)"
_PERCENT_OF = (re.compile(rf"{_SHARE}\s*(?:%|{one_of('percent.after')})\s+{one_of('of', EN)}\s+{_WHOLE}", re.I),
               re.compile(rf"{_WHOLE}\s*{one_of('of', ZH)}\s*{_SHARE}\s*%"),
               re.compile(rf"{_WHOLE}\s*{one_of('of', ZH)}\s*{one_of('percent.before')}\s*{_SHARE}"))
# arithmetic a request spells out: written with operators a date or a phone number does not have ("(25 + 15) * 3"),
# a root or a power in words ("the cube root of 2744", "41 squared", "3 to the power of 5", "2744 的立方根")
_WRITTEN = re.compile(rf"{OPERAND}(?:\s*(?:[+*/^\u00d7\u00f7]|\s-\s)\s*{OPERAND})+")
_N, _K = r"(?P<n>\d+(?:\.\d+)?)", r"(?P<k>\d+)"
_ROOTS = {word.lower(): int(degree) for degree, named in kinds("root").items() for word in named}
_POWERS = {word.lower(): int(degree) for degree, named in kinds("power").items() for word in named}


def _degrees(key: str, language: tuple[str, ...]) -> str:
    """A group matching the words for a root or a power (`key`: "root", "power") of any degree in `language`."""
    return alternation(tuple(word for degree in kinds(key) for word in words(f"{key}.{degree}", language)))


_SPELLED = (re.compile(rf"(?P<root>{_degrees('root', EN)})\s+{one_of('root_word', EN)}\s+{one_of('of', EN)}\s+{_N}",
                       re.I),
            re.compile(rf"{_N}\s*{one_of('of', ZH)}\s*(?P<root>{_degrees('root', ZH)}){one_of('root_word', ZH)}"),
            re.compile(rf"{_N}\s+(?P<power>{_degrees('power', EN)})", re.I),
            re.compile(rf"{_N}\s+{one_of('power_to', EN)}\s+{_K}(?:(?:st|nd|rd|th)\s+{one_of('power_word', EN)})?\b",
                       re.I),  # the ordinal's ending ("5th") is glued to its digits
            re.compile(rf"{_N}\s*{one_of('of', ZH)}\s*{_K}\s*{one_of('power_word', ZH)}"))
_ANSWER_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")


@dataclass(frozen=True)
class UnitCheck:
    """What a request settles about its answer: the unit asked for (as the request words it; empty for a percentage
    or arithmetic), how the request's quantities give it (in its words: "180 km / 2.5 hours"), the conversions
    that takes ("1 hour = 3600 seconds"), the value that comes out, and the arithmetic that gives it."""

    asked: str
    way: str
    factors: tuple[str, ...]
    value: float
    expression: str = ""  # the arithmetic that gives the value ("4 * 3600"), for a calculator
    kind: str = "units"  # what settles it: "units", "percent" or "arithmetic" (the request's own)

    def fits(self, answer: str) -> bool:
        """Whether `answer` states the value, as written or rounded to the decimals the answer shows."""
        for match in _ANSWER_NUMBER.finditer(re.sub(r"(?<=\d),(?=\d{3})", "", answer)):
            stated = float(match.group(0))
            decimals = len(match.group(1) or "")
            if abs(stated - self.value) <= 1e-6 * max(1.0, abs(self.value)) or round(self.value, decimals) == stated:
                return True
        return False


def check_percent(task: str) -> UnitCheck | None:
    """What a request that takes a percentage of a number and nothing else settles ("What is 4.5 percent of
    8000?", "480 的 25%": 360 and 120), or None: a request with any other number may go on from it."""
    return settle_percent(read_request(task))


@lru_cache(maxsize=READ_REQUESTS)
def settle_percent(request: Request) -> UnitCheck | None:
    """What `request` settles as a percentage of a number (see `check_percent`), or None."""
    found = [match for pattern in _PERCENT_OF for match in pattern.finditer(request.plain)]
    if len(found) != 1 or len(_BARE_NUMBER.findall(request.plain)) != 2:
        return None
    share, whole = found[0].group("share"), found[0].group("whole")
    value = float(share) * float(whole) / 100
    return UnitCheck("", " ".join(found[0].group(0).split()), (), value, f"{whole} * {share} / 100", kind="percent")


def check_arithmetic(task: str) -> UnitCheck | None:
    """What a request that spells out arithmetic and gives no other number settles ("What is (25 + 15) * 3?": 120,
    not 25 + 15 * 3; "the cube root of 2744": 14), or None; None too for a request to change the workspace, whose
    answer need not restate the number ("Saved it to out.txt")."""
    return settle_arithmetic(read_request(task))


@lru_cache(maxsize=READ_REQUESTS)
def settle_arithmetic(request: Request) -> UnitCheck | None:
    """What the arithmetic `request` spells out settles (see `check_arithmetic`), or None."""
    if request.change:
        return None
    found = [(match, _spelled(match)) for pattern in _SPELLED for match in pattern.finditer(request.plain)]
    found += [(match, match.group(0).replace("\u00d7", "*").replace("\u00f7", "/"))
              for match in _WRITTEN.finditer(request.plain)]
    if len(found) != 1:
        return None
    match, expression = found[0]
    numbers = list(_BARE_NUMBER.finditer(request.plain))
    if any(not match.start() <= number.start() < match.end() for number in numbers):
        return None  # another number: the request may go on from this one
    expression = " ".join(expression.split())
    try:
        value = float(evaluate(expression))
    except ValueError:
        return None
    return UnitCheck("", " ".join(match.group(0).split()), (), value, expression, kind="arithmetic")


def _spelled(match: re.Match[str]) -> str:
    """The calculator's expression for a root or a power said in words ("2744 ^ (1/3)", "41 ^ 2")."""
    found = match.groupdict()
    if found.get("root"):
        return f"{found['n']} ^ (1/{_ROOTS[found['root'].lower()]})"
    power = _POWERS[found["power"].lower()] if found.get("power") else found["k"]
    return f"{found['n']} ^ {power}"


