"""A fake OpenAI-compatible server on 127.0.0.1, scripted per chat request, for tests of the real client path.

    fake_openai.script(Error(429, retry_after=1), "the reply", ToolCalls(("calculator", {"expression": "2+2"})))
    model = ChatOpenAI(model="m", base_url=fake_openai.base_url, api_key="test", max_retries=0)
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

EMBEDDING_DIMENSIONS = 16


@dataclass(frozen=True)
class Text:
    """A chat completion whose message is `content`, with a `usage` block."""

    content: str
    prompt_tokens: int = 10
    completion_tokens: int = 5
    finish_reason: str = "stop"  # "length": cut at the request's token cap
    piece: int = 0  # streamed: characters per chunk (0: a word per chunk)
    pause: float = 0.0  # streamed: seconds between chunks


@dataclass(frozen=True)
class ToolCalls:
    """A chat completion calling tools: each call is (name, arguments)."""

    calls: tuple[tuple[str, dict[str, Any]], ...]
    content: str = ""

    def __init__(self, *calls: tuple[str, dict[str, Any]], content: str = "") -> None:
        object.__setattr__(self, "calls", tuple(calls))
        object.__setattr__(self, "content", content)


@dataclass(frozen=True)
class Error:
    """An HTTP error with an OpenAI-style body; `retry_after` (seconds) sets the Retry-After header."""

    status: int
    message: str = "scripted failure"
    retry_after: float | None = None


@dataclass
class Hold:
    """Block the request until the test calls `release()` (or the server closes), then answer with `then`."""

    then: Text | ToolCalls | Error | None = None
    arrived: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        """Let the held request answer."""
        self.released.set()


Item = Text | ToolCalls | Error | Hold
SERVER_ERROR = Error(500, "the fake server's script ran out")


@dataclass(frozen=True)
class Request:
    """One request the server received."""

    method: str
    path: str
    body: Any
    received: float  # time.monotonic() on arrival


Responder = Callable[[Any], "Item | str"]  # a chat request's JSON body -> its answer


class FakeOpenAI:
    """Answers chat completions from a script in order; when it runs out, repeats the last item
    (`when_done="repeat"`) or answers 500 (`"error"`). Serves /v1/models and /v1/embeddings too. With a
    `responder`, each answer comes from the request itself instead (for several runs at once, whose requests
    interleave)."""

    def __init__(self, *items: Item | str, when_done: Literal["repeat", "error"] = "error",
                 responder: Responder | None = None) -> None:
        self.when_done = when_done
        self.responder = responder
        self.requests: list[Request] = []
        self._script: list[Item] = []
        self._served = 0
        self._holds: list[Hold] = []
        self.chunks_sent = 0  # streamed chunks written, over all requests
        self.streams_closed_early = 0  # streams the client closed before their end
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        self.script(*items)

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT/v1"""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def chat_requests(self) -> list[Request]:
        """The chat completion requests received so far."""
        with self._lock:
            return [request for request in self.requests if request.path.endswith("/chat/completions")]

    def script(self, *items: Item | str) -> FakeOpenAI:
        """Append replies to the script (a str is a Text)."""
        with self._lock:
            self._script.extend(Text(item) if isinstance(item, str) else item for item in items)
        return self

    def wait_for_requests(self, count: int, timeout: float = 10.0) -> None:
        """Block until `count` chat requests arrived; fail the test after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while len(self.chat_requests) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"the fake server saw {len(self.chat_requests)} chat requests, not {count}")
            time.sleep(0.005)

    def release(self) -> None:
        """Release every held request."""
        for hold in self._holds:
            hold.release()

    def close(self) -> None:
        """Release held requests and stop the server."""
        self.release()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _next_item(self, request: Request) -> Item:
        """Record a chat request and take its scripted answer."""
        if self.responder is not None:
            answer = self.responder(request.body)
            item = Text(answer) if isinstance(answer, str) else answer
            with self._lock:
                self.requests.append(request)
                if isinstance(item, Hold):
                    self._holds.append(item)
            return item
        with self._lock:
            self.requests.append(request)
            if self._served < len(self._script):
                item = self._script[self._served]
            elif self.when_done == "repeat" and self._script:
                item = self._script[-1]
            else:
                item = SERVER_ERROR
            self._served += 1
            if isinstance(item, Hold):
                self._holds.append(item)
            return item

    def _record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the requests are recorded instead."""

        def do_GET(self) -> None:
            fake._record(Request("GET", self.path, None, time.monotonic()))
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "me"}]})
            else:
                self._send(404, _error_body(404, f"no route {self.path}"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode(errors="replace")
            request = Request("POST", self.path, body, time.monotonic())
            if self.path.endswith("/chat/completions"):
                self._answer_chat(fake._next_item(request), body if isinstance(body, dict) else {})
            elif self.path.endswith("/embeddings"):
                fake._record(request)
                self._send(200, _embeddings(body if isinstance(body, dict) else {}))
            else:
                fake._record(request)
                self._send(404, _error_body(404, f"no route {self.path}"))

        def _answer_chat(self, item: Item, body: dict[str, Any]) -> None:
            if isinstance(item, Hold):
                item.arrived.set()
                item.released.wait()
                item = item.then or Text("released")
            if isinstance(item, Error):
                headers = {"Retry-After": f"{item.retry_after:g}"} if item.retry_after is not None else {}
                self._send(item.status, _error_body(item.status, item.message), headers)
            elif body.get("stream"):
                self._stream(item, body)
            else:
                self._send(200, _completion(item, str(body.get("model", "fake-model"))))

        def _stream(self, item: Text | ToolCalls, body: dict[str, Any]) -> None:
            """Server-sent events, as the API streams: content (or tool call) deltas, the finish reason, the usage
            when asked for, [DONE]; a client that goes away ends the stream."""
            usage = (body.get("stream_options") or {}).get("include_usage")
            pause = item.pause if isinstance(item, Text) else 0.0
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for chunk in _chunks(item, str(body.get("model", "fake-model")), bool(usage)):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    fake.chunks_sent += 1
                    if pause:
                        time.sleep(pause)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                fake.streams_closed_early += 1

        def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client went away (killed mid-request): nothing to answer

    return Handler


def _error_body(status: int, message: str) -> dict[str, Any]:
    kinds = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
             429: "rate_limit_exceeded"}
    codes = {401: "invalid_api_key", 404: "model_not_found", 429: "rate_limit_exceeded"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"), "param": None,
                      "code": codes.get(status)}}


def _pieces(item: Text) -> list[str]:
    """The chunks a Text streams in: `piece` characters each, else a word each (its space leading)."""
    if item.piece:
        return [item.content[start:start + item.piece] for start in range(0, len(item.content), item.piece)]
    words = item.content.split(" ")
    return [words[0], *(" " + word for word in words[1:])] if item.content else []


def _chunks(item: Text | ToolCalls, model: str, usage: bool) -> Iterator[dict[str, Any]]:
    """The chat.completion.chunk objects of a streamed answer."""
    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    yield chunk({"role": "assistant", "content": ""})
    if isinstance(item, Text):
        for piece in _pieces(item):
            yield chunk({"content": piece})
        yield chunk({}, item.finish_reason)
        prompt_tokens, completion_tokens = item.prompt_tokens, item.completion_tokens
    else:
        calls = [{"index": index, "id": f"call_{index}", "type": "function",
                  "function": {"name": name, "arguments": json.dumps(args)}}
                 for index, (name, args) in enumerate(item.calls)]
        yield chunk({"content": item.content or None, "tool_calls": calls})
        yield chunk({}, "tool_calls")
        prompt_tokens, completion_tokens = 10, 5
    if usage:
        yield {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
               "choices": [], "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                        "total_tokens": prompt_tokens + completion_tokens}}


def _completion(item: Text | ToolCalls, model: str) -> dict[str, Any]:
    """A chat.completion object for a Text or ToolCalls item."""
    message: dict[str, Any] = {"role": "assistant", "content": item.content}
    finish_reason = "stop"
    prompt_tokens, completion_tokens = 10, 5
    if isinstance(item, Text):
        prompt_tokens, completion_tokens = item.prompt_tokens, item.completion_tokens
        finish_reason = item.finish_reason
    else:
        message["tool_calls"] = [
            {"id": f"call_{index}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for index, (name, args) in enumerate(item.calls)
        ]
        finish_reason = "tool_calls"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def embedding_vector(text: str) -> list[float]:
    """A deterministic unit vector from a hash of the text, in float32 values so base64 and JSON agree exactly."""
    digest = hashlib.sha256(text.encode()).digest()
    raw = [byte - 127.5 for byte in digest[:EMBEDDING_DIMENSIONS]]
    norm = math.sqrt(sum(value * value for value in raw)) or 1.0
    return list(struct.unpack(f"<{len(raw)}f", struct.pack(f"<{len(raw)}f", *(value / norm for value in raw))))


def _embeddings(body: dict[str, Any]) -> dict[str, Any]:
    inputs = body.get("input", [])
    texts = [inputs] if isinstance(inputs, str) else list(inputs)
    vectors = [embedding_vector(str(text)) for text in texts]
    encoded: list[Any] = vectors
    if body.get("encoding_format") == "base64":  # little-endian float32, as the real API sends it
        encoded = [base64.b64encode(struct.pack(f"<{len(v)}f", *v)).decode() for v in vectors]
    data = [{"object": "embedding", "index": index, "embedding": vector} for index, vector in enumerate(encoded)]
    return {"object": "list", "data": data, "model": body.get("model", "fake-embedding"),
            "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}}


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running FakeOpenAI with an empty script (script it in the test); closed afterwards."""
    with FakeOpenAI() as server:
        yield server
