"""Test doubles for the web tools, and checks that they behave: a local web site and bag-of-words embeddings."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from langchain_core.embeddings import Embeddings


@dataclass
class Reply:
    """What the local site answers on one path."""

    body: bytes | str = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the answer starts
    stream: Callable[[], Iterator[bytes]] | None = None  # a body sent piece by piece, without Content-Length


Route = Reply | Callable[[dict[str, list[str]]], Reply]  # a fixed reply, or one computed from the query


class LocalSite:
    """A threaded HTTP server on 127.0.0.1 serving the routes a test adds; use it as a context manager."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: Counter[str] = Counter()
        self.queries: list[dict[str, list[str]]] = []
        self._server = _QuietServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def add(self, path: str, route: Route | str | bytes, **options: Any) -> str:
        """Serve route (a Reply, a handler, or a body with Reply's options) at path; returns its URL."""
        if isinstance(route, Reply):
            route = dataclasses.replace(route, **options)
        self.routes[path] = route if isinstance(route, Reply) or callable(route) else Reply(route, **options)
        return self.url(path)

    def url(self, path: str) -> str:
        """The full URL of path on this site."""
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def __enter__(self) -> LocalSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Say nothing: clients that hang up early (timeouts, size caps) are what these tests make."""


def _handler(site: LocalSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            site.hits[parts.path] += 1
            query = parse_qs(parts.query)
            site.queries.append(query)
            route = site.routes.get(parts.path, Reply("<h1>Not Found</h1>", status=404))
            reply = route if isinstance(route, Reply) else route(query)
            time.sleep(reply.delay)
            body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            if reply.stream is None:
                self.send_header("Content-Length", str(len(body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            for piece in reply.stream() if reply.stream else [body]:
                self.wfile.write(piece)
                self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class HashedEmbeddings(Embeddings):
    """Bag of words hashed into buckets: texts that share words are similar. Deterministic and offline."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self.embedded: list[int] = []  # how many texts each embed_documents call got

    def vector(self, text: str) -> list[float]:
        """The word counts of text, by bucket."""
        counts = [0.0] * self.size
        for word in re.findall(r"\w+", text.lower()):
            counts[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.size] += 1.0
        return counts

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.append(len(texts))
        return [self.vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.vector(text)


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = (sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5
    return dot / norms if norms else 0.0


def test_the_local_site_serves_routes_statuses_and_delays() -> None:
    with LocalSite() as site:
        page = site.add("/page", "<p>hi</p>")
        slow = site.add("/slow", "late", delay=0.3)
        site.add("/echo", lambda query: Reply(query["q"][0], content_type="text/plain"))
        assert requests.get(page, timeout=5).text == "<p>hi</p>"
        assert requests.get(site.url("/missing"), timeout=5).status_code == 404
        assert requests.get(site.url("/echo?q=hello"), timeout=5).text == "hello"
        started = time.perf_counter()
        assert requests.get(slow, timeout=5).text == "late"
        assert time.perf_counter() - started >= 0.3
        assert site.hits["/page"] == 1


def test_hashed_embeddings_rank_by_shared_words() -> None:
    embeddings = HashedEmbeddings()
    query = embeddings.embed_query("installation with pip")
    install, license_ = embeddings.embed_documents(["Installation: use pip to install it.", "MIT license terms."])
    assert cosine(query, install) > cosine(query, license_)
    assert embeddings.embed_query("Same words") == embeddings.embed_query("same WORDS")
    assert embeddings.embedded == [2]
