"""The days a run's calls take: a call that takes a day the request does not give, while it gives one, and that no
result showed, is questioned (a small model writes "2026-11-01" for "20 November 2026"). Language-independent but
for the names of months (words.toml)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ..reply import Action
from ..steps import Step
from .request import read_request
from .verify import Objection
from .written_dates import dates_in, days_of_year


def object_to_unknown_day(action: Action, task: str, steps: Sequence[Step]) -> Objection | None:
    """Why a call is questioned: the request gives a day (with its year or without), and the call takes a date
    that is none of those and that no earlier result showed, nor today. Asked once a run (by the referee);
    the same call again runs (the model may have worked it out)."""
    request = read_request(task).text
    given = days_of_year(request)
    if not given:
        return None
    texts = " ".join(value for value in action.args.values() if isinstance(value, str))
    shown = {day for _, day in dates_in(" ".join(step.observation for step in steps))} | {dt.date.today()}
    unknown = next((written for written, day in dates_in(texts)
                    if (day.month, day.day) not in given and day not in shown), None)
    if unknown is None:
        return None
    days = ", ".join(written for written, _ in dates_in(request)) or ", ".join(f"{m}/{d}" for m, d in sorted(given))
    return Objection("unknown_day", {"day": unknown, "given": days})

