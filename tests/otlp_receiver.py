"""An OTLP/HTTP trace receiver on 127.0.0.1 for tests: it takes what an OpenTelemetry exporter posts to /v1/traces
(protobuf, as the collector reads it) and keeps the spans."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


@dataclass
class ReceivedSpan:
    name: str
    span_id: bytes
    parent_id: bytes
    trace_id: bytes
    attributes: dict[str, Any]
    error: bool
    start: int
    end: int
    service: str = ""


@dataclass
class Receiver:
    url: str
    spans: list[ReceivedSpan] = field(default_factory=list)
    posts: int = 0

    def named(self, prefix: str) -> list[ReceivedSpan]:
        return [span for span in self.spans if span.name.startswith(prefix)]

    def children(self, parent: ReceivedSpan) -> list[ReceivedSpan]:
        return sorted((span for span in self.spans if span.parent_id == parent.span_id), key=lambda span: span.start)


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in value.array_value.values]
    return getattr(value, kind) if kind else None


@contextmanager
def otlp_receiver() -> Iterator[Receiver]:
    """A receiver listening on a free port of 127.0.0.1 while the block runs; `url` is its base (no /v1/traces)."""
    received: list[ReceivedSpan] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if self.path != "/v1/traces":
                self.send_response(404)
                self.end_headers()
                return
            request = ExportTraceServiceRequest.FromString(body)
            for resource in request.resource_spans:
                attributes = {item.key: _value(item.value) for item in resource.resource.attributes}
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        received.append(ReceivedSpan(
                            span.name, span.span_id, span.parent_span_id, span.trace_id,
                            {item.key: _value(item.value) for item in span.attributes},
                            span.status.code == span.status.STATUS_CODE_ERROR, span.start_time_unix_nano,
                            span.end_time_unix_nano, attributes.get("service.name", "")))
            receiver.posts += 1
            reply = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver = Receiver(f"http://127.0.0.1:{server.server_address[1]}", received)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
