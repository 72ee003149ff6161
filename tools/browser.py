"""A headless Chromium for pages that need JavaScript: started lazily, reused, and always quit."""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver

log = logging.getLogger(__name__)

CHROMIUM = "/usr/bin/chromium"  # Debian's chromium and chromium-driver packages
CHROMEDRIVER = "/usr/bin/chromedriver"
PAGE_LOAD_SECONDS = 20.0
SETTLE_SECONDS = 3.0  # how long to wait after the load event for scripts to fill the page
IDLE_SECONDS = 300.0  # quit a browser nobody used for this long
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-first-run",
)
_TEXT_LENGTH = "return document.body ? document.body.innerText.length : 0"
_SETTLE_POLL = 0.1
_STEADY_SECONDS = 0.4  # text unchanged this long counts as rendered


class BrowserError(Exception):
    """The browser is missing, failed to start, or could not load a page."""


class Browser:
    """One headless Chromium, started on first use and reused; close() (or exit, or idling) quits it."""

    def __init__(
        self,
        *,
        chromium: str = CHROMIUM,
        chromedriver: str = CHROMEDRIVER,
        page_load_seconds: float = PAGE_LOAD_SECONDS,
        settle_seconds: float = SETTLE_SECONDS,
        idle_seconds: float | None = IDLE_SECONDS,
    ) -> None:
        self.chromium, self.chromedriver = chromium, chromedriver
        self.page_load_seconds, self.settle_seconds, self.idle_seconds = page_load_seconds, settle_seconds, idle_seconds
        self.starts = 0  # how many times a browser process was started (tests check reuse)
        self._driver: WebDriver | None = None
        self._profile: Path | None = None
        self._idle_timer: threading.Timer | None = None
        self._lock = threading.RLock()

    @property
    def running(self) -> bool:
        """Whether a browser process is up."""
        return self._driver is not None

    @property
    def available(self) -> bool:
        """Whether the browser and its driver are installed."""
        return Path(self.chromium).is_file() and Path(self.chromedriver).is_file()

    def render(self, url: str) -> tuple[str, str]:
        """Load url, let its scripts run, and return (final URL, rendered HTML)."""
        from selenium.common.exceptions import TimeoutException, WebDriverException

        with self._lock:
            self._cancel_idle_timer()
            driver = self._driver or self._start()
            try:
                driver.get(url)
                self._settle(driver)
                html, final_url = driver.page_source, driver.current_url
            except TimeoutException:
                raise BrowserError(f"the browser could not load {url} within {self.page_load_seconds:g} s") from None
            except WebDriverException as error:
                self.close()  # the browser may have crashed; the next call starts a fresh one
                raise BrowserError(f"the browser failed on {url}: {_first_line(error.msg)}") from None
            finally:
                self._start_idle_timer()
            return final_url, html

    def close(self) -> None:
        """Quit the browser and delete its profile; safe to call any number of times."""
        with self._lock:
            self._cancel_idle_timer()
            driver, self._driver = self._driver, None
            if driver is not None:
                atexit.unregister(self.close)
                try:
                    driver.quit()
                except Exception as error:  # already dead: nothing left to quit
                    log.debug("quitting the browser: %s", error)
            if self._profile is not None:
                shutil.rmtree(self._profile, ignore_errors=True)
                self._profile = None

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def _start(self) -> WebDriver:
        """Start Chromium through the given chromedriver (never Selenium Manager, which downloads)."""
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service

        for path in (self.chromium, self.chromedriver):
            if not Path(path).is_file():
                raise BrowserError(f"no browser: {path} is missing (install Debian's chromium and chromium-driver)")
        started = time.perf_counter()
        self._profile = Path(tempfile.mkdtemp(prefix="autoagent-chromium-"))
        options = webdriver.ChromeOptions()
        options.binary_location = self.chromium
        for flag in (*FLAGS, f"--user-data-dir={self._profile}"):
            options.add_argument(flag)
        # Anything a page makes the browser download lands in the throwaway profile.
        options.add_experimental_option("prefs", {"download.default_directory": str(self._profile / "downloads")})
        try:
            service = Service(executable_path=self.chromedriver, env=self._environment())
            driver = webdriver.Chrome(service=service, options=options)
        except Exception as error:  # WebDriverException, or an OSError starting the driver
            self.close()
            reason = error.msg if isinstance(error, WebDriverException) else str(error)
            raise BrowserError(f"the browser did not start: {_first_line(reason)}") from None
        driver.set_page_load_timeout(self.page_load_seconds)
        self._driver = driver
        self.starts += 1
        atexit.register(self.close)
        log.debug("browser started in %.2f s", time.perf_counter() - started)
        return driver

    def _environment(self) -> dict[str, str]:
        """Our environment, but with Chromium's config and cache (crash reports too) inside the profile."""
        assert self._profile is not None
        return {
            **os.environ,
            "XDG_CONFIG_HOME": str(self._profile / "config"),
            "XDG_CACHE_HOME": str(self._profile / "cache"),
        }

    def _settle(self, driver: WebDriver) -> None:
        """Wait until the page shows text that has not changed for a moment, or settle_seconds pass."""
        deadline = time.monotonic() + self.settle_seconds
        length, changed = -1, time.monotonic()
        while time.monotonic() < deadline:
            current = int(driver.execute_script(_TEXT_LENGTH) or 0)
            if current != length:
                length, changed = current, time.monotonic()
            elif length and time.monotonic() - changed >= _STEADY_SECONDS:
                return
            time.sleep(_SETTLE_POLL)

    def _start_idle_timer(self) -> None:
        if self.idle_seconds is not None and self._driver is not None:
            self._idle_timer = threading.Timer(self.idle_seconds, self.close)
            self._idle_timer.daemon = True
            self._idle_timer.start()

    def _cancel_idle_timer(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None


def _first_line(message: str | None) -> str:
    """The first line of a WebDriver message (the rest is a stack trace)."""
    return (message or "unknown error").strip().splitlines()[0]
