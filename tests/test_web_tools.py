"""web_tools(): which tools it offers, how the model sees them, and how their failures reach the model."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any, cast

import ddgs
import pytest
from langchain_core.tools import BaseTool

from autoagent.acting.toolbox import Toolbox
from autoagent.reply import Action
from autoagent.tools import web as web_module
from autoagent.tools.browser import Browser
from autoagent.tools.web import web_tools
from autoagent.tools.web_search import SearchResult, serpapi_search

from .test_web_fakes import HashedEmbeddings, LocalSite, Reply

AMAP_NAMES = ["current_location", "search_place", "weather_forecast"]


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SERPAPI_API_KEY", "AMAP_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite() as served:
        yield served


def by_name(tools: list[BaseTool]) -> dict[str, BaseTool]:
    return {made.name: made for made in tools}


def test_search_and_reading_without_keys() -> None:
    tools = by_name(web_tools(HashedEmbeddings()))
    assert list(tools) == ["web_search", "read_webpage"]
    assert all(made.metadata == {"side_effects": False} for made in tools.values())
    assert tools["web_search"].description.startswith("Search the web; returns the title, URL and snippet")
    assert tools["read_webpage"].description.startswith("Read a web page (JavaScript included)")
    schema = tools["read_webpage"].tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    assert schema["required"] == ["url", "query"]
    assert schema["properties"]["use_browser"]["default"] is False
    assert "relevance" in schema["properties"]["query"]["description"]


def test_amap_tools_come_with_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    assert list(by_name(web_tools(HashedEmbeddings(), amap_key="k")))[2:] == AMAP_NAMES
    monkeypatch.setenv("AMAP_API_KEY", "from-env")
    assert list(by_name(web_tools(HashedEmbeddings())))[2:] == AMAP_NAMES
    assert list(by_name(web_tools(HashedEmbeddings(), amap_key=""))) == ["web_search", "read_webpage"]


def test_duckduckgo_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    class OneHit:
        def __init__(self, timeout: int) -> None:
            pass

        def text(self, query: str, **options: Any) -> list[dict[str, str]]:
            return [{"title": "Hit", "href": "https://hit.example", "body": f"about {query}"}]

    monkeypatch.setattr(ddgs, "DDGS", OneHit)
    result = by_name(web_tools(HashedEmbeddings()))["web_search"].invoke({"query": "faiss"})
    assert result.startswith("DuckDuckGo results for 'faiss':") and "about faiss" in result


def test_serpapi_when_its_key_is_set(monkeypatch: pytest.MonkeyPatch, site: LocalSite) -> None:
    organic = [{"title": "Hit", "link": "https://hit.example", "snippet": "from serpapi"}]
    url = site.add("/search.json", Reply(json.dumps({"organic_results": organic}), content_type="application/json"))
    monkeypatch.setattr(web_module, "serpapi_search", lambda key: serpapi_search(key, base_url=url))
    monkeypatch.setenv("SERPAPI_API_KEY", "serp-key")
    result = by_name(web_tools(HashedEmbeddings()))["web_search"].invoke({"query": "faiss"})
    assert result.startswith("SerpAPI (Google) results for 'faiss':") and "from serpapi" in result
    assert site.queries[-1]["api_key"] == ["serp-key"]


def test_an_injected_search_function() -> None:
    tools = by_name(web_tools(HashedEmbeddings(), search=lambda q, n: [SearchResult("T", "https://t", "s")]))
    assert "1. T\n   https://t\n   s" in tools["web_search"].invoke({"query": "x"})


def test_the_browser_mode_is_checked() -> None:
    with pytest.raises(ValueError, match="browser must be 'auto', 'always' or 'never'"):
        web_tools(HashedEmbeddings(), browser=cast(Any, "sometimes"))


def test_failures_reach_the_model_as_observations(site: LocalSite) -> None:
    browser = Browser(chromium="/nonexistent", chromedriver="/nonexistent")
    tools = web_tools(HashedEmbeddings(), shared_browser=browser, search=lambda q, n: [], allow_private_urls=True)
    toolbox = Toolbox(tools)
    missing = toolbox.run(Action(name="read_webpage", args={"url": site.url("/gone"), "query": "x"}))
    assert not missing.success
    assert missing.content == f"read_webpage failed: PageError: {site.url('/gone')} answered HTTP 404 Not Found"
    png = site.add("/a.png", b"\x89PNG", content_type="image/png")
    binary = toolbox.run(Action(name="read_webpage", args={"url": png, "query": "x"}))
    assert "is not a web page (image/png, 4 bytes)" in binary.content
    assert (
        toolbox.run(Action(name="web_search", args={"query": "x"})).content
        == "Search found nothing for 'x'; try other words."
    )
    assert not browser.running


def test_no_deprecation_warning_reaches_a_user() -> None:
    code = (
        "import ddgs, faiss, trafilatura, selenium.webdriver, langchain_text_splitters\n"
        "from autoagent.tools.web import web_tools\n"
        "from autoagent.tools.webpage import extract_text\n"
        "extract_text('<html><body><p>hello</p></body></html>')\n"
        "import sys; assert 'langchain_community' not in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
