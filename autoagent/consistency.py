"""Self-consistency: an answer the model gives from what it knows is taken only when the model gives it again.
The run draws a few short answers to the same task from the same results, at a temperature (see
`CheckContext.samples`), and a check accepts the draft only when every one of them agrees with it (or, with
`majority`, when most of the answers do, the draft's among them: the coach's check of an answer to a question).

`self_consistency()` is a check anyone may add (`AgentOptions(checks=[self_consistency()])`); the coach runs the
same test on answers no tool result supports. Two answers agree when what each adds to the request's own words
(its other words and numbers) is part of what the other adds: "Ottawa." agrees with "The capital of Canada is
Ottawa.", and "Toronto." does not. For a value, `agree_on_numbers` compares only the numbers, up to rounding."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .checks import CheckContext, NamedCheck, Verdict

SAMPLES = 2  # short answers drawn beside the draft: three answers in all must agree
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+|[\u3400-\u9fff]", re.UNICODE)  # a number, a word, a Han character
_HAN = re.compile(r"[\u3400-\u9fff]")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _tokens(text: str) -> set[str]:
    """The numbers (without thousands separators), words (lower-cased) and Han characters of `text`."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text).lower()
    tokens: set[str] = set()
    for token in _TOKEN.findall(text):
        tokens.update(_HAN.findall(token) if _HAN.match(token) else [token])
    return tokens


def added(answer: str, task: str) -> set[str]:
    """What `answer` says that the task's own words do not: its other words, numbers and characters."""
    return _tokens(answer) - _tokens(task)


def agree(first: str, second: str, task: str) -> bool:
    """Whether two answers to `task` say the same: what one adds to the request is part of what the other adds."""
    one, other = added(first, task), added(second, task)
    return one <= other or other <= one


def numbers(answer: str, task: str) -> set[str]:
    """The numbers `answer` states that the task's own words do not (as written: "42.50" stays "42.50")."""
    return {token for token in added(answer, task) if _NUMBER.fullmatch(token)}


def same_number(one: str, other: str) -> bool:
    """Two numbers equal, or one the other rounded to as many decimals as it shows ("42.16" and "42.1648")."""
    a, b = sorted((one, other), key=lambda number: len(number.partition(".")[2]))
    places = len(a.partition(".")[2])
    return float(a) == float(b) or (places > 0 and round(float(b), places) == float(a))


def agree_on_numbers(first: str, second: str, task: str) -> bool:
    """Whether two answers to `task` give the same numbers: every number one adds to the request is one the other
    adds, up to rounding ("The total is 42.16." and "42.1648"; not "42.16" and "43"). Answers of which one states
    no number of its own agree as `agree` says."""
    one, other = numbers(first, task), numbers(second, task)
    if not one or not other:
        return agree(first, second, task)
    return (all(any(same_number(a, b) for b in other) for a in one)
            or all(any(same_number(b, a) for a in one) for b in other))


Agreement = Callable[[str, str, str], bool]


def disagreeing(draft: str, samples: Sequence[str], task: str, same: Agreement = agree) -> list[str]:
    """The samples that do not agree with the draft or with each other (empty: all agree)."""
    answers = [draft, *samples]
    return [sample for index, sample in enumerate(samples, start=1)
            if not all(same(sample, answer, task) for answer in answers[:index])]


def consistency_verdict(context: CheckContext, samples: int = SAMPLES, same: Agreement = agree,
                        majority: bool = False) -> Verdict:
    """Accept the draft when `samples` short answers drawn from the same results all agree with it and each
    other (as `same` judges two answers), or with `majority` when most of the answers, the draft's among them,
    agree with it (one sample in two); else stop the run unverified, with the answers shown."""
    draft = context.answer  # written first: the samples are drawn beside it
    drawn = context.samples(samples)
    if not drawn:  # the run cannot draw any (a context built around a given answer): nothing to compare
        return Verdict.accept()
    if majority and 2 * (1 + sum(same(draft, sample, context.task) for sample in drawn)) > len(drawn) + 1:
        return Verdict.accept()
    odd = disagreeing(draft, drawn, context.task, same)
    if not odd:
        return Verdict.accept()
    shown = " | ".join(" ".join(answer.split())[:80] for answer in [draft, *drawn])
    return Verdict.stop(f"the model's answers did not agree: {shown}")


def self_consistency(samples: int = SAMPLES) -> NamedCheck:
    """A check: the draft stands only when `samples` short answers sampled from the same results agree with it."""
    if samples < 1:
        raise ValueError("self_consistency needs at least one sample")
    return NamedCheck("self_consistency", lambda context: consistency_verdict(context, samples))
