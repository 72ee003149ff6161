"""`autoagent serve` against the second red team (issue 50): no token with any Host name is refused, the docs page
pastes nothing of the query into itself, a Host header is read whole, and a deeply nested body is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.cli import cli

from .cli_backend import FakeBackend
from .test_serve import TASKS, TOKEN, client
from .test_serve_access import serve_stub


def test_no_token_with_any_host_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The attack: a page rebinding its own name to this machine drives a server that asks for no token.
    serve_stub(monkeypatch)
    for given in (["--allow-host", "*"], ["--allow-host", "myhost.lan,*"]):
        result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-token", *given])
        assert result.exit_code == 2 and "--no-token with --allow-host '*'" in result.stderr
    monkeypatch.setenv("AUTOAGENT_SERVE_ALLOW_HOSTS", "*")
    assert CliRunner().invoke(cli, ["serve", "--port", "0", "--no-token"]).exit_code == 2


def test_the_docs_page_pastes_no_query_value_into_itself(backend: FakeBackend) -> None:
    # The attack: the token checked is the first `token`; the page pasted the last one into its script.
    http = client(send_token=False)
    pasted = http.get("/docs", params=[("token", TOKEN), ("token", "';alert(document.domain)//")])
    assert pasted.status_code == 401 and "alert(" not in pasted.text
    page = http.get("/docs", params={"token": TOKEN}).text
    assert f"/openapi.json?token={TOKEN}" in page
    odd = client(token="a'b\"c<d>&e%20f/g+h", send_token=False)
    shown = odd.get("/redoc", params={"token": "a'b\"c<d>&e%20f/g+h"}).text
    assert "/openapi.json?token=a%27b%22c%3Cd%3E%26e%2520f%2Fg%2Bh" in shown and "a'b" not in shown


@pytest.mark.parametrize("host", ["[::1]evil.example", "[::1]evil.example:8000", "[::1", "[127.0.0.1]"])
def test_a_host_header_is_read_whole(backend: FakeBackend, host: str) -> None:
    assert client().get(TASKS, headers={"Host": host}).status_code == 400


@pytest.mark.parametrize("depth", [300, 100_000])
def test_a_deeply_nested_body_is_refused(backend: FakeBackend, isolated_home: Path, depth: int) -> None:
    # The attack: additional_input nested 300 deep was stored, then could not be sent back: 500s, and a task list
    # that failed from then on.
    http = client()
    body = '{"input": "a task", "additional_input": {"a": ' + "[" * depth + "]" * depth + "}}"
    created = http.post(TASKS, content=body, headers={"Content-Type": "application/json"})
    assert created.status_code in (400, 422)
    assert "nested more than 100 levels deep" in created.text or created.status_code == 400
    task_id = http.post(TASKS, json={"input": "a task"}).json()["task_id"]
    step = body.replace('"a task"', '""')
    answered = http.post(f"{TASKS}/{task_id}/steps", content=step, headers={"Content-Type": "application/json"})
    assert answered.status_code in (400, 422) and not backend.models  # no step ran
    listed = http.get(TASKS)
    assert listed.status_code == 200 and [task["task_id"] for task in listed.json()["tasks"]] == [task_id]
