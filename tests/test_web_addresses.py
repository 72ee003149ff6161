"""The web tools reach public addresses only, unless the user allows private ones: checked after DNS
resolution, on each redirect, and for the address a connection really reached."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from autoagent.tools import addresses, default_tools
from autoagent.tools.webpage import PageError, fetch

from .test_web_fakes import HashedEmbeddings, LocalSite, Reply

PAGE = "<html><body><p>" + "The internal admin page. " * 20 + "</p></body></html>"


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite() as served:
        yield served


def _resolving(monkeypatch: pytest.MonkeyPatch, answers: dict[str, list[str]]) -> None:
    """DNS answers for made-up names, one list per call (the last one repeats); other names as usual."""
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in answers:
            return real(host, port, *args, **kwargs)
        address = answers[host].pop(0) if len(answers[host]) > 1 else answers[host][0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port or 80)))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_loopback_is_refused_unless_allowed(site: LocalSite) -> None:
    url = site.add("/exfil", PAGE)
    for refused in (url, url.replace("127.0.0.1", "localhost"), url.replace("127.0.0.1", "2130706433")):
        with pytest.raises(PageError, match=r"is a loopback address: the web tools reach public addresses only"):
            fetch(refused + "?d=private+notes")
    assert site.hits["/exfil"] == 0  # refused before any request was sent
    assert "internal admin page" in fetch(url, allow_private=True).body


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("http://10.0.0.7/", "private"),
        ("http://192.168.1.1/admin", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[::1]:8080/", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://0.0.0.0:8000/", "unspecified"),
        ("http://100.64.0.1/", "non-public"),
    ],
)
def test_private_link_local_and_other_non_public_addresses_are_refused(url: str, kind: str) -> None:
    with pytest.raises(PageError, match=f"is a {kind} address"):
        fetch(url)


def test_a_name_that_resolves_to_a_private_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _resolving(monkeypatch, {"intranet.example": ["10.1.2.3"]})
    with pytest.raises(PageError, match=r"intranet\.example \(10\.1\.2\.3\) is a private address"):
        fetch("https://intranet.example/wiki")


def test_each_redirect_is_checked(site: LocalSite, monkeypatch: pytest.MonkeyPatch) -> None:
    # For this test 127.0.0.1 counts as public, so the site stands for a public one; 127.0.0.2 stays loopback.
    monkeypatch.setattr(addresses, "describe", lambda text: None if text == "127.0.0.1" else "loopback")
    port = site.url("/").split(":")[2].split("/")[0]
    url = site.add("/go", Reply(status=302, headers={"Location": f"http://127.0.0.2:{port}/admin"}))
    with pytest.raises(PageError, match=r"127\.0\.0\.2 is a loopback address"):
        fetch(url)
    assert site.hits["/go"] == 1


def test_a_name_that_resolves_again_to_loopback_is_refused_at_connect(
    site: LocalSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    # DNS rebinding: public when checked, loopback when connected.
    url = site.add("/admin", PAGE).replace("127.0.0.1", "rebind.example")
    _resolving(monkeypatch, {"rebind.example": ["93.184.216.34", "127.0.0.1"]})
    with pytest.raises(PageError, match=r"rebind\.example \(127\.0\.0\.1\) is a loopback address"):
        fetch(url)
    assert site.hits["/admin"] == 0


def test_the_allowance_reaches_read_webpage_through_default_tools(site: LocalSite, tmp_path: Any) -> None:
    url = site.add("/admin", PAGE)

    def read(**allowance: bool) -> str:
        tools = {tool.name: tool for tool in default_tools(tmp_path, HashedEmbeddings(), browser="never", **allowance)}
        try:
            return str(tools["read_webpage"].invoke({"url": url, "query": "admin"}))
        except PageError as refused:
            return str(refused)

    assert "is a loopback address" in read()
    assert "internal admin page" in read(allow_private_urls=True)


def test_a_browser_that_ends_on_a_private_address_is_not_read(site: LocalSite, monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import cast

    from autoagent.tools.browser import Browser
    from autoagent.tools.web import PageReader

    class Navigating:
        """A browser whose page script sent it to a private address."""

        def render(self, url: str) -> tuple[str, str]:
            return "http://127.0.0.2/admin", PAGE

    monkeypatch.setattr(addresses, "describe", lambda text: None if text == "127.0.0.1" else "loopback")
    reader = PageReader(browser_mode="always", browser=cast(Browser, Navigating()))
    with pytest.raises(PageError, match=r"the browser ended on http://127\.0\.0\.2/admin: 127\.0\.0\.2 is a loopback"):
        reader.read(site.add("/start", PAGE))
