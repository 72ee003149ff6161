"""The calculator tool: exact arithmetic, plain number strings, readable errors."""

from __future__ import annotations

import re

import pytest

from autoagent.tools import calculator


def calculate(expression: str) -> str:
    return calculator.invoke({"expression": expression})


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1234*5678+17", "7006669"),
        ("2^10", "1024"),
        ("2**3", "8"),
        ("(1 + 2) * 3", "9"),
        ("-5 + 2", "-3"),
        ("7 % 3", "1"),
        ("10/4", "2.5"),
        ("10/5", "2"),
        ("sqrt(16)", "4"),
        ("1/3", "0.333333333333333"),
        ("0.1 + 0.2", "0.3"),
        ("12000 * 3.5 / 100", "420"),
        ("2^0.5", "1.4142135623731"),
        ("max(1, 7, 3)", "7"),
        ("round(PI*100)", "314"),
        ("123456789012345678901234567890 + 1", "123456789012345678901234567891"),
    ],
)
def test_evaluates_to_a_plain_number_string(expression: str, expected: str) -> None:
    assert calculate(expression) == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1 +", "cannot parse"),
        ("(1 + 2", "parentheses are unbalanced"),
        ("1 $ 2", "not arithmetic"),
        ("10 / 0", "division by zero"),
        ("x + 1", "unknown name(s) in 'x + 1': x"),
        ("", "empty"),
        ("sqrt(-1)", "math domain error"),
        ("1e300 * 1e300", "not a finite number"),
        ("10^5000", "too large"),
        ("fac(100000)", "too large"),
        ("'a' * 3", "quotes"),
        ("1, 2", "single number"),
        ("(-8)^(1/3)", "not a real number"),
    ],
)
def test_errors_raise_value_error_saying_what_is_wrong(expression: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        calculate(expression)


def test_is_marked_read_only_with_a_schema_from_the_docstring() -> None:
    assert calculator.name == "calculator"
    assert calculator.metadata == {"side_effects": False}
    assert list(calculator.args) == ["expression"]
    assert calculator.args["expression"]["description"]


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("12 km / 1.5 hours", "8 kilometer / hour"),
        ("2 hours in minutes", "120 minute"),
        ("9 days to seconds", "777600 second"),
        ("90 km/h in m/s", "25 meter / second"),
        ("12 km/h * 2 h", "24 kilometer"),
        ("600 km / (80 km/h)", "7.5 hour"),
        ("2 * (3 hours + 30 minutes) in minutes", "420 minute"),
        ("3 hours / 30 minutes", "6"),
        ("2.5 kg in grams", "2500 gram"),
        ("9天 in 秒", "777600 second"),
    ],
)
def test_quantities_with_units_are_worked_out_with_their_units(expression: str, expected: str) -> None:
    assert calculate(expression) == expected


def test_quantities_whose_units_do_not_go_together_are_refused_readably() -> None:
    with pytest.raises(Exception, match="units in '3 km \\+ 2 hours' do not go together"):
        calculate("3 km + 2 hours")


def test_a_power_with_units_is_not_worked_out_at_any_size() -> None:
    with pytest.raises(Exception, match=r"cannot parse|unknown name"):
        calculate("7**99999999 km")


@pytest.mark.parametrize("expression", ["sum(grades.csv, class=B) / count(grades.csv, class=B)", "count(essay.txt)",
                                        "wc -l notes.md"])
def test_a_file_given_to_the_calculator_is_answered_with_what_to_write_instead(expression: str) -> None:
    with pytest.raises(ValueError, match="the calculator reads no file: write the numbers the file holds into"):
        calculate(expression)


def test_a_number_with_decimals_is_no_file_name() -> None:
    with pytest.raises(ValueError) as caught:
        calculate("2.5 * x")
    assert "reads no file" not in str(caught.value)


@pytest.mark.parametrize("expression", ["3天后", "now() + 7", "tomorrow"])
def test_a_date_given_to_the_calculator_is_sent_on_to_the_calendar(expression: str) -> None:
    with pytest.raises(Exception, match="looks like a date or a time, which the calendar tool works out"):
        calculate(expression)


def test_other_errors_name_no_calendar() -> None:
    with pytest.raises(Exception) as raised:
        calculate("2 + x")
    assert "calendar" not in str(raised.value)
