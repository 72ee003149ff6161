"""web_search: the tool's output, ddgs errors, and SerpAPI against a fake served on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, ClassVar

import ddgs
import pytest
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from autoagent.acting.fence import fenced_body
from autoagent.tools.web_search import (
    SearchError,
    SearchResult,
    ddgs_search,
    make_web_search_tool,
    serpapi_search,
)

from .test_web_fakes import LocalSite, Reply

KEY = "serp-secret-123"
HITS = [
    SearchResult("autoagent on GitHub", "https://github.com/example/autoagent", "An AutoGPT-style agent."),
    SearchResult("Install   guide", "https://example.org/install", "Run pip install autoagent " + "word " * 200),
]


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite() as served:
        yield served


def test_results_are_numbered_quoted_and_short() -> None:
    asked: list[tuple[str, int]] = []

    def search(query: str, max_results: int) -> list[SearchResult]:
        asked.append((query, max_results))
        return HITS

    result = make_web_search_tool(search, engine="Fake").invoke({"query": "  autoagent install "})
    assert asked == [("autoagent install", 5)]
    lines = result.splitlines()
    assert lines[0] == "Fake results for '  autoagent install ':"
    assert lines[2].startswith("<<<WEB CONTENT ") and lines[-1].startswith("WEB CONTENT ")
    assert fenced_body(result).startswith("1. autoagent on GitHub")
    assert lines[3:6] == [
        "1. autoagent on GitHub",
        "   https://github.com/example/autoagent",
        "   An AutoGPT-style agent.",
    ]
    assert lines[6] == "2. Install guide" and lines[8].endswith(" ...") and len(lines[8]) < 320


def test_no_results_and_empty_queries() -> None:
    tool = make_web_search_tool(lambda query, n: [], engine="Fake")
    assert tool.invoke({"query": "zxqv"}) == "Fake found nothing for 'zxqv'; try other words."
    with pytest.raises(ValueError, match="empty"):
        tool.invoke({"query": " "})
    assert tool.metadata == {"side_effects": False}


class FakeDDGS:
    """Stands in for ddgs.DDGS: answers with rows, or raises what it was given."""

    outcome: ClassVar[list[dict[str, Any]] | Exception] = []
    calls: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, timeout: int) -> None:
        self.timeout = timeout

    def text(self, query: str, **options: Any) -> list[dict[str, Any]]:
        FakeDDGS.calls.append({"query": query, "timeout": self.timeout, **options})
        if isinstance(FakeDDGS.outcome, Exception):
            raise FakeDDGS.outcome
        return FakeDDGS.outcome


@pytest.fixture
def fake_ddgs(monkeypatch: pytest.MonkeyPatch) -> type[FakeDDGS]:
    monkeypatch.setattr(ddgs, "DDGS", FakeDDGS)
    FakeDDGS.calls, FakeDDGS.outcome = [], []
    return FakeDDGS


def test_ddgs_results_are_mapped(fake_ddgs: type[FakeDDGS]) -> None:
    fake_ddgs.outcome = [{"title": "T", "href": "https://t.example", "body": "snippet"}]
    assert ddgs_search("q", 3) == [SearchResult("T", "https://t.example", "snippet")]
    assert fake_ddgs.calls == [{"query": "q", "timeout": 10, "max_results": 3, "backend": "duckduckgo"}]


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (RatelimitException("202 Ratelimit"), "DuckDuckGo is rate-limiting searches; wait a minute"),
        (TimeoutException("timed out"), "DuckDuckGo did not answer within 10 s"),
        (DDGSException("ConnectError: dns error"), r"the web cannot be reached from this machine \(ConnectError: "
                                                   r"dns error\), so no search can help: answer from what you know"),
        (DDGSException("403 Forbidden"), "DuckDuckGo search failed: 403 Forbidden"),
    ],
)
def test_ddgs_failures_are_readable(fake_ddgs: type[FakeDDGS], error: Exception, message: str) -> None:
    fake_ddgs.outcome = error
    tool = make_web_search_tool(ddgs_search, engine="DuckDuckGo")
    with pytest.raises(SearchError, match=message):
        tool.invoke({"query": "anything"})


def test_ddgs_no_results_is_not_an_error(fake_ddgs: type[FakeDDGS]) -> None:
    fake_ddgs.outcome = DDGSException("No results found.")
    assert ddgs_search("zxqv", 5) == []


def serp(body: dict[str, Any], status: int = 200) -> Reply:
    return Reply(json.dumps(body), status=status, content_type="application/json")


def test_serpapi_results_with_the_direct_answer_first(site: LocalSite) -> None:
    answer = {"title": "Capital", "answer": "Paris", "link": "https://a.example"}
    organic = [{"title": f"Result {n}", "link": f"https://r{n}.example", "snippet": f"s{n}"} for n in range(8)]
    url = site.add("/search.json", serp({"answer_box": answer, "organic_results": organic}))
    results = serpapi_search(KEY, base_url=url)("capital of france", 3)
    assert results == [
        SearchResult("Capital", "https://a.example", "Paris"),
        SearchResult("Result 0", "https://r0.example", "s0"),
        SearchResult("Result 1", "https://r1.example", "s1"),
    ]
    assert site.queries[-1] == {"engine": ["google"], "q": ["capital of france"], "num": ["3"], "api_key": [KEY]}


def test_serpapi_errors_are_readable_and_hide_the_key(site: LocalSite) -> None:
    bad_key = site.add("/bad", serp({"error": f"Invalid API key {KEY}."}, status=401))
    with pytest.raises(SearchError, match=r"SerpAPI refused the search: Invalid API key \*\*\*\.") as caught:
        serpapi_search(KEY, base_url=bad_key)("q", 5)
    assert KEY not in str(caught.value)
    limited = site.add("/limited", serp({"error": "Your account has run out of searches."}, status=429))
    with pytest.raises(SearchError, match="rate-limiting"):
        serpapi_search(KEY, base_url=limited)("q", 5)
    broken = site.add("/broken", Reply("<html>Bad gateway</html>", status=502))
    with pytest.raises(SearchError, match="SerpAPI refused the search: HTTP 502"):
        serpapi_search(KEY, base_url=broken)("q", 5)
    empty = site.add("/empty", serp({"error": "Google hasn't returned any results for this query."}))
    assert serpapi_search(KEY, base_url=empty)("q", 5) == []


def test_serpapi_network_failures_are_readable(site: LocalSite) -> None:
    slow = site.add("/slow", serp({}), delay=2)
    with pytest.raises(SearchError, match=r"SerpAPI did not answer within 0.3 s"):
        serpapi_search(KEY, base_url=slow, timeout=0.3)("q", 5)
    with LocalSite() as gone:
        closed = gone.url("/search.json")
    with pytest.raises(SearchError, match="could not reach SerpAPI: ConnectionError") as caught:
        serpapi_search(KEY, base_url=closed)("q", 5)
    assert KEY not in str(caught.value)
