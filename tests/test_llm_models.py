"""Model specs, the default spec, the OpenAI-compatible path and ChatLocalLlama over a fake Llama."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool

from autoagent.errors import ConfigurationError, ModelUnavailableError
from autoagent.llm import default_model_spec, load_chat_model, local
from autoagent.llm.llama_messages import to_chat_messages
from autoagent.llm.local import ChatLocalLlama


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No real environment, no home directory, no network, no shared loaded models."""
    monkeypatch.setenv("AUTOAGENT_HOME", str(tmp_path / "home"))
    for name in ("AUTOAGENT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a unit test tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(local, "_MODELS", {})


# --- default spec -------------------------------------------------------------------------------


def test_default_spec_is_local_without_key() -> None:
    assert default_model_spec() == "local"


def test_default_spec_is_openai_with_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert default_model_spec() == "openai:gpt-4o-mini"


def test_autoagent_model_env_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("AUTOAGENT_MODEL", "local:/models/x.gguf")
    assert default_model_spec() == "local:/models/x.gguf"


# --- spec errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["gpt-4o", "anthropic:claude", "", "LOCAL"])
def test_unknown_spec_lists_accepted_forms(spec: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        load_chat_model(spec)
    message = str(caught.value)
    assert "openai:<model>" in message and "local:/path/to/model.gguf" in message
    assert "\n" not in message


def test_openai_without_key_or_base_url_names_the_fix() -> None:
    with pytest.raises(ConfigurationError) as caught:
        load_chat_model("openai:gpt-4o-mini")
    assert "set OPENAI_API_KEY in api_keys.env or the environment, or use --model local" in str(caught.value)


def test_openai_needs_a_model_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with pytest.raises(ConfigurationError, match="model name"):
        load_chat_model("openai:")


def test_base_url_with_local_spec_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="openai:<model>"):
        load_chat_model("local", base_url="http://127.0.0.1:8000/v1")


# --- OpenAI-compatible ----------------------------------------------------------------------------


def test_openai_spec_with_base_url_needs_no_key() -> None:
    model = load_chat_model("openai:qwen2.5-coder", base_url="http://127.0.0.1:11434/v1")
    assert type(model).__name__ == "ChatOpenAICompatible"  # a ChatOpenAI that also sends max_tokens
    assert model.model_name == "qwen2.5-coder"  # type: ignore[attr-defined]
    assert model.openai_api_base == "http://127.0.0.1:11434/v1"  # type: ignore[attr-defined]
    assert model.openai_api_key.get_secret_value() == "not-needed"  # type: ignore[attr-defined]
    assert model.temperature == 0  # type: ignore[attr-defined]


def test_openai_base_url_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    model = load_chat_model("openai:local-model")
    assert model.openai_api_base == "http://127.0.0.1:8000/v1"  # type: ignore[attr-defined]


def test_openai_default_spec_uses_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    model = load_chat_model()
    assert model.model_name == "gpt-4o-mini"  # type: ignore[attr-defined]
    assert model.openai_api_key.get_secret_value() == "sk-test"  # type: ignore[attr-defined]
    assert not model.openai_api_base  # type: ignore[attr-defined]


# --- local specs ----------------------------------------------------------------------------------


def test_local_without_llama_cpp_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(ModelUnavailableError, match=r"pip install 'autoagent\[local\]'"):
        load_chat_model("local")


def test_local_path_that_does_not_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(local, "llama_cpp_installed", lambda: True)
    with pytest.raises(ModelUnavailableError, match=r"missing\.gguf"):
        load_chat_model(f"local:{tmp_path / 'missing.gguf'}")


def test_local_path_builds_a_lazy_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(local, "llama_cpp_installed", lambda: True)
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")
    model = load_chat_model(f"local:{gguf}")
    assert isinstance(model, ChatLocalLlama)
    assert model.model_path == str(gguf)
    assert model.temperature == 0.0 and model.n_ctx == 4096
    assert local._MODELS == {}  # nothing loaded until the first call


def test_local_default_uses_the_bundled_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from autoagent.llm import weights

    monkeypatch.setattr(local, "llama_cpp_installed", lambda: True)
    bundled = tmp_path / "bundled.gguf"
    chosen: list[str] = []
    monkeypatch.setattr(weights, "ensure_weights", lambda model, progress=None: chosen.append(model.name) or bundled)
    model = load_chat_model("local")
    assert isinstance(model, ChatLocalLlama) and model.model_path == str(bundled)
    assert chosen == [weights.default_chat_model().name]  # the largest bundled model installed here


# --- ChatLocalLlama over a fake Llama -------------------------------------------------------------


class FakeLlama:
    """Records create_chat_completion calls and answers like llama-cpp-python does."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def create_chat_completion(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if kwargs.get("stream"):
            return self._chunks()
        return {
            "model": "fake.gguf",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "OK"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 2, "total_tokens": 14},
        }

    def _chunks(self) -> Iterator[dict[str, Any]]:
        yield {"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
        for piece in ("O", "K"):
            yield {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        yield {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}


@pytest.fixture
def fake_llama(monkeypatch: pytest.MonkeyPatch) -> list[FakeLlama]:
    """Every load returns a new FakeLlama; the list shows how many loads happened."""
    loaded: list[FakeLlama] = []

    def open_fake(model_path: str, n_ctx: int, n_threads: int | None) -> FakeLlama:
        loaded.append(FakeLlama())
        return loaded[-1]

    monkeypatch.setattr(local, "_open_llama", open_fake)
    return loaded


def test_generate_sends_chat_messages_and_reports_usage(fake_llama: list[FakeLlama]) -> None:
    model = ChatLocalLlama(model_path="/m/fake.gguf")
    reply = model.invoke([SystemMessage("Be brief."), HumanMessage("Reply with the word OK.")], stop=["\n"])
    assert isinstance(reply, AIMessage) and reply.content == "OK"
    assert reply.usage_metadata == {"input_tokens": 12, "output_tokens": 2, "total_tokens": 14}
    assert reply.response_metadata["finish_reason"] == "stop"
    assert reply.response_metadata["model_name"] == "fake.gguf"
    (call,) = fake_llama[0].calls
    assert call["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Reply with the word OK."},
    ]
    assert (call["max_tokens"], call["temperature"], call["stop"]) == (256, 0.0, ["\n"])


def test_response_format_and_seed_pass_through(fake_llama: list[FakeLlama]) -> None:
    model = ChatLocalLlama(model_path="/m/fake.gguf", seed=7)
    schema = {"type": "json_object", "schema": {"type": "object"}}
    model.invoke("hi", response_format=schema)
    call = fake_llama[0].calls[0]
    assert call["response_format"] == schema and call["seed"] == 7


def test_with_tools_bound_a_reply_stops_where_a_second_call_written_as_text_would_begin(
    fake_llama: list[FakeLlama],
) -> None:
    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        return expression

    ChatLocalLlama(model_path="/m/fake.gguf").bind_tools([calculator]).invoke("2+2?", stop=["\n\n\n"])
    assert fake_llama[0].calls[0]["stop"] == ["\n\n\n", "}\n{", "}\n\n{"]
    ChatLocalLlama(model_path="/m/fake.gguf").invoke("hi")
    assert fake_llama[0].calls[1]["stop"] == []  # no tools, no such stops


def test_instances_share_one_loaded_model(fake_llama: list[FakeLlama]) -> None:
    first = ChatLocalLlama(model_path="/m/fake.gguf", n_threads=2)
    second = ChatLocalLlama(model_path=Path("/m/fake.gguf"), n_threads=2, max_tokens=16)  # type: ignore[arg-type]
    first.invoke("a")
    second.invoke("b")
    assert len(fake_llama) == 1 and len(fake_llama[0].calls) == 2
    assert first.llama() is second.llama()
    ChatLocalLlama(model_path="/m/fake.gguf", n_threads=2, n_ctx=8192).invoke("c")
    assert len(fake_llama) == 2


def test_close_models_frees_and_forgets(fake_llama: list[FakeLlama]) -> None:
    model = ChatLocalLlama(model_path="/m/fake.gguf")
    model.invoke("a")
    local.close_models()
    assert fake_llama[0].closed and local._MODELS == {}
    model.invoke("b")
    assert len(fake_llama) == 2


def test_stream_yields_tokens_and_finish_reason(fake_llama: list[FakeLlama]) -> None:
    chunks = list(ChatLocalLlama(model_path="/m/fake.gguf").stream("hi"))
    assert "".join(str(c.content) for c in chunks) == "OK"
    assert chunks[-1].response_metadata["finish_reason"] == "stop"
    assert fake_llama[0].calls[0]["stream"] is True


def test_tool_round_trip_messages_convert() -> None:
    call = {"name": "calculator", "args": {"expression": "2+2"}, "id": "call_1"}
    converted = to_chat_messages([AIMessage("", tool_calls=[call]), ToolMessage("4", tool_call_id="call_1")])
    assert converted[0]["role"] == "assistant"
    assert converted[0]["tool_calls"][0]["function"] == {"name": "calculator", "arguments": '{"expression": "2+2"}'}
    assert converted[1] == {"role": "tool", "content": "4", "tool_call_id": "call_1"}


def test_llm_type() -> None:
    assert ChatLocalLlama(model_path="x.gguf")._llm_type == "llama-cpp"


# --- load failures -------------------------------------------------------------------------------


def test_missing_llama_cpp_at_load(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(ModelUnavailableError, match=r"autoagent\[local\]"):
        ChatLocalLlama(model_path=str(tmp_path / "x.gguf")).invoke("hi")


def test_missing_gguf_at_load(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    with pytest.raises(ModelUnavailableError, match="not found"):
        ChatLocalLlama(model_path=str(tmp_path / "absent.gguf")).invoke("hi")


def test_corrupt_gguf_names_the_path(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"GGUF" + b"\x00" * 256)
    with pytest.raises(ModelUnavailableError, match=r"corrupt\.gguf"):
        ChatLocalLlama(model_path=str(corrupt)).invoke("hi")


def test_tool_calls_written_as_text_are_recovered() -> None:
    from autoagent.llm.llama_messages import tool_calls_in_text

    names = {"calculator", "calendar"}
    fenced = '```json\n{"name": "calculator", "arguments": {"expression": "2*3"}}\n```'
    tagged = '<tool_call>\n{"name": "calendar", "arguments": "{\\"expression\\": \\"tomorrow\\"}"}\n</tool_call>'
    [call] = tool_calls_in_text(fenced, names)
    assert call["name"] == "calculator" and call["args"] == {"expression": "2*3"} and call["id"].startswith("call_")
    assert tool_calls_in_text(tagged, names)[0]["args"] == {"expression": "tomorrow"}
    # a call's shape to a tool that is not bound is still a call: the toolbox names the tools there are
    assert [call["name"] for call in tool_calls_in_text('{"name": "shell", "arguments": {}}', names)] == ["shell"]
    assert tool_calls_in_text('{"name": "Ada", "age": 36}', names) == []  # a record, not a call
    assert tool_calls_in_text("The answer is 6.", names) == []
    echoed = '{"name": "calculator", "arguments": {"type": "object", "expression": "2*3"}}'
    assert tool_calls_in_text(echoed, names)[0]["args"] == {"expression": "2*3"}
