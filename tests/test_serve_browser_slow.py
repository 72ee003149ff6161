"""`autoagent serve` against a real web page in the real Debian Chromium (issue 27): a page of a second loopback
origin that fetch()es the API, and a page whose name is rebound to the server (a proxy plays the rebinding DNS),
create no task, run no step and upload nothing, on a server with the loopback opt-out (--no-token), where only the
Host and Origin checks stand in their way."""

from __future__ import annotations

import http.client
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoagent.tools.browser import CHROMEDRIVER, CHROMIUM

from .test_serve_client import free_port

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parent.parent
REBOUND = "rebound.test"  # the attacker's name, which its DNS points at 127.0.0.1 once the page has loaded

CROSS_ORIGIN_PAGE = """<html><body>waiting<script>
const api = 'http://127.0.0.1:%(port)d/ap/v1/agent/tasks';
const task = new URLSearchParams(location.search).get('task');
const form = new FormData();
form.append('file', new Blob(['from the page']), 'page.txt');
const tries = {
  json: () => fetch(api, {method: 'POST', headers: {'Content-Type': 'application/json'},
                          body: JSON.stringify({input: 'run the shell'})}),
  plain: () => fetch(api, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
                           body: JSON.stringify({input: 'run the shell'})}),
  step: () => fetch(api + '/' + task + '/steps', {method: 'POST', mode: 'no-cors'}),
  upload: () => fetch(api + '/' + task + '/artifacts', {method: 'POST', mode: 'no-cors', body: form}),
};
Promise.all(Object.entries(tries).map(([name, send]) => send().then(r => name + ': ' + r.type + ' ' + r.status,
                                                                    e => name + ': refused ' + e)))
  .then(lines => { document.body.innerText = lines.join('\\n'); document.title = 'done'; });
</script></body></html>"""

REBOUND_PAGE = """<html><body>waiting<script>
fetch('/ap/v1/agent/tasks', {method: 'POST', headers: {'Content-Type': 'application/json'},
                             body: JSON.stringify({input: 'run the shell'})})
  .then(r => r.text().then(t => 'rebound: ' + r.status + ' ' + t), e => 'rebound: refused ' + e)
  .then(line => { document.body.innerText = line; document.title = 'done'; });
</script></body></html>"""


@pytest.fixture(autouse=True)
def chromium_installed() -> None:
    if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"CI must run the browser tests, but {CHROMIUM} or {CHROMEDRIVER} is missing")
        pytest.skip(f"no {CHROMEDRIVER}: `apt-get install chromium chromium-driver` to run the browser tests")


class Pages(http.server.BaseHTTPRequestHandler):
    """The attacker's pages; as the proxy, everything else for the rebound name goes to the real server."""

    cross_origin_page = ""
    serve_port = 0

    def do_GET(self) -> None:
        target = urllib.parse.urlsplit(self.path)
        if target.path == "/cross-origin.html":
            self.answer(self.cross_origin_page)
        elif target.hostname == REBOUND and target.path == "/rebound.html":
            self.answer(REBOUND_PAGE)
        elif target.hostname == REBOUND:
            self.forward()
        else:
            self.send_error(404)

    def do_POST(self) -> None:
        self.forward()

    def do_OPTIONS(self) -> None:
        self.forward()

    def answer(self, page: str) -> None:
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self) -> None:
        """What a rebinding DNS does: the browser's request, Host header and all, reaches the server on loopback."""
        target = urllib.parse.urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        upstream = http.client.HTTPConnection("127.0.0.1", self.serve_port, timeout=30)
        headers = {key: value for key, value in self.headers.items() if key.lower() != "proxy-connection"}
        upstream.request(self.command, target.path + (f"?{target.query}" if target.query else ""), body, headers)
        reply = upstream.getresponse()
        data = reply.read()
        self.send_response(reply.status)
        for key, value in reply.getheaders():
            if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server(isolated_home: Path) -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    process = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--no-token", "--yes", "--port", str(port),
                                "--model", "openai:fake", "--base-url", "http://127.0.0.1:9/v1", "--no-memory"],
                               cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        from .test_serve_client import wait_until_serving

        wait_until_serving(f"http://127.0.0.1:{port}", "", process)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_a_web_page_creates_no_task(server: int, isolated_home: Path) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=30)  # the user's own task, known to the page
    connection.request("POST", "/ap/v1/agent/tasks", json.dumps({"input": "the user's task"}),
                       {"Content-Type": "application/json"})
    task_id = json.loads(connection.getresponse().read())["task_id"]
    Pages.cross_origin_page, Pages.serve_port = CROSS_ORIGIN_PAGE % {"port": server}, server
    pages = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="autoagent-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", f"--user-data-dir={profile}",
                 f"--proxy-server=http://127.0.0.1:{pages.server_port}"):  # loopback itself is never proxied
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        seen = []
        for url in (f"http://localhost:{pages.server_port}/cross-origin.html?task={task_id}",
                    f"http://{REBOUND}:{server}/rebound.html"):
            driver.get(url)
            WebDriverWait(driver, 20).until(lambda browser: browser.title == "done")
            seen.append(driver.find_element("tag name", "body").text)
    finally:
        driver.quit()
        pages.shutdown()
    shown = "\n".join(seen)
    print(f"\n[the pages saw]\n{shown}")
    tasks = isolated_home / "serve" / "tasks"
    made = [path.name for path in tasks.iterdir() if path.is_dir()]
    assert made == [task_id], shown  # no task but the user's
    assert not (tasks / task_id / "steps.jsonl").exists(), shown  # no step ran
    assert list((tasks / task_id / "workspace").iterdir()) == [], shown  # nothing was uploaded
    assert "rebound: 400" in shown and "does not answer to the host name" in shown, shown
