"""Retrying model calls: classification, backoff, Retry-After, and the real ChatOpenAI against a fake server."""

from __future__ import annotations

import logging
import socket
import time
from email.utils import formatdate
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import Field

from autoagent.commands import exit_codes
from autoagent.errors import ConfigurationError, ModelUnavailableError
from autoagent.llm.call import invoke_model
from autoagent.llm.retry import (
    RetriesExhaustedError,
    RetryPolicy,
    call_with_retries,
    failure_reason,
    is_retryable,
    retry_after,
)
from autoagent.steps import Usage

from .fake_openai import Error, FakeOpenAI, Hold, Text, ToolCalls, embedding_vector
from .scripted import ScriptedChatModel, act


class StatusError(Exception):
    """An API error as SDKs raise them: a status code and a response with headers."""

    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"status {status}")
        self.status_code = status
        self.response = SimpleNamespace(headers=headers or {})


class Recorder:
    """An injectable sleep and on_retry that remember what they were given."""

    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.lines: list[str] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def policy(self, **overrides: Any) -> RetryPolicy:
        settings: dict[str, Any] = {"base_delay": 1.0, "jitter": 0.0, "sleep": self.sleep, **overrides}
        return RetryPolicy(**settings)


def failing(*errors: Exception, result: str = "ok") -> tuple[list[int], Any]:
    """A function that raises `errors` one per call, then returns `result`; and its call counter."""
    calls = [0]

    def fn() -> str:
        calls[0] += 1
        if calls[0] <= len(errors):
            raise errors[calls[0] - 1]
        return result

    return calls, fn


# --- classification ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504, 529])
def test_rate_limits_and_server_errors_are_retried(status: int) -> None:
    assert is_retryable(StatusError(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422])
def test_client_errors_are_not_retried(status: int) -> None:
    assert not is_retryable(StatusError(status))


@pytest.mark.parametrize("err", [ConnectionResetError("reset"), BrokenPipeError("gone")])
def test_dropped_connections_are_retried(err: Exception) -> None:
    assert is_retryable(err)


@pytest.mark.parametrize("err", [TimeoutError("slow"), ConnectionRefusedError(), socket.gaierror(-2, "unknown")])
def test_timeouts_and_servers_that_are_not_there_are_not_retried(err: Exception) -> None:
    assert not is_retryable(err)


@pytest.mark.parametrize("err", [ValueError("bad"), AssertionError("bug"), ConfigurationError("no key")])
def test_our_bugs_and_settings_are_not_retried(err: Exception) -> None:
    assert not is_retryable(err)


def test_sdk_connection_errors_are_retried_but_not_timeouts_or_refusals() -> None:
    import httpx2
    import openai

    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    assert is_retryable(openai.APIConnectionError(request=request))
    assert not is_retryable(openai.APITimeoutError(request))
    assert is_retryable(httpx2.ReadError("connection reset", request=request))
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except ConnectionRefusedError as refused:
            raise httpx2.ConnectError("[Errno 111] Connection refused", request=request) from refused
    except httpx2.ConnectError as connect:
        refusal = openai.APIConnectionError(request=request)
        refusal.__cause__ = connect
    assert not is_retryable(refusal)
    assert failure_reason(refusal) == "connection refused"
    response = httpx2.Response(401, request=request)
    assert not is_retryable(openai.AuthenticationError("refused", response=response, body=None))


def test_failure_reason_names_the_status() -> None:
    assert failure_reason(StatusError(429)) == "429 Too Many Requests"
    assert failure_reason(StatusError(599)) == "599"
    assert failure_reason(TimeoutError()) == "timed out"
    assert failure_reason(ConnectionResetError("peer reset")) == "ConnectionResetError: peer reset"


# --- backoff and Retry-After -------------------------------------------------------------------------


def test_backoff_doubles_up_to_the_cap() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.0)
    assert [policy.delay(n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_jitter_only_stretches_within_the_cap() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=3.0, jitter=0.5)
    delays = [policy.delay(1) for _ in range(200)]
    assert all(1.0 <= delay <= 1.5 for delay in delays) and len(set(delays)) > 1
    assert all(policy.delay(2) <= 3.0 for _ in range(50))


def test_base_delay_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_RETRY_BASE_DELAY", "0.25")
    assert RetryPolicy(jitter=0.0).delay(1) == 0.25
    monkeypatch.setenv("AUTOAGENT_RETRY_BASE_DELAY", "soon")
    assert RetryPolicy(jitter=0.0).delay(1) == 1.0
    monkeypatch.delenv("AUTOAGENT_RETRY_BASE_DELAY")
    assert RetryPolicy(jitter=0.0).delay(2) == 2.0


def test_retry_after_forms() -> None:
    assert retry_after(StatusError(429, {"retry-after": "3"})) == 3.0
    assert retry_after(StatusError(429, {"retry-after-ms": "1500", "retry-after": "9"})) == 1.5
    in_ten_seconds = retry_after(StatusError(503, {"retry-after": formatdate(__import__("time").time() + 10)}))
    assert in_ten_seconds is not None and 8.0 <= in_ten_seconds <= 10.0
    assert retry_after(StatusError(429, {"retry-after": "whenever"})) is None
    assert retry_after(StatusError(429)) is None
    assert retry_after(ValueError()) is None


def test_retry_after_wins_over_backoff_but_not_over_the_cap() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.0)
    assert policy.delay(1, StatusError(429, {"retry-after": "3"})) == 3.0
    assert policy.delay(1, StatusError(429, {"retry-after": "120"})) == 5.0
    assert policy.delay(2, StatusError(429, {"retry-after": "nonsense"})) == 2.0


def test_a_policy_needs_an_attempt() -> None:
    with pytest.raises(ValueError, match="at least one attempt"):
        RetryPolicy(attempts=0)


# --- call_with_retries ------------------------------------------------------------------------------


def test_transient_failures_are_retried_and_reported() -> None:
    recorder = Recorder()
    calls, fn = failing(StatusError(429), StatusError(503))
    assert call_with_retries(fn, recorder.policy(), recorder.lines.append) == "ok"
    assert calls == [3] and recorder.sleeps == [1.0, 2.0]
    assert recorder.lines == [
        "model call failed (429 Too Many Requests); retrying in 1.0 s (attempt 2 of 4)",
        "model call failed (503 Service Unavailable); retrying in 2.0 s (attempt 3 of 4)",
    ]


def test_a_lasting_failure_exhausts_the_attempts() -> None:
    recorder = Recorder()
    calls, fn = failing(*[StatusError(500)] * 10)
    with pytest.raises(RetriesExhaustedError) as caught:
        call_with_retries(fn, recorder.policy(attempts=3), recorder.lines.append)
    assert calls == [3] and recorder.sleeps == [1.0, 2.0] and len(recorder.lines) == 2
    assert caught.value.attempts == 3 and caught.value.error.status_code == 500  # type: ignore[attr-defined]
    assert "500 Internal Server Error (3 attempts over" in str(caught.value)


def test_a_lasting_error_raises_at_once() -> None:
    recorder = Recorder()
    calls, fn = failing(StatusError(401))
    with pytest.raises(StatusError):
        call_with_retries(fn, recorder.policy(), recorder.lines.append)
    assert calls == [1] and recorder.sleeps == [] and recorder.lines == []


def test_retries_are_logged_without_on_retry(caplog: pytest.LogCaptureFixture) -> None:
    recorder = Recorder()
    _, fn = failing(ConnectionResetError())
    with caplog.at_level(logging.WARNING, logger="autoagent"):
        assert call_with_retries(fn, recorder.policy()) == "ok"
    assert "model call failed (ConnectionResetError); retrying in 1.0 s (attempt 2 of 4)" in caplog.messages


# --- invoke_model --------------------------------------------------------------------------------


class FlakyModel(ScriptedChatModel):
    """A scripted model whose first calls raise the given errors."""

    errors: list[Exception] = Field(default_factory=list)

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        if self.errors:
            raise self.errors.pop(0)
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_invoke_model_retries_and_counts_one_call() -> None:
    recorder = Recorder()
    model = FlakyModel(replies=["hello"], errors=[ConnectionResetError("reset by peer")])
    usage = Usage()
    reply = invoke_model(model, [HumanMessage("hi")], usage, retry=recorder.policy(), on_retry=recorder.lines.append)
    assert reply.text == "hello" and usage.calls == 1 and recorder.sleeps == [1.0]
    assert recorder.lines == [
        "model call failed (ConnectionResetError: reset by peer); retrying in 1.0 s (attempt 2 of 4)"
    ]


def test_invoke_model_without_a_policy_tries_once() -> None:
    model = FlakyModel(replies=["hello"], errors=[TimeoutError("server timed out")])
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_model(model, [HumanMessage("hi")], Usage(), retry=None)
    assert str(caught.value).startswith("the model call failed: TimeoutError: server timed out")
    assert "gave up" not in str(caught.value)


def test_invoke_model_lets_our_errors_through() -> None:
    recorder = Recorder()
    model = FlakyModel(replies=[], errors=[ConfigurationError("no key")])
    with pytest.raises(ConfigurationError, match="no key"):
        invoke_model(model, [HumanMessage("hi")], Usage(), None, retry=recorder.policy())
    assert recorder.sleeps == []


# --- the real ChatOpenAI against a fake server ----------------------------------------------------------


def openai_model(fake: FakeOpenAI) -> BaseChatModel:
    from autoagent.llm import load_chat_model

    return load_chat_model("openai:gpt-4o-mini", base_url=fake.base_url)


def test_429_then_200_succeeds_on_the_second_request(fake_openai: FakeOpenAI) -> None:
    recorder = Recorder()
    fake_openai.script(Error(429, "slow down"), Text("hello", prompt_tokens=7, completion_tokens=1))
    usage = Usage()
    reply = invoke_model(openai_model(fake_openai), [HumanMessage("hi")], usage, retry=recorder.policy(),
                         on_retry=recorder.lines.append)
    assert reply.text == "hello"
    assert len(fake_openai.chat_requests) == 2 and recorder.sleeps == [1.0]
    assert recorder.lines == ["model call failed (429 Too Many Requests); retrying in 1.0 s (attempt 2 of 4)"]
    assert (usage.calls, usage.input_tokens, usage.output_tokens) == (1, 7, 1)
    assert fake_openai.chat_requests[0].body["messages"] == [{"role": "user", "content": "hi"}]


def test_500_forever_names_the_status_and_the_attempts(fake_openai: FakeOpenAI) -> None:
    recorder = Recorder()
    fake_openai.when_done = "repeat"
    fake_openai.script(Error(500, "the GPUs are on fire"))
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(), retry=recorder.policy())
    message = str(caught.value)
    assert message.startswith("the model call failed: 500 Internal Server Error: the GPUs are on fire")
    assert "gave up after 4 attempts over" in message and "\n" not in message
    assert len(fake_openai.chat_requests) == 4 and recorder.sleeps == [1.0, 2.0, 4.0]


def test_a_refused_key_is_not_retried(fake_openai: FakeOpenAI) -> None:
    recorder = Recorder()
    fake_openai.script(Error(401, "Incorrect API key provided: sk-wrong."), "never reached")
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(), retry=recorder.policy())
    assert "401 Unauthorized: Incorrect API key provided" in str(caught.value)
    assert "the server refused the API key: check OPENAI_API_KEY" in str(caught.value)
    assert len(fake_openai.chat_requests) == 1 and recorder.sleeps == []


def test_retry_after_is_honoured_within_the_cap(fake_openai: FakeOpenAI) -> None:
    recorder = Recorder()
    fake_openai.script(Error(429, retry_after=3), Error(429, retry_after=60), "at last")
    reply = invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(),
                         retry=recorder.policy(max_delay=10.0))
    assert reply.text == "at last" and recorder.sleeps == [3.0, 10.0]


def test_retry_after_really_waits(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Error(503, retry_after=0.3), "ok")
    policy = RetryPolicy(base_delay=0.0, max_delay=0.2)  # the real sleep; the cap shortens the server's 0.3 s
    assert invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(), retry=policy).text == "ok"
    first, second = fake_openai.chat_requests
    assert 0.19 <= second.received - first.received < 2.0


def test_a_timed_out_request_is_not_sent_again(fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_REQUEST_TIMEOUT", "0.3")
    recorder = Recorder()
    fake_openai.script(Hold(), "never asked for")
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(), retry=recorder.policy(),
                     on_retry=recorder.lines.append)
    assert len(fake_openai.chat_requests) == 1 and recorder.lines == []
    assert "not sent again, as the server may still be working on it" in str(caught.value)
    assert "AUTOAGENT_REQUEST_TIMEOUT" in str(caught.value)


def unused_port() -> int:
    """A loopback port with nothing listening."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_server_that_is_not_there_is_named_at_once() -> None:
    recorder = Recorder()
    port = unused_port()
    from autoagent.llm import load_chat_model

    model = load_chat_model("openai:m", base_url=f"http://127.0.0.1:{port}/v1")
    started = time.monotonic()
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_model(model, [HumanMessage("hi")], Usage(), retry=recorder.policy(attempts=3))
    assert time.monotonic() - started < 2.0
    assert str(caught.value) == (
        f"the model call failed: connection refused at http://127.0.0.1:{port}/v1/chat/completions "
        "(is the server running? check --base-url / OPENAI_BASE_URL)")
    assert recorder.sleeps == []


def test_the_memory_embeddings_of_a_server_that_is_not_there_fail_at_once() -> None:
    from autoagent.llm.embeddings import load_embeddings

    embeddings = load_embeddings("openai:m", base_url=f"http://127.0.0.1:{unused_port()}/v1")
    started = time.monotonic()
    with pytest.raises(Exception, match="Connection"):
        embeddings.embed_query("a task")
    assert time.monotonic() - started < 2.0


def test_the_request_timeout_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.llm.remote import request_timeout

    assert request_timeout() == 120.0
    monkeypatch.setenv("AUTOAGENT_REQUEST_TIMEOUT", "30")
    assert request_timeout() == 30.0
    for bad in ("0", "-1", "soon", "nan"):
        monkeypatch.setenv("AUTOAGENT_REQUEST_TIMEOUT", bad)
        with pytest.raises(ConfigurationError, match="AUTOAGENT_REQUEST_TIMEOUT"):
            request_timeout()


def test_the_sdk_does_not_retry_behind_our_back(fake_openai: FakeOpenAI) -> None:
    fake_openai.when_done = "repeat"
    fake_openai.script(Error(500))
    with pytest.raises(ModelUnavailableError):
        invoke_model(openai_model(fake_openai), [HumanMessage("hi")], Usage(), retry=None)
    assert len(fake_openai.chat_requests) == 1


# --- the fake server itself -------------------------------------------------------------------------


def test_fake_server_tool_calls_models_and_embeddings(fake_openai: FakeOpenAI) -> None:
    import httpx2

    fake_openai.script(ToolCalls(("calculator", {"expression": "2+2"})))
    reply = openai_model(fake_openai).invoke("add")
    assert reply.tool_calls[0]["name"] == "calculator"
    assert reply.tool_calls[0]["args"] == {"expression": "2+2"}
    assert httpx2.get(f"{fake_openai.base_url}/models").json()["data"][0]["id"] == "fake-model"
    from autoagent.llm.embeddings import load_embeddings

    embeddings = load_embeddings("openai:gpt-4o-mini", base_url=fake_openai.base_url)
    assert embeddings.embed_documents(["a", "b"]) == [embedding_vector("a"), embedding_vector("b")]
    assert embeddings.embed_query("a") == pytest.approx(embedding_vector("a"))
    assert embedding_vector("a") != embedding_vector("b")
    assert len(fake_openai.chat_requests) == 1  # embeddings and models do not use up the script


def test_fake_server_runs_dry_with_500_by_default(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("only one")
    model = openai_model(fake_openai)
    assert model.invoke("a").text == "only one"
    with pytest.raises(Exception, match="script ran out"):
        model.invoke("b")


# --- through the CLI ------------------------------------------------------------------------------


def run_cli(fake: FakeOpenAI, tmp_path: Path) -> Any:
    args = ["--model", "openai:gpt-4o-mini", "--base-url", fake.base_url, "--no-memory",
            "--workspace", str(tmp_path / "workspace"), "What is the answer?"]
    env = {"OPENAI_API_KEY": "test", "AUTOAGENT_RETRY_BASE_DELAY": "0.01"}
    from autoagent.cli import cli

    return CliRunner().invoke(cli, args, env=env, catch_exceptions=False)


def test_cli_rides_out_a_rate_limit_and_says_so(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.script(Error(429, "slow down"), act("FINISH", "done"), act("FINISH", "no tool is needed"), "forty-two")
    result = run_cli(fake_openai, tmp_path)
    assert result.exit_code == exit_codes.OK, result.output
    assert result.stdout == "forty-two\n"
    assert "warning: model call failed (429 Too Many Requests); retrying in" in result.stderr  # via the display
    assert len(fake_openai.chat_requests) == 4


def test_cli_stops_with_one_clear_line_when_the_server_keeps_failing(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.when_done = "repeat"
    fake_openai.script(Error(500, "upstream exploded"))
    result = run_cli(fake_openai, tmp_path)
    assert result.exit_code == exit_codes.ERROR
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [result.stderr.strip().splitlines()[-1]]
    assert errors[0].startswith("Error: the model call failed: 500 Internal Server Error: upstream exploded")
    assert "gave up after 4 attempts" in errors[0]
    assert "Traceback" not in result.stderr
    assert len(fake_openai.chat_requests) == 4
