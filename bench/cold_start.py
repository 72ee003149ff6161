"""Cold start: `--help` of each CLI, and from `autoagent "task"` start to its first request at a fake server.

Run: `python bench/cold_start.py --runs 7` (any Python; it starts the CLIs as subprocesses) prints JSON with the
milliseconds of each run. The fake OpenAI-compatible server runs in this process on 127.0.0.1 and records when
the first POST /v1/chat/completions arrives; it replies FINISH to the step prompt and plain text to the rest (as
server-sent events when the request streams, as the CLI's does).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENVS = BENCH / ".venvs"
USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
FINISH = json.dumps({"thought": {"text": "Nothing to do."}, "action": {"name": "FINISH", "args": {}}})


class FakeOpenAI(BaseHTTPRequestHandler):
    """Chat completions only; notes the perf_counter time of each request on the server."""

    server: RecordingServer

    def do_POST(self) -> None:
        arrived = time.perf_counter()
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8", "replace")
        self.server.arrivals.append(arrived)
        content = FINISH if "Reply format" in body else "Nothing was needed."
        streamed = json.loads(body or "{}").get("stream", False)  # the CLI streams (so a runaway reply can be cut)
        data = (streamed_reply if streamed else whole_reply)(content)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream" if streamed else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def whole_reply(content: str) -> bytes:
    """An unstreamed chat completion saying `content`."""
    return json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": USAGE,
    }).encode()


def streamed_reply(content: str) -> bytes:
    """The same as server-sent events: the text in one chunk, the finish reason, the usage, then [DONE]."""
    head = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0, "model": "gpt-4o-mini"}
    chunks = [
        {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {**head, "choices": [], "usage": USAGE},
    ]
    return "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks).encode() + b"data: [DONE]\n\n"


class RecordingServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer with the arrival times of its requests."""

    arrivals: list[float]


def milliseconds(command: list[str], runs: int, **kwargs: Any) -> list[float]:
    """Wall milliseconds of each run of `command`, which must exit 0."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
        times.append((time.perf_counter() - started) * 1000)
    return times


def first_request(runs: int) -> dict[str, list[float]]:
    """Milliseconds from process start to the first request, and to the process's exit, of each one-shot run."""
    server = RecordingServer(("127.0.0.1", 0), FakeOpenAI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    # --coach off: explicit (auto is off for a model behind a URL too); the server's FINISH is taken as given.
    command = [str(ROOT / ".venv/bin/autoagent"), "--model", "openai:gpt-4o-mini", "--base-url", url,
               "--no-memory", "--quiet", "--coach", "off", "What is 1+1?"]
    first, total = [], []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-cold-") as home:
            env = {**os.environ, "OPENAI_API_KEY": "test", "AUTOAGENT_HOME": home}
            for _ in range(runs):
                server.arrivals = []
                started = time.perf_counter()
                subprocess.run(command, check=True, cwd=home, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                ended = time.perf_counter()
                if not server.arrivals:
                    raise AssertionError("autoagent sent no request to the fake server")
                first.append((server.arrivals[0] - started) * 1000)
                total.append((ended - started) * 1000)
    finally:
        server.shutdown()
    return {"first_request": first, "process": total}


def main() -> None:
    """Measure and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    python = str(ROOT / ".venv/bin/python")
    lc_imports = "import langchain_experimental.autonomous_agents; from langchain_openai import ChatOpenAI"
    results: dict[str, list[float]] = {}
    for name, command in [
        ("python -c pass (interpreter alone)", [python, "-c", "pass"]),
        ("autoagent --help", [str(ROOT / ".venv/bin/autoagent"), "--help"]),
        ("smolagent --help", [str(VENVS / "smolagents/bin/smolagent"), "--help"]),
        ("llm --help", [str(VENVS / "llm/bin/llm"), "--help"]),
        ("LangChain AutoGPT + ChatOpenAI imports", [str(VENVS / "langchain/bin/python"), "-W", "ignore", "-c",
                                                    lc_imports]),
    ]:
        results[name] = milliseconds(command, args.runs)
        print(f"  {name}: {sorted(results[name])[len(results[name]) // 2]:.0f} ms", file=sys.stderr, flush=True)
    oneshot = first_request(args.runs)
    results['autoagent "task": start to first request'] = oneshot["first_request"]
    results['autoagent "task": whole process (2 requests)'] = oneshot["process"]
    print(f"  first request: {sorted(oneshot['first_request'])[args.runs // 2]:.0f} ms", file=sys.stderr, flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
