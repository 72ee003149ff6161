"""Budgets a run may spend — wall time, tokens, dollars — with a warning at 80% and a stop at 100%."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..paths import autoagent_home
from ..steps import Usage

logger = logging.getLogger("autoagent")

WARN_AT = 0.8
PRICES_FILE = "prices.json"  # {"model-name": [usd per 1M input tokens, usd per 1M output tokens]}

# USD per million tokens (input, output), from the providers' price pages; a dated variant
# (gpt-4o-mini-2024-07-18) takes its family's price. Extend or override in $AUTOAGENT_HOME/prices.json.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "o3-mini": (1.10, 4.40),
    "gpt-3.5-turbo": (0.50, 1.50),
    "local": (0.0, 0.0),  # the embedded model runs on this machine
}


def load_prices() -> dict[str, tuple[float, float]]:
    """The built-in price table, updated from $AUTOAGENT_HOME/prices.json when that file exists."""
    prices = dict(PRICES)
    path = autoagent_home() / PRICES_FILE
    if path.is_file():
        try:
            for model, (per_input, per_output) in json.loads(path.read_text(encoding="utf-8")).items():
                prices[str(model)] = (float(per_input), float(per_output))
        except (ValueError, TypeError, OSError) as err:
            logger.warning("%s is not a price table (%s); using the built-in prices", path, err)
    return prices


def price_of(model: str, prices: dict[str, tuple[float, float]] | None = None) -> tuple[float, float] | None:
    """USD per million (input, output) tokens for `model`, matching the longest known name it starts with."""
    table = load_prices() if prices is None else prices
    name = model.removeprefix("openai:").strip()
    if name.startswith("local") or name.endswith(".gguf"):  # the embedded model reports its GGUF file's name
        name = "local"
    matches = [known for known in table if name == known or name.startswith(known + "-")]
    return table[max(matches, key=len)] if matches else None


def cost_of(usage: Usage, price: tuple[float, float]) -> float:
    """What `usage` costs at `price` (USD per million input, output tokens)."""
    return (usage.input_tokens * price[0] + usage.output_tokens * price[1]) / 1_000_000


@dataclass(frozen=True)
class Budget:
    """Limits beyond the step count; None means no limit."""

    max_seconds: float | None = None
    max_tokens: int | None = None
    max_cost: float | None = None  # USD; needs the model's price


def tightest(first: Budget, second: Budget) -> Budget:
    """Each limit the lower of the two budgets' (None where neither limits it)."""
    def lower(a: float | None, b: float | None) -> float | None:
        return b if a is None else a if b is None else min(a, b)

    tokens = lower(first.max_tokens, second.max_tokens)
    return Budget(lower(first.max_seconds, second.max_seconds), None if tokens is None else int(tokens),
                  lower(first.max_cost, second.max_cost))


@dataclass
class BudgetGuard:
    """Checks a run against its budget after each step: warns once per budget at 80% (or sooner, when one more
    step like the last would spend it), stops at 100%."""

    budget: Budget
    price: tuple[float, float] | None = None
    warned: set[str] = field(default_factory=set)
    used_before: dict[str, float] = field(default_factory=dict)  # each budget's use at the previous check

    def spent(self, usage: Usage, seconds: float) -> dict[str, tuple[float, float, str]]:
        """Each limited budget: (used, limit, flag name)."""
        spent: dict[str, tuple[float, float, str]] = {}
        if self.budget.max_seconds is not None:
            spent["time"] = (seconds, self.budget.max_seconds, "--max-seconds")
        if self.budget.max_tokens is not None:
            spent["tokens"] = (usage.total_tokens, self.budget.max_tokens, "--max-tokens")
        if self.budget.max_cost is not None and usage.cost_usd is not None:
            spent["cost"] = (usage.cost_usd, self.budget.max_cost, "--max-cost")
        return spent

    def check(self, usage: Usage, seconds: float) -> tuple[list[str], str | None]:
        """Warnings due now (each budget once), and why the run must stop (None: it may go on)."""
        warnings: list[str] = []
        for name, (used, limit, flag) in self.spent(usage, seconds).items():
            last_step, self.used_before[name] = used - self.used_before.get(name, 0.0), used
            if used >= limit:
                return warnings, f"{flag} {_amount(name, limit)} reached ({_amount(name, used)} used)"
            if name not in self.warned and (used >= WARN_AT * limit or used + last_step >= limit):
                self.warned.add(name)
                soon = "" if used >= WARN_AT * limit else "; one more step like the last would spend it"
                warnings.append(f"{round(100 * used / limit)}% of {flag} {_amount(name, limit)} used "
                                f"({_amount(name, used)}){soon}; the run stops at 100%")
        return warnings, None

    def price_note(self) -> str | None:
        """A warning when --max-cost cannot be enforced because the model's price is unknown."""
        if self.budget.max_cost is not None and self.price is None:
            return (f"--max-cost is not enforced: this model's price is unknown (add it to "
                    f"{autoagent_home() / PRICES_FILE})")
        return None


@dataclass
class Spending:
    """What one run spends against its budget, and the spending of the run that called it as a sub-agent: a
    sub-agent's tokens, cost and time count against every caller's budget too."""

    guard: BudgetGuard
    usage: Usage
    started: float  # time.monotonic() at the run's start
    caller: Spending | None = None

    def check(self, below: Sequence[Usage] = ()) -> tuple[list[str], str | None]:
        """Warnings due now, and why the run must stop (None: it may go on), by this run's budget or a caller's;
        `below` is the usage of the sub-agents running under this run, not charged to it yet."""
        total = replace(self.usage)
        for usage in below:
            total.absorb(usage)
        warnings, spent = self.guard.check(total, time.monotonic() - self.started)
        if spent is not None or self.caller is None:
            return warnings, spent
        more, spent = self.caller.check([self.usage, *below])
        return warnings + more, spent


def _amount(name: str, value: float) -> str:
    """A budget amount for people: seconds, a token count, or dollars."""
    if name == "time":
        return f"{value:.1f} s"
    if name == "tokens":
        return f"{int(value):,} tokens"
    return f"${value:.4f}"

