"""The calculator tool: safe arithmetic through py-expression-eval, never eval(); arithmetic on quantities with
units ("12 km / 1.5 hours") through pint's parser."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import math
import re
import threading
from typing import Any

from langchain_core.tools import tool
from py_expression_eval import Parser

from .units import evaluate_quantity, has_units

MAX_EXPRESSION_CHARS = 500
MAX_RESULT_DIGITS = 1000  # refuse powers/factorials that would take ages or flood the context

# py-expression-eval's terse parse messages, reworded for the model.
_PARSE_HINTS = {
    "parity": "it looks incomplete (an operator or operand is missing)",
    'unmatched "()"': "its parentheses are unbalanced",
    "unknown character": "it contains a character that is not arithmetic",
}


class _BoundedParser(Parser):
    """A Parser whose power and factorial refuse results too large to compute quickly."""

    def pow(self, a: Any, b: Any) -> Any:
        """a ** b, refused when the result would have too many digits."""
        numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
        if numbers and abs(a) > 1 and b > 0 and b * math.log10(abs(a)) > MAX_RESULT_DIGITS:
            raise ValueError(f"{a}^{b} is too large to compute")
        return a**b

    def fac(self, a: Any) -> Any:
        """a!, refused for large a."""
        if isinstance(a, (int, float)) and a > 450:  # 450! already has about 1000 digits
            raise ValueError(f"fac({a}) is too large to compute")
        return math.factorial(a)

    def roll(self, a: Any, b: Any) -> Any:
        """The library's dice operator 'D' is random and unbounded; arithmetic has no use for it."""
        raise ValueError("the dice operator 'D' is not supported")


_parsers = threading.local()


def _parser() -> _BoundedParser:
    """This thread's parser: a Parser keeps state while it parses (each parse starts it afresh), and building one
    costs as much as the parse itself."""
    parser: _BoundedParser | None = getattr(_parsers, "parser", None)
    if parser is None:
        parser = _parsers.parser = _BoundedParser()
    return parser


def _describe_parse_error(message: str) -> str:
    """Turn 'parse error [column 3]: parity, expression: 1 +' into plain words."""
    detail = message.split("]: ", 1)[-1].split(", expression:", 1)[0]
    column = message.split("[column ", 1)[-1].split("]", 1)[0] if "[column " in message else None
    hint = _PARSE_HINTS.get(detail, detail)
    return f"{hint} (at column {column})" if column and detail != "parity" else hint


# what a date or a time is written with: the calendar's business, not arithmetic
_DATE_WORDS = re.compile(r"\b(?:today|tomorrow|yesterday|now|ago|date|weekday|next\s+week"
                         r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
                         r"|\d\s*(?:天|周|个?星期|个?月)\s*[后前]|[明后昨前]天|下个?(?:周|星期)|几号", re.I)


_FILE_NAME = re.compile(r"(?<![\w.])[A-Za-z_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,5}\b")  # "grades.csv", not "2.5"


def evaluate(expression: str) -> int | float:
    """Evaluate an arithmetic expression; raise ValueError with a readable reason on failure (which, for a date or
    a time, names the calendar, and for a file's name says to write the file's numbers in)."""
    try:
        return _evaluate(expression)
    except ValueError as error:
        if _DATE_WORDS.search(expression):
            raise ValueError(f"{error}; it looks like a date or a time, which the calendar tool works out") from None
        if _FILE_NAME.search(expression):
            raise ValueError(f"{error}; the calculator reads no file: write the numbers the file holds into the "
                             "expression itself (for an average, their sum divided by how many there are)") from None
        raise


def _evaluate(expression: str) -> int | float:
    text = expression.strip()
    if not text:
        raise ValueError("the expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ValueError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    if "'" in text or '"' in text:
        raise ValueError("the expression contains quotes; only numbers are allowed, not text")
    parser = _parser()
    try:
        parsed = parser.parse(text)
    except Exception as error:  # the library raises bare Exception for every parse error
        raise ValueError(f"cannot parse {text!r}: {_describe_parse_error(str(error))}") from None
    unknown = sorted(set(parsed.variables()))
    if unknown:
        names = ", ".join(unknown)
        raise ValueError(
            f"unknown name(s) in {text!r}: {names}; use numbers, + - * / % ^, "
            "functions such as sqrt(), log(), sin() and the constants PI and E"
        )
    try:
        result = parsed.evaluate({})
    except ZeroDivisionError:
        raise ValueError(f"division by zero in {text!r}") from None
    except OverflowError:
        raise ValueError(f"the result of {text!r} is too large") from None
    except Exception as error:  # math domain errors, our size limits, the library's bare Exceptions
        raise ValueError(f"cannot evaluate {text!r}: {error}") from None
    if isinstance(result, complex):
        raise ValueError(f"the result of {text!r} is not a real number")
    if isinstance(result, bool) or not isinstance(result, (int, float)):
        raise ValueError(f"{text!r} does not evaluate to a single number")
    return result


def format_number(value: int | float) -> str:
    """Render a number plainly: integers (and whole floats) without '.0'."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("the result is not a finite number")
        value = float(f"{value:.15g}")  # drop binary noise: 0.1+0.2 gives 0.3, 1.1*3 gives 3.3
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)
    if value.bit_length() > MAX_RESULT_DIGITS * 3.33:
        raise ValueError(f"the result has more than {MAX_RESULT_DIGITS} digits")
    return str(value)


@tool(parse_docstring=True)
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression and return the number, e.g. "1234*5678+17" or "sqrt(2)/3".

    Args:
        expression: Numbers with + - * / % ^ and parentheses; functions sqrt, log, exp, abs, round,
            floor, ceil, sin, cos, tan, min, max; constants PI and E.
    """
    if has_units(expression) and len(expression) <= MAX_EXPRESSION_CHARS:  # "12 km / 1.5 hours": with pint
        value, unit = evaluate_quantity(expression)
        return f"{format_number(value)} {unit}".strip()
    return format_number(evaluate(expression))


calculator.metadata = {"side_effects": False}
