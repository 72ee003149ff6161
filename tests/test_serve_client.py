"""`autoagent serve` as a real process, driven by the real Agent Protocol client package (`agent-protocol-client`,
which needs pydantic 1 and so lives in a virtual environment of its own: `make install` makes .venvs/ap-client)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .fake_openai import FakeOpenAI
from .scripted import act

REPO = Path(__file__).resolve().parent.parent
CLIENT_PYTHON = Path(os.environ.get("AUTOAGENT_AP_CLIENT_PYTHON") or REPO / ".venvs" / "ap-client" / "bin" / "python")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_serving(url: str, token: str, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, server.communicate()[1]
        request = urllib.request.Request(f"{url}/ap/v1/agent/tasks", headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request, timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("autoagent serve did not answer within 60 s")


def test_an_agent_protocol_client_session(tmp_path: Path) -> None:
    if not CLIENT_PYTHON.is_file():
        pytest.skip(f"no agent-protocol-client at {CLIENT_PYTHON}: `make install` makes it (python -m venv "
                    ".venvs/ap-client && .venvs/ap-client/bin/pip install agent-protocol-client==1.1.0)")
    port, token = free_port(), "client-test-token-0123456789"
    url = f"http://127.0.0.1:{port}"
    with FakeOpenAI(act("write_file", "save it", path="answer.txt", content="42"), act("FINISH"),
                    "I wrote 42 to answer.txt") as model:
        env = {**os.environ, "AUTOAGENT_SERVE_TOKEN": token, "OPENAI_API_KEY": "sk-test"}
        server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model",
                                   "openai:fake", "--base-url", model.base_url, "--no-memory"],
                                  cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_until_serving(url, token, server)
            client = subprocess.run([str(CLIENT_PYTHON), str(REPO / "tests" / "ap_client_session.py"), url, token,
                                     "Write 42 to answer.txt"], capture_output=True, text=True, timeout=120)
        finally:
            server.terminate()
            _, err = server.communicate(timeout=30)
    assert client.returncode == 0, client.stderr + err
    seen = json.loads(client.stdout)
    assert [step["status"] for step in seen["steps"]] == ["running", "completed", "completed"]
    assert "The agent wants to run write_file" in seen["steps"][0]["output"]
    assert seen["steps"][-1] == {"name": "answer", "status": "completed", "output": "I wrote 42 to answer.txt",
                                 "is_last": True}
    assert seen["artifacts"] == ["answer.txt"] and seen["content"] == "42"
    assert seen["listed_steps"] == 3 and seen["tasks"] == [seen["task_id"]]
    assert server.returncode in (0, -15) and "Traceback" not in err  # uvicorn ends on SIGTERM as the signal says
