"""A change the request asks for, as the model itself reads it: where the word lists (words.toml) find no verb of
change in the request and no call changed the workspace, the model is asked at a finish whether the task asks for a
change (asks_for_change.templ, CHANGE_VOTES replies sampled); most saying yes makes the finish unearned: sent back
once to make the change, then the run ends unverified."""

from __future__ import annotations

from collections.abc import Sequence

from ..checks import CheckContext, Verdict
from ..prompts import PromptTemplateBuilder
from ..steps import ran
from .request import read_request
from .words import any_of, words

CHANGE_VOTES = 3  # replies drawn: a majority of them decides
_YES = any_of(words("reply.yes"))


def says_yes(reply: str) -> bool:
    """Whether a reply to a yes-or-no question begins with yes, in any language listed ("Yes.", "是的")."""
    return bool(_YES.match(reply.strip().strip("*\"'`").strip()))


def unmade_change(context: CheckContext, writers: Sequence[str], prompts: PromptTemplateBuilder,
                  raised: set[str]) -> Verdict | None:
    """A send-back (once a run, with `raised` keeping that) and then a stop for a finish of a task that asks for a
    change in the workspace, as most of the model's replies say, when no call of a tool of `writers` has worked;
    None where the word lists already read a change in the request (the referee judges it), a change was made,
    the model says no, or no reply can be drawn."""
    if not writers or read_request(context.task).names_change:
        return None
    if any(step.success and step.action is not None and step.action.name in writers for step in ran(context.steps)):
        return None
    replies = context.ask(prompts.render("asks_for_change").strip(), CHANGE_VOTES)
    if 2 * sum(says_yes(reply) for reply in replies) <= len(replies):
        return None
    if "no_change" in raised:
        return Verdict.stop("the model reads the request as asking for a change in the workspace, and no step "
                            "made one")
    raised.add("no_change")
    return Verdict.send_back(prompts.render("no_change", tools=", ".join(writers)).strip())
