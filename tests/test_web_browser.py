"""The browser path with the real Debian Chromium: JavaScript pages, reuse, timeouts and always quitting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoagent.tools.browser import CHROMEDRIVER, CHROMIUM, Browser, BrowserError
from autoagent.tools.web import PageReader, web_tools

from .test_web_fakes import HashedEmbeddings, LocalSite, Reply
from .test_web_page import README

JS_PAGE = """<html><head><title>app</title></head><body><div id="app">Loading…</div><script>
fetch('/data.json').then(r => r.json()).then(data => {
  const html = data.sections.map(s => '<h2>' + s[0] + '</h2><p>' + s[1] + '</p>');
  document.getElementById('app').innerHTML = html.join('');
});
</script></body></html>"""
SECTIONS = [
    ["Overview", "This application renders everything with JavaScript in the browser. " * 6],
    ["Installation", "To install it, run pip install from-script, then start the server with from-script serve."],
    ["Configuration", "Settings live in a TOML file next to the data; every option has a sensible default. " * 5],
    ["License", "Released under the MIT license; read the LICENSE file for the complete terms. " * 5],
    ["Contributing", "Open an issue first, then send a pull request with tests and a changelog entry. " * 5],
]


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(autouse=True)
def chromium_installed() -> None:
    """Fail in CI without Chromium (the tests must run there); skip locally, saying how to get it."""
    if Browser().available:
        return
    if _in_ci():
        pytest.fail(f"CI must run the browser tests, but {CHROMIUM} or {CHROMEDRIVER} is missing (see .ci/run)")
    pytest.skip(f"no {CHROMEDRIVER}: `apt-get install chromium chromium-driver` to run the browser tests")


pytestmark = pytest.mark.slow


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite() as served:
        served.add("/app", JS_PAGE)
        served.add("/data.json", Reply(json.dumps({"sections": SECTIONS}), delay=0.3))
        served.add("/readme", README)
        yield served


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    def no_downloads(*args: object) -> None:
        raise AssertionError("Selenium Manager was asked for a driver; it must never download one")

    monkeypatch.setattr(SeleniumManager, "binary_paths", no_downloads)
    with Browser() as made:
        yield made


def processes_using(profile: Path) -> list[int]:
    """Ids of live processes whose command line mentions profile (Chromium and its helpers)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(profile).encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_javascript_page_is_read_through_chromium(site: LocalSite, browser: Browser) -> None:
    made = web_tools(HashedEmbeddings(), shared_browser=browser, allow_private_urls=True)  # the site is on 127.0.0.1
    read_webpage = {tool.name: tool for tool in made}["read_webpage"]
    started = time.perf_counter()
    result = read_webpage.invoke({"url": site.url("/app"), "query": "how to install"})
    cold = time.perf_counter() - started
    started = time.perf_counter()
    again = read_webpage.invoke({"url": site.url("/app"), "query": "license terms"})
    warm = time.perf_counter() - started
    print(f"\n[measure] browser path page read: {cold:.2f} s with Chromium start, {warm:.2f} s with it running")
    assert "pip install from-script" in result.split("---")[0]  # text that only exists after the script ran
    assert "MIT license" in again.split("---")[0]
    assert "Loading" not in result and browser.starts == 1


def test_the_browser_is_reused_then_quit_for_good(site: LocalSite, browser: Browser) -> None:
    reader = PageReader(browser_mode="always", browser=browser, allow_private=True)
    assert reader.read(site.url("/readme")).via == "browser"
    assert reader.read(site.url("/app")).via == "browser"
    assert browser.starts == 1 and browser.running
    profile = browser._profile
    assert profile is not None and processes_using(profile)
    browser.close()
    browser.close()
    assert not browser.running and not profile.exists()
    deadline = time.monotonic() + 5
    while processes_using(profile) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_using(profile) == []
    assert "pip install from-script" in reader.read(site.url("/app")).text  # a closed browser starts again on need
    assert browser.starts == 2


def test_auto_mode_uses_plain_http_when_it_finds_text(site: LocalSite, browser: Browser) -> None:
    reader = PageReader(browser_mode="auto", browser=browser, allow_private=True)
    assert reader.read(site.url("/readme")).via == "http" and not browser.running
    assert reader.read(site.url("/readme"), use_browser=True).via == "browser"


def test_a_page_that_never_loads_times_out_and_the_browser_recovers(site: LocalSite) -> None:
    slow = site.add("/slow", README, delay=4)
    with Browser(page_load_seconds=1) as browser:
        started = time.perf_counter()
        with pytest.raises(BrowserError, match=r"could not load .*/slow within 1 s"):
            browser.render(slow)
        assert time.perf_counter() - started < 4
        url, html = browser.render(site.url("/readme"))
        assert url == site.url("/readme") and "pip install autoagent-demo" in html and browser.starts == 1


def test_an_idle_browser_quits_by_itself(site: LocalSite) -> None:
    with Browser(idle_seconds=0.5) as browser:
        browser.render(site.url("/readme"))
        assert browser.running
        deadline = time.monotonic() + 5
        while browser.running and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not browser.running


def test_the_browser_quits_when_python_exits_without_close(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        from autoagent.tools.browser import Browser
        browser = Browser()
        browser.render("data:text/html,<p>hello</p>")
        print(browser._profile)
        """
    )
    home = tmp_path / "home"
    home.mkdir()
    environment = {**os.environ, "HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=environment)
    assert done.returncode == 0, done.stderr
    profile = Path(done.stdout.strip())
    assert profile.name.startswith("autoagent-chromium-") and not profile.exists()
    assert list(home.iterdir()) == []  # Chromium's config, cache and crash reports stayed in the profile
    deadline = time.monotonic() + 5
    while processes_using(profile) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_using(profile) == []
