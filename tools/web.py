"""The web tools: search, page reading (plain HTTP, or headless Chromium for JavaScript) and AMAP."""

# No `from __future__ import annotations`: LangChain re-reads a tool's type hints on every call, and string
# annotations would be compiled again each time.

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Literal

from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool, tool

from . import addresses
from .amap import amap_tools
from .browser import Browser, BrowserError
from .web_search import SearchFunction, ddgs_search, make_web_search_tool, serpapi_search
from .webpage import (
    MAX_PAGE_BYTES,
    MAX_REDIRECTS,
    TIMEOUT_SECONDS,
    PageError,
    check_url,
    extract_text,
    fetch,
    quote_web_content,
    rank_passages,
)

log = logging.getLogger(__name__)

BrowserMode = Literal["auto", "always", "never"]
MIN_TEXT_CHARS = 200  # less text than this from plain HTTP suggests a page built by JavaScript


@dataclass(frozen=True)
class PageText:
    """A page's readable text, where it finally came from, and how it was read."""

    url: str
    text: str
    via: Literal["http", "browser"]
    truncated: bool = False


@dataclass
class PageReader:
    """Reads pages over plain HTTP, and with the browser when the mode or the page calls for it."""

    browser_mode: BrowserMode = "auto"
    browser: Browser = field(default_factory=Browser)
    timeout: float = TIMEOUT_SECONDS
    max_bytes: int = MAX_PAGE_BYTES
    max_redirects: int = MAX_REDIRECTS
    allow_private: bool = False  # loopback, private and link-local addresses too (--allow-private-urls)

    def read(self, url: str, *, use_browser: bool = False) -> PageText:
        """The page's text: plain HTTP first (it also refuses errors and binaries), then the browser if needed."""
        started = time.perf_counter()
        page = fetch(url, timeout=self.timeout, max_bytes=self.max_bytes, max_redirects=self.max_redirects,
                     allow_private=self.allow_private)
        text = extract_text(page.body, html=page.html, url=page.url)
        wanted = use_browser or self.browser_mode == "always" or len(text) < MIN_TEXT_CHARS
        if not page.html or not wanted:
            log.debug("read %s over HTTP in %.2f s", page.url, time.perf_counter() - started)
            return PageText(page.url, text, "http", page.truncated)
        if self.browser_mode == "never":
            if use_browser:
                raise PageError("the browser is turned off for this agent; the page can only be read over HTTP")
            return PageText(page.url, text, "http", page.truncated)
        try:
            final_url, html = self.browser.render(check_url(page.url))
        except BrowserError as error:
            if text and not use_browser and self.browser_mode == "auto":
                log.info("using the plain HTTP text of %s: %s", page.url, error)
                return PageText(page.url, text, "http", page.truncated)
            if use_browser or self.browser_mode == "always":
                raise PageError(f"could not read {page.url} with the browser: {error}") from None
            raise PageError(f"{page.url} shows no text without JavaScript, and the browser failed: {error}") from None
        if not self.allow_private:  # the browser may have been sent on (a redirect, a script) to a private address
            try:
                addresses.check_url(final_url)
            except addresses.PrivateAddressError as refused:
                raise PageError(f"{page.url} was not read: the browser ended on {final_url}: {refused}") from None
        rendered = extract_text(html[: self.max_bytes], url=final_url)
        log.debug("read %s with the browser in %.2f s", final_url, time.perf_counter() - started)
        if len(rendered) < len(text) and not use_browser and self.browser_mode == "auto":
            return PageText(page.url, text, "http", page.truncated)
        return PageText(final_url, rendered, "browser", truncated=len(html) > self.max_bytes)


def make_read_webpage_tool(embeddings: Embeddings, reader: PageReader) -> BaseTool:
    """The read_webpage tool: reads a page with reader and returns the passages most relevant to a query."""

    @tool(parse_docstring=True)
    def read_webpage(url: str, query: str, use_browser: bool = False) -> str:
        """Read a web page (JavaScript included) and return its passages most relevant to a question.

        Args:
            url: The page's full address, starting with http:// or https://.
            query: What you want to know from the page; passages are ranked by relevance to it.
            use_browser: Render the page in a headless browser even when plain fetching finds text.
        """
        if not query.strip():
            raise ValueError("query is empty; say what you want to know from the page")
        page = reader.read(url, use_browser=use_browser)
        if not page.text:
            return f"{page.url} has no readable text."
        passages = rank_passages(page.text, query.strip(), embeddings)
        cut = " (the page is long: only its first part was read)" if page.truncated else ""
        heading = f"Passages of {page.url} most relevant to {query.strip()!r}{cut}:"
        return quote_web_content(heading, "\n\n---\n\n".join(passages))

    read_webpage.metadata = {"side_effects": False}
    return read_webpage


def web_tools(
    embeddings: Embeddings,
    *,
    browser: BrowserMode = "auto",
    serpapi_key: str | None = None,
    amap_key: str | None = None,
    shared_browser: Browser | None = None,
    search: SearchFunction | None = None,
    allow_private_urls: bool = False,
) -> list[BaseTool]:
    """web_search and read_webpage, plus the AMAP location and weather tools when there is an AMAP key.

    Keys default to SERPAPI_API_KEY and AMAP_API_KEY. browser: "auto" renders pages that show (almost) no
    text without JavaScript, "always" renders every HTML page, "never" never starts one. shared_browser is
    yours to close; by default one is started on first need and quit when idle or at exit. search replaces
    the search engine (tests use it). read_webpage reaches public addresses only unless allow_private_urls.
    """
    if browser not in ("auto", "always", "never"):
        raise ValueError(f"browser must be 'auto', 'always' or 'never', not {browser!r}")
    serpapi_key = serpapi_key if serpapi_key is not None else os.environ.get("SERPAPI_API_KEY")
    amap_key = amap_key if amap_key is not None else os.environ.get("AMAP_API_KEY")
    if search is not None:
        searcher = make_web_search_tool(search, engine="Search")
    elif serpapi_key:
        searcher = make_web_search_tool(serpapi_search(serpapi_key), engine="SerpAPI (Google)")
    else:
        searcher = make_web_search_tool(ddgs_search, engine="DuckDuckGo")
    reader = PageReader(browser_mode=browser, browser=shared_browser or Browser(), allow_private=allow_private_urls)
    made = [searcher, make_read_webpage_tool(embeddings, reader)]
    return made + (amap_tools(amap_key) if amap_key else [])
