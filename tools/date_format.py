"""How the date tools write a day, a moment and a span: the leaf every date module shares."""

from __future__ import annotations

from datetime import date, datetime

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def format_day(day: date) -> str:
    """'2024-01-12 (Friday)'."""
    return f"{day.isoformat()} ({WEEKDAYS[day.weekday()]})"


def format_moment(moment: datetime) -> str:
    """'2024-01-12T15:00 (Friday)'."""
    return f"{moment.isoformat(timespec='minutes')} ({WEEKDAYS[moment.weekday()]})"


def format_span(first: str, last: str) -> str:
    """'from <first> to <last>', both already formatted."""
    return f"from {first} to {last}"
