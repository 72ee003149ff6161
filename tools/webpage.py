"""Reading a web page: fetch it over HTTP, extract its text, and rank its passages against a question."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import requests
import urllib3
from langchain_core.embeddings import Embeddings

from ..acting.fence import fence
from . import addresses

if TYPE_CHECKING:
    import numpy as np

TIMEOUT_SECONDS = 15.0  # for the whole download, not just each read
MAX_PAGE_BYTES = 2_000_000  # extraction of 2 MB of HTML takes about a second on 2 cores
MAX_REDIRECTS = 5
PASSAGE_CHARS = 500  # three passages fit the agent's default 2,000-character observation
PASSAGE_OVERLAP = 50
PASSAGES = 3
MAX_EMBEDDED_PASSAGES = 100  # beyond this, a keyword shortlist decides which passages get embedded
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) autoagent/0.1"
_HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = (*_HTML_TYPES, "text/plain", "text/markdown", "text/x-markdown")
QUOTE_KIND = "WEB CONTENT"  # the fence's markers are <<<WEB CONTENT tag and WEB CONTENT tag>>>
_SNIFF_BYTES = 8192
_SHORT_TEXT_CHARS = 200
_QUOTE_MARKERS = re.compile(r"<<<\s*WEB\s+CONTENT|WEB\s+CONTENT\s*>>>", re.IGNORECASE)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([\w-]+)""", re.IGNORECASE)


class PageError(Exception):
    """A page could not be read: a bad URL, an HTTP error, not text, or too slow."""


@dataclass(frozen=True)
class Page:
    """What a URL served: the final URL after redirects, its text or HTML, and whether it was cut short."""

    url: str
    body: str
    html: bool
    truncated: bool = False


def check_url(url: str) -> str:
    """The URL, stripped; only absolute http(s) URLs pass (no file://, no bare host names)."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PageError(f"{url!r} is not a web address; give a full URL starting with http:// or https://")
    return url


def fetch(
    url: str,
    *,
    timeout: float = TIMEOUT_SECONDS,
    max_bytes: int = MAX_PAGE_BYTES,
    max_redirects: int = MAX_REDIRECTS,
    allow_private: bool = False,
) -> Page:
    """Download a page with plain HTTP: bounded in time, size and redirects; only text and HTML; public
    addresses only unless `allow_private` (loopback, private, link-local: see addresses.py)."""
    url = check_url(url)
    with requests.Session() as session:
        if not allow_private:
            _refuse_private(url)
            addresses.public_only(session)
        session.max_redirects = max_redirects
        session.headers["User-Agent"] = USER_AGENT
        try:
            with session.get(url, stream=True, timeout=timeout) as response:
                kind = _check_response(url, response)
                data, truncated = _read_capped(url, response, max_bytes, time.monotonic() + timeout, timeout)
                final_url = response.url
                charset = response.headers.get("Content-Type", "")
        except addresses.PrivateAddressError as refused:  # a redirect to, or a connection that reached, one
            raise PageError(f"{url} was not read: {refused}") from None
        except requests.TooManyRedirects:
            raise PageError(f"{url} redirects more than {max_redirects} times (a redirect loop?)") from None
        except requests.Timeout:
            raise PageError(f"{url} did not answer within {timeout:g} s") from None
        except (requests.RequestException, urllib3.exceptions.HTTPError) as error:
            if "timed out" in str(error):
                raise PageError(f"{url} did not answer within {timeout:g} s") from None
            raise PageError(f"could not fetch {url}: {_reason(error)}") from None
    if b"\0" in data[:_SNIFF_BYTES]:
        raise PageError(f"{url} is binary data, not a web page; read_webpage reads HTML and plain text")
    return Page(final_url, _decode(data, charset), html=kind in _HTML_TYPES, truncated=truncated)


def _refuse_private(url: str) -> None:
    """PageError when the URL's host is, or resolves to, a non-public address."""
    try:
        addresses.check_url(url)
    except addresses.PrivateAddressError as refused:
        raise PageError(f"{url} was not read: {refused}") from None


def _check_response(url: str, response: requests.Response) -> str:
    """The page's content type, after refusing HTTP errors and binary files."""
    if response.status_code >= 400:
        raise PageError(f"{url} answered HTTP {response.status_code} {response.reason or ''}".rstrip())
    kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind and kind not in TEXT_TYPES:
        size = response.headers.get("Content-Length")
        shown = f"{kind}, {int(size):,} bytes" if size and size.isdigit() else kind
        raise PageError(f"{url} is not a web page ({shown}); read_webpage reads HTML and plain text")
    return kind or "text/html"


def _read_capped(
    url: str, response: requests.Response, max_bytes: int, deadline: float, timeout: float
) -> tuple[bytes, bool]:
    """At most max_bytes of the body, and whether there was more; PageError once the deadline passes."""
    data = bytearray()
    raw = response.raw
    read = getattr(raw, "read1", None) or raw.read  # read1 (urllib3 2.1+) returns what has arrived so far
    while piece := read(65536, decode_content=True):
        data += piece
        if len(data) > max_bytes:
            return bytes(data[:max_bytes]), True
        if time.monotonic() > deadline:
            raise PageError(f"{url} took longer than {timeout:g} s to download")
    return bytes(data), False


def _decode(data: bytes, content_type: str) -> str:
    """Text from bytes: the charset the server declared, else the page's <meta>, else UTF-8."""
    declared = re.search(r"charset=[\"']?([\w-]+)", content_type, re.IGNORECASE)
    found = declared.group(1) if declared else None
    if found is None and (meta := _META_CHARSET.search(data[:4096])):
        found = meta.group(1).decode("ascii")
    try:
        return data.decode(found or "utf-8", errors="replace")
    except LookupError:  # a charset Python does not know
        return data.decode("utf-8", errors="replace")


def _reason(error: Exception) -> str:
    """The readable end of a requests/urllib3 error chain."""
    text = str(error)
    match = re.search(r"\[Errno -?\d+\] ([^')\]]+)", text)
    return match.group(1) if match else text[:200]


def extract_text(body: str, *, html: bool = True, url: str | None = None) -> str:
    """The readable text of a page: trafilatura's main content as Markdown, else all visible text."""
    if not html:
        return body.strip()
    import trafilatura

    main = trafilatura.extract(
        body, url=url, output_format="markdown", favor_recall=True, include_comments=False, include_tables=True
    )
    text = (main or "").strip()
    if len(text) < _SHORT_TEXT_CHARS:  # trafilatura may drop short pages; its baseline keeps every visible word
        baseline = trafilatura.html2txt(body).strip()
        text = baseline if len(baseline) > len(text) else text
    return text


def rank_passages(
    text: str,
    query: str,
    embeddings: Embeddings,
    *,
    k: int = PASSAGES,
    chunk_chars: int = PASSAGE_CHARS,
    overlap: int = PASSAGE_OVERLAP,
    max_embedded: int = MAX_EMBEDDED_PASSAGES,
) -> list[str]:
    """The k passages of text most similar to query (cosine, FAISS inner product), best first."""
    import faiss
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    # Markdown separators (the extractor writes Markdown) split before headings, keeping each with its text.
    splitter = RecursiveCharacterTextSplitter.from_language(
        Language.MARKDOWN, chunk_size=chunk_chars, chunk_overlap=overlap
    )
    passages = [passage for passage in splitter.split_text(text) if passage.strip()]
    if len(passages) <= k:
        return passages
    if len(passages) > max_embedded:
        passages = _keyword_shortlist(passages, query, max_embedded)
    vectors = _unit_rows(embeddings.embed_documents(passages))
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    _, found = index.search(_unit_rows([embeddings.embed_query(query)]), k)
    return [passages[i] for i in found[0] if i >= 0]


def _unit_rows(vectors: Sequence[Sequence[float]]) -> np.ndarray:
    """Float32 rows scaled to length 1 (zero rows stay zero), so inner product is cosine similarity."""
    import numpy as np

    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.ascontiguousarray(matrix / np.where(norms == 0, 1, norms))


def _keyword_shortlist(passages: list[str], query: str, size: int) -> list[str]:
    """The size passages sharing most words with query, in page order (so embedding stays affordable)."""
    words = set(re.findall(r"\w+", query.lower()))
    scores = [len(words & set(re.findall(r"\w+", passage.lower()))) for passage in passages]
    keep = sorted(sorted(range(len(passages)), key=lambda i: -scores[i])[:size])
    return [passages[i] for i in keep]


def quote_web_content(heading: str, body: str) -> str:
    """heading, then body fenced as untrusted web text (its random tag keeps body from closing the fence);
    marker-like text inside body is dropped too, so it cannot even look like the end."""
    fenced = body
    while _QUOTE_MARKERS.search(fenced):  # until none is left, even one spelled around another
        fenced = _QUOTE_MARKERS.sub("", fenced)
    return fence(heading, fenced.strip(), kind=QUOTE_KIND, source="the web")
