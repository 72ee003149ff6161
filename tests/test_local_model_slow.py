"""The real bundled model: assemble the six part packages, load it, and check prefix reuse."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from autoagent.llm.local import ChatLocalLlama

pytestmark = pytest.mark.slow

# ~800 tokens of static instructions, like an agent's system prompt, so prefix reuse is measurable.
LONG_SYSTEM = "You are a careful assistant that answers in one short line.\n" + "\n".join(
    f"Rule {n}: when asked about item {n}, answer with the name of colour number {n % 7} of the rainbow."
    for n in range(1, 41)
)


def _report(line: str) -> None:
    """Print a measurement so `pytest -s` shows it."""
    print(f"\n[measure] {line}", flush=True)


@pytest.fixture(scope="module")
def model(local_weights: Path) -> Iterator[ChatLocalLlama]:
    """A ChatLocalLlama on the bundled weights, already loaded."""
    chat = ChatLocalLlama(model_path=str(local_weights), max_tokens=64)
    started = time.perf_counter()
    chat.llama()
    _report(f"model loaded in {time.perf_counter() - started:.2f} s (n_threads={chat.n_threads})")
    yield chat


def _timed(chat: ChatLocalLlama, messages: list[Any], **kwargs: Any) -> tuple[AIMessage, float]:
    """Invoke the model and return the reply with its wall time."""
    started = time.perf_counter()
    reply = chat.invoke(messages, **kwargs)
    assert isinstance(reply, AIMessage)
    return reply, time.perf_counter() - started


def test_reply_ok_with_usage(model: ChatLocalLlama) -> None:
    reply, seconds = _timed(model, [HumanMessage("Reply with the word OK.")])
    assert str(reply.content).strip()
    usage = reply.usage_metadata
    assert usage is not None and usage["input_tokens"] > 0 and usage["output_tokens"] > 0
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert reply.response_metadata["finish_reason"] in {"stop", "length"}
    _report(f"reply {reply.content!r} in {seconds:.2f} s, usage {usage}")


def test_generation_speed(model: ChatLocalLlama) -> None:
    prompt = [HumanMessage("Write the numbers from 1 to 60 separated by commas.")]
    reply, seconds = _timed(model, prompt, max_tokens=128)
    usage = reply.usage_metadata
    assert usage is not None and usage["output_tokens"] > 20
    _report(f"{usage['output_tokens']} tokens in {seconds:.2f} s = {usage['output_tokens'] / seconds:.1f} tokens/s")


def test_stream_yields_text(model: ChatLocalLlama) -> None:
    chunks = list(model.stream([HumanMessage("Reply with the word OK.")]))
    assert "".join(str(chunk.content) for chunk in chunks).strip()
    assert chunks[-1].response_metadata["finish_reason"] in {"stop", "length"}


def test_shared_prefix_is_not_evaluated_twice(model: ChatLocalLlama, monkeypatch: pytest.MonkeyPatch) -> None:
    llama = model.llama()
    evaluated: list[int] = []
    real_eval = llama.eval

    def counting_eval(tokens: Any) -> None:
        evaluated.append(len(tokens))
        real_eval(tokens)

    monkeypatch.setattr(llama, "eval", counting_eval)
    questions = ["What is item 3?", "What is item 12?"]
    runs = []
    for question in questions:
        evaluated.clear()
        reply, seconds = _timed(model, [SystemMessage(LONG_SYSTEM), HumanMessage(question)], max_tokens=16)
        usage = reply.usage_metadata
        assert usage is not None
        prompt_evals = evaluated[0]  # the first eval is the part of the prompt not already in the KV cache
        runs.append((usage["input_tokens"], prompt_evals, seconds))
        _report(
            f"{question!r}: {usage['input_tokens']} prompt tokens, {prompt_evals} evaluated, "
            f"{usage['output_tokens']} generated, {seconds:.2f} s"
        )
    (first_prompt, _first_evals, first_s), (second_prompt, second_evals, second_s) = runs
    assert first_prompt > 500
    # Deterministic, not a timing: the second call re-evaluates only its differing tail.
    assert second_evals < second_prompt // 10
    _report(f"shared-prefix speedup: first {first_s:.2f} s, second {second_s:.2f} s")


def test_a_token_listener_gets_the_reply_as_it_is_written_with_the_same_usage(model: ChatLocalLlama) -> None:
    from langchain_core.callbacks import BaseCallbackHandler

    class Tokens(BaseCallbackHandler):
        def __init__(self) -> None:
            self.tokens: list[str] = []

        def on_llm_new_token(self, token: str, **kwargs: Any) -> None:
            self.tokens.append(token)

    prompt = [HumanMessage("Write the numbers from 1 to 10 separated by commas.")]
    model.llama().reset()
    plain = model.invoke(prompt)
    listener = Tokens()
    model.llama().reset()
    streamed = model.invoke(prompt, config={"callbacks": [listener]})

    assert len(listener.tokens) > 5 and "".join(listener.tokens) == streamed.content == plain.content
    assert streamed.usage_metadata == plain.usage_metadata
