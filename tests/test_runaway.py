"""The runaway detector: a reply repeating one short pattern far beyond sense is spotted early; ordinary replies,
long numbers, markdown rules and indented code are not."""

from __future__ import annotations

import json

import pytest

from autoagent.llm.runaway import MIN_RUN_CHARS, RunawayDetector, RunawayGuard, RunawayReplyError


def feed_in_tokens(detector: RunawayDetector, text: str, size: int = 3) -> int | None:
    """Feed `text` in pieces of `size` characters; the number of characters fed when it turned runaway."""
    for start in range(0, len(text), size):
        if detector.feed(text[start:start + size]):
            return start + size
    return None


def test_the_measured_runaway_number_is_stopped_within_a_few_dozen_tokens() -> None:
    reply = '{"thought": {"text": "1234 * 5678 = 79' + "0" * 5000
    detector = RunawayDetector()
    fed = feed_in_tokens(detector, reply, size=1)  # the model writes one digit a token
    assert fed is not None and fed <= reply.index("79") + 2 + MIN_RUN_CHARS + 1
    assert detector.pattern == "0"
    assert detector.trimmed() == '{"thought": {"text": "1234 * 5678 = 79000…'


@pytest.mark.parametrize("pattern", ["ab", " the same", "I will call the calculator now.\n", '"step", '])
def test_a_short_pattern_repeated_on_and_on_is_a_runaway(pattern: str) -> None:
    detector = RunawayDetector()
    assert feed_in_tokens(detector, "Thought: " + pattern * 200) is not None
    assert detector.runaway
    assert len(detector.pattern) == len(pattern)
    assert detector.trimmed().endswith(detector.pattern * 3 + "…")


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps({"thought": {"text": "multiply, then add", "reasoning": "the calculator is exact",
                                "plan": ["multiply", "add 17"], "criticism": "", "speak": ""},
                    "action": {"name": "calculator", "args": {"expression": "1234 * 5678 + 17"}}}),
        "The answer is " + "1" + "0" * 60 + ", a googol-ish number.",
        "=" * 80 + "\nReport\n" + "-" * 80 + "\n",
        "def f():\n" + "    " * 12 + "return 1\n",
        "| a | b |\n|---|---|\n" + "".join(f"| {i} | {i * i} |\n" for i in range(30)),
        "Final Answer: " + ", ".join(str(n) for n in range(100)),
        "ha" * 20 + " that is funny",
    ],
)
def test_ordinary_replies_are_not_runaways(reply: str) -> None:
    detector = RunawayDetector()
    assert feed_in_tokens(detector, reply) is None
    assert detector.trimmed() == reply


def test_a_pattern_longer_than_the_window_is_left_to_the_token_cap() -> None:
    line = "".join(chr(ord("a") + i % 26) for i in range(100)) + "\n"
    assert feed_in_tokens(RunawayDetector(), line * 20) is None


def test_the_guard_raises_with_the_trimmed_text_and_starts_afresh_for_each_attempt() -> None:
    guard = RunawayGuard()
    with pytest.raises(RunawayReplyError) as raised:
        for _ in range(300):
            guard.on_llm_new_token("0")
    assert raised.value.pattern == "0"
    assert raised.value.text == "000…"
    assert "repeating '0'" in str(raised.value)
    guard.on_chat_model_start({}, [])
    guard.on_llm_new_token("fine")
    assert guard.detector.text == "fine"
