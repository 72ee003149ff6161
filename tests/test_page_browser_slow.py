"""The web page of `autoagent serve` in the real headless Debian Chromium, against a real server process on a
scripted model: opened with the token, it starts a task and shows its steps as they come and its answer; an approval
is approved (the file appears among the workspace's files) and another refused (the refusal is the next step's
observation); a run is stopped mid-step and resumed to its answer; a past run's transcript opens; memory is searched.
No request of the page leaves 127.0.0.1. The docs' picture of the page (docs/assets/page.png, with the text it
shows in docs/assets/page.txt) is what the page shows now: WRITE_PAGE_PICTURE=1 writes them anew."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autoagent.tools.browser import CHROMEDRIVER, CHROMIUM

from . import fake_openai
from .fake_openai import EMBEDDING_DIMENSIONS, FakeOpenAI, Hold, Text
from .scripted import act
from .test_serve_browser_slow import chromium_installed  # noqa: F401  (autouse: skips or fails without Chromium)
from .test_serve_client import free_port, wait_until_serving

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
ROOT = Path(__file__).resolve().parent.parent
PICTURE, PICTURE_TEXT = ROOT / "docs/assets/page.png", ROOT / "docs/assets/page.txt"
TOKEN = "page-browser-token-0123456789abcdef"
WAIT = 30


def words_vector(text: str) -> list[float]:
    """An embedding by the words a text has (the scripted server's own is a hash: only the same text is near)."""
    counts = [0.0] * EMBEDDING_DIMENSIONS
    for word in re.findall(r"\w+", text.lower()):
        counts[int(hashlib.sha256(word.encode()).hexdigest(), 16) % EMBEDDING_DIMENSIONS] += 1.0
    norm = math.sqrt(sum(value * value for value in counts)) or 1.0
    return [value / norm for value in counts]


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setattr(fake_openai, "embedding_vector", words_vector)  # a search by words finds its run
    server = FakeOpenAI()
    yield server
    server.close()


@pytest.fixture
def served(model: FakeOpenAI, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "AUTOAGENT_HOME": str(tmp_path / "home"), "AUTOAGENT_SERVE_TOKEN": TOKEN,
           "OPENAI_API_KEY": "sk-test"}
    server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model",
                               "openai:gpt-4o-mini", "--base-url", model.base_url, "--max-steps", "5"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(url, TOKEN, server)
        yield url
    finally:
        server.terminate()
        server.communicate(timeout=30)


@pytest.fixture
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--window-size=1000,1400",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='autoagent-page-')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})  # every request the page makes
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: Any, check: Any, what: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda _: check(), message=what)


def text(driver: Any, element_id: str) -> str:
    return str(driver.find_element("id", element_id).text)


def start(driver: Any, task: str) -> None:
    box = driver.find_element("id", "task")
    box.send_keys(task)
    driver.find_element("css selector", "#start button[type=submit]").click()


def requested(driver: Any) -> list[str]:
    """The URL of every request the browser sent."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def test_the_page_runs_follows_and_steers_tasks(model: FakeOpenAI, served: str, browser: Any) -> None:
    hold = Hold(then=Text(act("calculator", expression="2+2")))
    model.script(
        act("calculator", expression="6*7"), act("FINISH"), "42", "It computed 6 * 7 = 42.",  # a run, its memory
        act("write_file", path="answer.txt", content="42"), act("FINISH"), "I wrote 42 to answer.txt",
        "It wrote answer.txt.",
        act("write_file", path="seven.txt", content="7"), act("FINISH"), "I did not write it", "It was refused.",
        act("calculator", expression="1+1"), hold, "It was stopped after two sums.",  # the stopped run's memory
        act("FINISH"), "4", "It computed 4.",
    )
    browser.get(f"{served}/?token={TOKEN}")
    until(browser, lambda: browser.current_url == f"{served}/", "the token is swapped for the cookie")
    assert "token" not in browser.current_url and TOKEN not in browser.page_source

    start(browser, "What is 6 * 7?")  # steps appear as they come, then the answer with its status
    until(browser, lambda: "step 1: calculator" in text(browser, "steps"), "the first step shows")
    until(browser, lambda: text(browser, "answer-status") == "finished", "the answer shows")
    assert text(browser, "answer-text") == "42" and "42" in text(browser, "steps")
    assert browser.find_element("id", "reply").get_attribute("textContent")  # the reply came as it was written

    start(browser, "Write 42 to answer.txt")  # approved: the file is listed
    until(browser, lambda: browser.find_element("id", "approval").is_displayed(), "the approval is asked")
    assert "write_file" in text(browser, "question")
    browser.find_element("css selector", "#approval button[value=y]").click()
    until(browser, lambda: "answer.txt" in text(browser, "files"), "the written file is listed")
    until(browser, lambda: text(browser, "answer-status") == "finished", "the approved run ends")

    start(browser, "Write 7 to seven.txt")  # refused: the next step's observation says so
    until(browser, lambda: browser.find_element("id", "approval").is_displayed(), "the second approval is asked")
    browser.find_element("css selector", "#approval button[value=n]").click()
    until(browser, lambda: "The user denied this action" in text(browser, "steps"), "the refusal shows")
    until(browser, lambda: text(browser, "answer-status") == "finished", "the refused run ends")
    assert "seven.txt" not in text(browser, "files")

    start(browser, "Add 1 and 1, then 2 and 2")  # stopped in the middle of a step, then resumed
    assert hold.arrived.wait(WAIT), "the second model call came"
    browser.find_element("id", "stop").click()
    until(browser, lambda: "stopping" in text(browser, "run-status"), "the stop is said")
    hold.release()
    until(browser, lambda: browser.find_element("id", "resume").is_displayed(), "the stopped run can resume")
    assert "interrupted" in text(browser, "run-status")
    browser.find_element("id", "resume").click()
    until(browser, lambda: text(browser, "answer-status") == "finished", "the resumed run ends")
    assert text(browser, "answer-text") == "4" and "step 2: calculator" in text(browser, "steps")

    until(browser, lambda: len(browser.find_elements("css selector", "#runs button")) == 4, "four runs are listed")
    browser.find_elements("css selector", "#runs button")[-1].click()  # the oldest: the first task's
    until(browser, lambda: "calculator" in text(browser, "transcript"), "a past run's transcript opens")

    browser.find_element("id", "query").send_keys("What is 6 * 7?")
    browser.find_element("css selector", "#memory-search button[type=submit]").click()
    until(browser, lambda: "found" in text(browser, "memory-note"), "memory is searched")
    first = browser.find_elements("css selector", "#memories li")[0].text
    assert first.startswith("#1 What is 6 * 7?") and "It computed 6 * 7 = 42." in first, first

    port = served.rsplit(":", 1)[1]
    urls = [url for url in requested(browser) if url.split(":", 1)[0] in ("http", "https", "ws", "wss")]
    assert urls and all(url.startswith(f"http://127.0.0.1:{port}/") for url in urls), urls  # none leaves
    picture(browser)


def picture(browser: Any) -> None:
    """The docs' picture: written anew with WRITE_PAGE_PICTURE=1, else its text must be what shows now."""
    browser.execute_script("document.getElementById('transcript').hidden = true; window.scrollTo(0, 0)")
    shown = re.sub(r"\b[0-9a-f]*\d[0-9a-f]*\b", "N", browser.find_element("tag name", "main").text)  # times, ids
    if os.environ.get("WRITE_PAGE_PICTURE"):
        browser.save_screenshot(str(PICTURE))
        PICTURE_TEXT.write_text(shown + "\n", encoding="utf-8")
    assert PICTURE.is_file() and PICTURE_TEXT.read_text(encoding="utf-8") == shown + "\n", \
        "the page changed: WRITE_PAGE_PICTURE=1 pytest -m slow tests/test_page_browser_slow.py"


@pytest.mark.timeout(660)
def test_a_task_on_the_embedded_model_reaches_its_answer_from_the_page(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {key: value for key, value in os.environ.items() if not key.startswith("OPENAI_")}
    server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model", "local",
                               "--no-memory"], env={**env, "AUTOAGENT_HOME": str(tmp_path), "AUTOAGENT_SERVE_TOKEN":
                                                    TOKEN}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_serving(url, TOKEN, server)
        browser.get(f"{url}/?token={TOKEN}")
        start(browser, "What is 1234 * 5678 + 17?")
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 600).until(lambda _: browser.find_element("id", "answer").is_displayed(),
                                          message="the embedded model's run ends on the page")
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert browser.find_elements("css selector", "#steps li")  # its steps were shown
    assert "7006669" in text(browser, "answer-text").replace(",", ""), text(browser, "answer-text")


def test_a_followed_batch_fills_in_as_its_results_come(model: FakeOpenAI, browser: Any, tmp_path: Path) -> None:
    from autoagent.batch.results import ResultsWriter, hold_results

    tasks, results = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
    tasks.write_text('{"id": "a", "task": "first"}\n{"id": "b", "task": "second"}\n', encoding="utf-8")
    results.touch()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model",
                               "openai:gpt-4o-mini", "--base-url", model.base_url, "--no-memory", "--batch-out",
                               str(results), "--batch-tasks", str(tasks)],
                              env={**os.environ, "AUTOAGENT_HOME": str(tmp_path / "home"), "OPENAI_API_KEY": "sk-t",
                                   "AUTOAGENT_SERVE_TOKEN": TOKEN}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        wait_until_serving(url, TOKEN, server)
        with hold_results(results):  # the batch runs
            browser.get(f"{url}/?token={TOKEN}")
            until(browser, lambda: "0 of 2 done · a batch is writing" in text(browser, "batch-status"), "it follows")
            writer = ResultsWriter(results)
            writer.write({"id": "a", "task": "first", "finished": True, "stop_reason": "finished", "answer": "one"})
            writer.close()
            until(browser, lambda: "1 of 2 done" in text(browser, "batch-status"), "a result comes in")
        assert "first finished one" in text(browser, "batch-tasks").replace("a: ", "")
        until(browser, lambda: "no batch is running" in text(browser, "batch-status"), "the batch has stopped")
    finally:
        server.terminate()
        server.communicate(timeout=30)
