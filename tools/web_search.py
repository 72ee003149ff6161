"""The web_search tool: DuckDuckGo through ddgs by default, SerpAPI when it has a key."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests
from langchain_core.tools import BaseTool, tool

from .webpage import quote_web_content

MAX_RESULTS = 5
MAX_SNIPPET_CHARS = 300
SEARCH_TIMEOUT_SECONDS = 10
DDGS_BACKEND = "duckduckgo"  # ddgs's "auto" would also ask Bing, Brave, Google, ... when DuckDuckGo fails
SERPAPI_URL = "https://serpapi.com/search.json"


class SearchError(Exception):
    """The search engine could not be reached, refused the search, or is rate-limiting us."""


@dataclass(frozen=True)
class SearchResult:
    """One hit: its title, its URL and the engine's snippet."""

    title: str
    url: str
    snippet: str


SearchFunction = Callable[[str, int], list[SearchResult]]  # (query, max_results) -> results


_OFFLINE = re.compile(r"dns|name resolution|connect|network is unreachable|no route to host", re.I)  # no network


def ddgs_search(
    query: str, max_results: int, *, backend: str = DDGS_BACKEND, timeout: int = SEARCH_TIMEOUT_SECONDS
) -> list[SearchResult]:
    """Search DuckDuckGo (no key needed) through the ddgs package."""
    from ddgs import DDGS
    from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

    try:
        rows = DDGS(timeout=timeout).text(query, max_results=max_results, backend=backend)
    except RatelimitException:
        raise SearchError("DuckDuckGo is rate-limiting searches; wait a minute before searching again") from None
    except TimeoutException:
        raise SearchError(f"DuckDuckGo did not answer within {timeout} s; try again later") from None
    except DDGSException as error:
        if "no results found" in str(error).lower():
            return []
        if _OFFLINE.search(str(error)):
            raise SearchError(f"the web cannot be reached from this machine ({str(error)[:80]}), so no search can "
                              "help: answer from what you know, and say so") from None
        raise SearchError(f"DuckDuckGo search failed: {str(error)[:200]}") from None
    return [SearchResult(row.get("title", ""), row.get("href", ""), row.get("body", "")) for row in rows]


def serpapi_search(
    api_key: str, *, base_url: str = SERPAPI_URL, timeout: float = SEARCH_TIMEOUT_SECONDS
) -> SearchFunction:
    """A search function calling SerpAPI's Google search over HTTP with api_key."""

    def search(query: str, max_results: int) -> list[SearchResult]:
        params = {"engine": "google", "q": query, "num": str(max_results), "api_key": api_key}
        try:
            response = requests.get(base_url, params=params, timeout=timeout)
        except requests.Timeout:
            raise SearchError(f"SerpAPI did not answer within {timeout:g} s; try again later") from None
        except requests.RequestException as error:  # the message holds the URL, key included
            raise SearchError(f"could not reach SerpAPI: {type(error).__name__}") from None
        data = _json_object(response)
        message = str(data.get("error") or "")
        if "hasn't returned any results" in message:
            return []
        if response.status_code == 429:
            raise SearchError("SerpAPI is rate-limiting searches (or the account is out of searches)")
        if response.status_code >= 400 or message:
            shown = (message or f"HTTP {response.status_code}").replace(api_key, "***")
            raise SearchError(f"SerpAPI refused the search: {shown[:200]}")
        return _serpapi_results(data)[:max_results]

    return search


def _json_object(response: requests.Response) -> dict[str, Any]:
    """The response's JSON object, or {} when it sent something else."""
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _serpapi_results(data: dict[str, Any]) -> list[SearchResult]:
    """SerpAPI's direct answer (if any) first, then the organic results."""
    results = []
    box = data.get("answer_box")
    if isinstance(box, dict) and (answer := box.get("answer") or box.get("snippet")):
        results.append(SearchResult(box.get("title") or "Direct answer", box.get("link", ""), str(answer)))
    for row in data.get("organic_results") or []:
        results.append(SearchResult(row.get("title", ""), row.get("link", ""), row.get("snippet", "")))
    return results


def _shown(result: SearchResult, number: int) -> str:
    """'1. Title\\n   URL\\n   snippet', whitespace collapsed and the snippet cut short."""
    snippet = " ".join(result.snippet.split())
    if len(snippet) > MAX_SNIPPET_CHARS:
        snippet = snippet[:MAX_SNIPPET_CHARS].rsplit(" ", 1)[0] + " ..."
    return f"{number}. {' '.join(result.title.split())}\n   {result.url}\n   {snippet}"


def make_web_search_tool(search: SearchFunction, *, engine: str, max_results: int = MAX_RESULTS) -> BaseTool:
    """The web_search tool over a search function; engine names it in the results (e.g. "DuckDuckGo")."""

    @tool(parse_docstring=True)
    def web_search(query: str) -> str:
        """Search the web; returns the title, URL and snippet of each top result.

        Args:
            query: What to look for, as you would type it into a search engine.
        """
        if not query.strip():
            raise ValueError("the search query is empty")
        results = search(query.strip(), max_results)
        if not results:
            return f"{engine} found nothing for {query!r}; try other words."
        shown = "\n".join(_shown(result, number) for number, result in enumerate(results[:max_results], 1))
        return quote_web_content(f"{engine} results for {query!r}:", shown)

    web_search.metadata = {"side_effects": False}
    return web_search
