"""Embedding models from a spec; the OpenAI path end to end against a fake server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from autoagent.errors import ConfigurationError, ModelUnavailableError
from autoagent.llm.embeddings import LocalLlamaEmbeddings, embedding_model_id, load_embeddings
from autoagent.memory.long_term import LongTermMemory

from .scripted import ScriptedChatModel
from .test_memory_support import HashingEmbeddings, run_result, step


def test_embedding_model_ids_name_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert embedding_model_id("openai:gpt-4o-mini") == "openai:text-embedding-3-small"
    assert embedding_model_id("local") == "local:qwen2.5-coder-0.5b-instruct-q4.gguf:mean"
    assert embedding_model_id("local:/models/other.gguf") == "local:other.gguf:mean"
    assert embedding_model_id(None).startswith("local:")  # no key: the local model is the default
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("AUTOAGENT_EMBEDDING_MODEL", "nomic-embed-text")
    assert embedding_model_id(None) == "openai:nomic-embed-text"


def test_bad_specs_are_configuration_errors() -> None:
    with pytest.raises(ConfigurationError, match="unknown model spec 'bogus'"):
        load_embeddings("bogus")
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        load_embeddings("openai:gpt-4o-mini")
    with pytest.raises(ConfigurationError, match="base URL"):
        load_embeddings("local", base_url="http://127.0.0.1:1/v1")


def test_local_embeddings_load_nothing_until_used(tmp_path: Path) -> None:
    embeddings = load_embeddings(f"local:{tmp_path / 'missing.gguf'}")
    assert isinstance(embeddings, LocalLlamaEmbeddings)
    assert embeddings.embed_documents([]) == []
    with pytest.raises(ModelUnavailableError, match="model file not found"):
        embeddings.embed_query("hello")


class FakeEmbeddingServer(BaseHTTPRequestHandler):
    """/v1/embeddings answering with hashing embeddings; records each request body."""

    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests.append({"path": self.path, **body})
        vectors = HashingEmbeddings().embed_documents(body["input"])
        payload = json.dumps({
            "object": "list", "model": body["model"],
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    FakeEmbeddingServer.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddingServer)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_openai_embeddings_send_text_to_the_server_without_tiktoken(server: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOAGENT_EMBEDDING_MODEL", "nomic-embed-text")
    embeddings = load_embeddings("openai:qwen", base_url=server)
    vectors = embeddings.embed_documents(["usd to eur", "christmas"])
    assert len(vectors) == 2 and len(vectors[0]) == 256
    request = FakeEmbeddingServer.requests[0]
    assert request["path"] == "/v1/embeddings" and request["model"] == "nomic-embed-text"
    assert request["input"] == ["usd to eur", "christmas"]  # text, not tiktoken token ids


def test_memory_over_the_openai_path_remembers_and_recalls(server: str, tmp_path: Path) -> None:
    memory = LongTermMemory.open("openai:gpt-4o-mini", base_url=server, directory=tmp_path / "memory")
    assert memory.min_score == 0.35
    llm = ScriptedChatModel(replies=["Converted 100 USD to EUR at 0.92: 92 EUR, saved in rates.txt."])
    task = "Convert 100 USD to EUR with rate 0.92 and save it to rates.txt"
    steps = [step(1, "calculator", "92", expression="100 * 0.92")]
    memory.remember(run_result(task, "92 EUR", steps=steps), llm, "gpt-4o-mini")
    recalled = memory.recall("Convert 40 USD to EUR with rate 0.92")
    assert [d.page_content for d in recalled] == ["Converted 100 USD to EUR at 0.92: 92 EUR, saved in rates.txt."]
    assert memory.backend.store.embedding_record() == ("openai:text-embedding-3-small", 256)  # type: ignore[attr-defined]
