"""Every model call is bounded: a token cap per use, sent the way servers read it; a reply cut at the cap or stopped
as a runaway is an unreadable step, for a server (through the real ChatOpenAI) and for the embedded model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from langchain_core.messages import AIMessage, HumanMessage

from autoagent.commands import exit_codes
from autoagent.llm import local
from autoagent.llm.call import invoke_model
from autoagent.llm.local import ChatLocalLlama
from autoagent.llm.reply_caps import DEFAULT_STEP_TOKENS, ReplyCaps, takes_max_tokens
from autoagent.steps import Usage

from .fake_openai import Error, FakeOpenAI, Text
from .scripted import ScriptedChatModel, act

RUNAWAY = '{"thought": "1234 * 5678 = 79' + "0" * 3000


def server_model(fake: FakeOpenAI) -> Any:
    from autoagent.llm import load_chat_model

    return load_chat_model("openai:qwen", base_url=fake.base_url)


def run_cli(fake: FakeOpenAI, tmp_path: Path, *extra: str) -> Any:
    from autoagent.cli import cli

    args = ["--model", "openai:qwen", "--base-url", fake.base_url, "--no-memory", "--max-steps", "3",
            "--workspace", str(tmp_path / "workspace"), *extra, "What is 2 + 2?"]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_a_server_request_carries_the_cap_under_both_names_and_streams(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("hello", "again")
    model = server_model(fake_openai)
    assert invoke_model(model, [HumanMessage("hi")], Usage()).text == "hello"
    invoke_model(model, [HumanMessage("hi")], Usage(), reply_tokens=77)
    first, second = (request.body for request in fake_openai.chat_requests)
    assert (first["max_tokens"], first["max_completion_tokens"]) == (DEFAULT_STEP_TOKENS, DEFAULT_STEP_TOKENS)
    assert (second["max_tokens"], second["max_completion_tokens"]) == (77, 77)
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}


def test_openai_itself_gets_only_max_completion_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    from autoagent.llm import load_chat_model

    model = load_chat_model("openai:gpt-4o-mini")
    assert type(model).__name__ == "ChatOpenAI"
    body = model._get_request_payload([HumanMessage("hi")], max_tokens=50)  # type: ignore[attr-defined]
    assert body["max_completion_tokens"] == 50 and "max_tokens" not in body


def test_the_cli_caps_steps_and_the_answer_from_the_flag(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.script(act("calculator", expression="2 + 2"), act("FINISH"), "4")
    result = run_cli(fake_openai, tmp_path, "--max-reply-tokens", "64")
    assert result.exit_code == exit_codes.OK, result.output
    assert [request.body["max_tokens"] for request in fake_openai.chat_requests] == [64, 64, 128]


def test_the_cap_comes_from_the_environment_too(fake_openai: FakeOpenAI, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_MAX_REPLY_TOKENS", "99")
    fake_openai.script(act("calculator", expression="2 + 2"), act("FINISH"), "4")
    assert run_cli(fake_openai, tmp_path).exit_code == exit_codes.OK
    assert [request.body["max_tokens"] for request in fake_openai.chat_requests] == [99, 99, 198]


def test_a_reply_cut_at_the_cap_is_unreadable_however_it_parses(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    cut = Text(act("calculator", expression="2 + 2"), finish_reason="length")  # parses, but its end is missing
    fake_openai.script(cut, act("calculator", expression="2 + 2"), act("FINISH"), "4")
    result = run_cli(fake_openai, tmp_path, "--json")
    assert result.exit_code == exit_codes.OK, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [step["kind"] for step in steps] == ["parse_error", "action", "finish"]
    assert "cut off at its length limit" in steps[0]["observation"]


def test_a_runaway_reply_from_a_server_is_stopped_early(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    fake_openai.script(Text(RUNAWAY, piece=1, pause=0.001), act("calculator", expression="2 + 2"), act("FINISH"),
                       "4")
    result = run_cli(fake_openai, tmp_path, "--json")
    assert result.exit_code == exit_codes.OK, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [step["kind"] for step in steps] == ["parse_error", "action", "finish"]
    assert "kept repeating itself" in steps[0]["observation"]
    assert fake_openai.chunks_sent < 400  # of 3,000: the client closed the stream, which stops a real server
    assert "RunawayReplyError" not in result.stderr


def test_a_refused_json_schema_falls_back_to_the_llama_cpp_form_once(fake_openai: FakeOpenAI) -> None:
    refusal = Error(500, "1 validation error: body.response_format.type: Input should be 'text' or 'json_object'")
    fake_openai.script(refusal, "{}", "{}")
    model = server_model(fake_openai).held_to_json_schema({"type": "object"})
    invoke_model(model, [HumanMessage("a")], Usage(), retry=None)
    invoke_model(model, [HumanMessage("b")], Usage(), retry=None)
    forms = [request.body["response_format"] for request in fake_openai.chat_requests]
    assert forms[0]["type"] == "json_schema" and forms[0]["json_schema"]["schema"] == {"type": "object"}
    assert forms[1:] == [{"type": "json_object", "schema": {"type": "object"}}] * 2  # remembered


def test_models_without_a_max_tokens_field_are_left_alone() -> None:
    scripted = ScriptedChatModel(replies=["ok"])
    assert not takes_max_tokens(scripted)
    assert invoke_model(scripted, [HumanMessage("hi")], Usage()).text == "ok"
    assert takes_max_tokens(ChatLocalLlama(model_path="/m/fake.gguf").bind(stop=["x"]))


def test_reply_caps_per_use() -> None:
    assert (ReplyCaps().step, ReplyCaps().answer) == (DEFAULT_STEP_TOKENS, 2 * DEFAULT_STEP_TOKENS)
    assert ReplyCaps.from_setting(None) == ReplyCaps() and ReplyCaps.from_setting(100).answer == 200
    with pytest.raises(ValueError):
        ReplyCaps(0)


# --- the embedded model -------------------------------------------------------------------------------


class StreamingLlama:
    """A Llama that streams `pieces` one a chunk, and counts what it was asked and how far it got."""

    def __init__(self, pieces: list[str]) -> None:
        self.pieces, self.calls, self.sent, self.closed = pieces, [], 0, False
        self.n_tokens = 0

    def tokenize(self, text: bytes, add_bos: bool = False) -> list[int]:
        return list(range(len(text.split())))

    def create_chat_completion(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        self.calls.append(kwargs)
        return self._chunks()

    def _chunks(self) -> Iterator[dict[str, Any]]:
        try:
            for piece in self.pieces:
                self.sent += 1
                yield {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
            yield {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}
        finally:
            self.closed = True


@pytest.fixture
def streaming_llama(monkeypatch: pytest.MonkeyPatch) -> list[StreamingLlama]:
    made: list[StreamingLlama] = []
    monkeypatch.setattr(local, "_open_llama", lambda *_: made[-1])
    monkeypatch.setattr(ChatLocalLlama, "prefix_snapshots", lambda self: _NoSnapshots())
    return made


class _NoSnapshots:
    def before_call(self, *_: Any) -> None:
        pass

    def after_call(self, *_: Any) -> None:
        pass


def test_the_embedded_model_takes_the_cap_and_stops_a_runaway(streaming_llama: list[StreamingLlama]) -> None:
    llama = StreamingLlama(list(RUNAWAY))
    streaming_llama.append(llama)
    local._MODELS.clear()
    model = ChatLocalLlama(model_path="/m/runaway.gguf")
    reply = invoke_model(model.bind(tools=[]), [HumanMessage("hi")], Usage(), reply_tokens=300)
    assert llama.calls[0]["max_tokens"] == 300 and llama.calls[0]["stream"] is True
    assert isinstance(reply, AIMessage) and reply.response_metadata["finish_reason"] == "runaway"
    assert reply.text == '{"thought": "1234 * 5678 = 79000…'
    assert llama.sent < 200 and llama.closed  # stopped where it was spotted, the generator closed at once
    local._MODELS.clear()


def test_a_cut_embedded_reply_says_length(streaming_llama: list[StreamingLlama]) -> None:
    llama = StreamingLlama(["a", " b"])
    streaming_llama.append(llama)
    local._MODELS.clear()
    reply = invoke_model(ChatLocalLlama(model_path="/m/cut.gguf"), [HumanMessage("hi")], Usage(), reply_tokens=2)
    assert reply.text == "a b" and reply.response_metadata["finish_reason"] == "length"
    local._MODELS.clear()


def test_no_json_schema_leaves_a_servers_replies_free(fake_openai: FakeOpenAI, tmp_path: Path) -> None:
    from autoagent.llm.constrained import bind_json_schema
    from autoagent.settings import Settings, build_agent

    def agent_llm(**options: Any) -> Any:
        settings = Settings(model="openai:qwen", base_url=fake_openai.base_url, use_memory=False,
                            workspace=tmp_path, **options)
        return build_agent(settings).llm

    assert bind_json_schema(agent_llm(), {"type": "object"}) is not None
    assert bind_json_schema(agent_llm(json_schema=False), {"type": "object"}) is None


def test_thoughts_auto_is_compact_for_a_nearby_server_and_full_for_a_hosted_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.llm.profile import ModelProfile

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    llm = ScriptedChatModel(replies=[])
    assert ModelProfile.of(llm, "local", None).nearby
    for nearby in ("http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "http://192.168.1.20:8000/v1",
                   "http://gpu-box:8000/v1", "http://10.0.0.5/v1"):
        assert ModelProfile.of(llm, "openai:qwen", nearby).nearby, nearby
    for hosted in (None, "https://api.openai.com/v1", "https://openrouter.ai/api/v1"):
        assert not ModelProfile.of(llm, "openai:gpt-4o-mini", hosted).nearby, hosted


def test_a_tool_call_written_as_text_by_the_server_is_read_as_a_call(fake_openai: FakeOpenAI) -> None:
    fake_openai.script('{"name": "calculator", "arguments": {"expression": "2+2"}}', "no call here")
    from langchain_core.tools import tool

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        return expression

    model = server_model(fake_openai).bind_tools([calculator])
    reply = invoke_model(model, [HumanMessage("2+2?")], Usage())
    assert isinstance(reply, AIMessage)
    assert [(call["name"], call["args"]) for call in reply.tool_calls] == [("calculator", {"expression": "2+2"})]
    other = invoke_model(model, [HumanMessage("hi")], Usage())
    assert isinstance(other, AIMessage) and other.tool_calls == [] and other.text == "no call here"
    # one call a reply: the server stops where a second call written as text would begin
    assert all(request.body["stop"] == ["}\n{", "}\n\n{"] for request in fake_openai.chat_requests)
