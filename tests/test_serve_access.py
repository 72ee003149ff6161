"""`autoagent serve` against a web page and another local account (issue 27): the Host allow-list against DNS
rebinding, the Origin check, a token on every bind (made and kept 0600 when none is given), the docs behind it."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from autoagent.cli import cli

from .cli_backend import FakeBackend
from .test_serve import BASE_URL, TASKS, TOKEN, client

REBOUND = {"Host": "attacker.example:8000", "Origin": "http://attacker.example:8000"}


def test_a_rebound_host_name_is_refused(backend: FakeBackend, isolated_home: Path) -> None:
    http = client(token=None)  # even with the loopback opt-out
    for method, path in [("post", TASKS), ("get", TASKS), ("get", "/docs"), ("get", "/openapi.json")]:
        response = http.request(method.upper(), path, json={"input": "run the shell"}, headers=REBOUND)
        assert response.status_code == 400, (method, path, response.text)
        assert "does not answer to the host name 'attacker.example'" in response.json()["message"]
    assert not (isolated_home / "serve" / "tasks").exists()  # nothing was created
    for host in ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.0.1", "LOCALHOST."]:
        assert http.get(TASKS, headers={"Host": host}).status_code == 200, host


def test_host_names_follow_the_bind_and_the_allowed_ones(backend: FakeBackend) -> None:
    from autoagent.serve.access import Access

    loopback = Access(token=None, bind="127.0.0.1")
    assert not loopback.host_allowed("10.0.0.5") and not loopback.host_allowed("myhost")
    everywhere = Access(token="t", bind="0.0.0.0", hosts=frozenset({"myhost.lan"}))
    assert everywhere.host_allowed("10.0.0.5") and everywhere.host_allowed("myhost.lan")
    assert not everywhere.host_allowed("attacker.example")
    one = Access(token="t", bind="192.168.1.7")
    assert one.host_allowed("192.168.1.7") and not one.host_allowed("10.0.0.5")
    assert Access(token=None, hosts=frozenset({"*"})).host_allowed("anything.example")


def test_a_page_of_another_origin_changes_nothing(backend: FakeBackend, isolated_home: Path) -> None:
    http = client(token=None)
    task_id = http.post(TASKS, json={"input": "a task"}).json()["task_id"]
    page = {"Origin": "http://localhost:3000"}
    created = http.post(TASKS, json={"input": "run the shell"}, headers=page)
    assert created.status_code == 403 and "--allow-origin" in created.json()["message"]
    assert http.post(f"{TASKS}/{task_id}/steps", json={}, headers={"Origin": "null"}).status_code == 403
    upload = http.post(f"{TASKS}/{task_id}/artifacts", files={"file": ("x.txt", b"x")}, headers=page)
    assert upload.status_code == 403
    assert [task["task_id"] for task in http.get(TASKS).json()["tasks"]] == [task_id]  # reading is not changing
    assert not backend.models  # no step ran
    own = http.post(TASKS, json={"input": "from the server's own page"}, headers={"Origin": BASE_URL})
    assert own.status_code == 200


def test_an_allowed_origin_may_call_with_cors(backend: FakeBackend) -> None:
    from fastapi.testclient import TestClient

    from autoagent.serve.access import Access
    from autoagent.serve.app import create_app

    from .test_serve import SETTINGS

    access = Access(token=TOKEN, origins=frozenset({"http://localhost:3000"}))
    http = TestClient(create_app(SETTINGS, access), base_url=BASE_URL)
    preflight = http.options(TASKS, headers={"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
                                             "Access-Control-Request-Headers": "authorization,content-type"})
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == "http://localhost:3000"
    created = http.post(TASKS, json={"input": "a task"},
                        headers={"Origin": "http://localhost:3000", "Authorization": f"Bearer {TOKEN}"})
    assert created.status_code == 200 and created.headers["access-control-allow-origin"] == "http://localhost:3000"
    assert http.post(TASKS, json={"input": "a task"}, headers={"Origin": "http://localhost:3000"}).status_code == 401
    assert http.post(TASKS, json={"input": "x"}, headers={"Origin": "http://localhost:4000",
                                                           "Authorization": f"Bearer {TOKEN}"}).status_code == 403


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json"])
def test_the_docs_need_the_token(backend: FakeBackend, path: str) -> None:
    http = client(send_token=False)
    assert http.get(path).status_code == 401
    assert http.get(path, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert http.get(path, params={"token": TOKEN}).status_code == 200  # a browser opens the docs so
    assert http.get(TASKS, params={"token": TOKEN}).status_code == 401  # the API itself takes only the header


def test_the_docs_page_reads_the_schema_with_its_token(backend: FakeBackend) -> None:
    page = client(send_token=False).get("/docs", params={"token": TOKEN}).text
    assert f"/openapi.json?token={TOKEN}" in page


def serve_stub(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Serving replaced: what the server would have been started with (its socket bound, then closed)."""
    from autoagent.serve import connections

    started: dict[str, object] = {}

    def serve_on(app: object, sock: connections.GatedSocket, **options: object) -> None:
        started.update(app=app, address=sock.getsockname(), **options)
        sock.close()

    monkeypatch.setattr(connections, "serve_on", serve_on)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    return started


def test_a_loopback_server_makes_a_new_token_at_each_start(monkeypatch: pytest.MonkeyPatch,
                                                           isolated_home: Path) -> None:
    from fastapi.testclient import TestClient

    started = serve_stub(monkeypatch)
    first = CliRunner().invoke(cli, ["serve", "--port", "0", "--model", "openai:gpt-4o-mini", "--no-memory"])
    assert first.exit_code == 0, first.output
    kept = isolated_home / "serve" / "token"
    token = kept.read_text().strip()
    assert len(token) >= 32 and stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert token not in first.stderr and f"$(cat {kept})" in first.stderr  # printed nowhere: read from the file
    http = TestClient(started["app"], base_url=BASE_URL)  # type: ignore[arg-type]
    assert http.get(TASKS).status_code == 401  # loopback too: another account has no token
    assert http.get(TASKS, headers={"Authorization": f"Bearer {token}"}).status_code == 200

    # The attack: a token once seen (a log, a shoulder) worked for good; now each start makes a new one.
    second = CliRunner().invoke(cli, ["serve", "--port", "0", "--model", "openai:gpt-4o-mini", "--no-memory"])
    assert second.exit_code == 0 and kept.read_text().strip() not in ("", token)


def test_a_server_started_while_another_runs_shares_its_token(monkeypatch: pytest.MonkeyPatch,
                                                              isolated_home: Path) -> None:
    from autoagent.serve.access import server_token

    with server_token() as running:  # a server on this $AUTOAGENT_HOME, running
        with server_token() as second:
            assert second == running
        assert (isolated_home / "serve" / "token").read_text().strip() == running
    with server_token() as later:  # none runs any more
        assert later != running


def test_a_short_token_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    serve_stub(monkeypatch)
    for given in ["x", "s3cret", "fifteen-chars!!"]:
        monkeypatch.setenv("AUTOAGENT_SERVE_TOKEN", given)
        result = CliRunner().invoke(cli, ["serve", "--port", "0", "--host", "0.0.0.0", "--model", "openai:gpt-4o-mini"])
        assert result.exit_code == 2 and "at least 16 characters" in result.stderr


def test_nothing_is_said_before_the_port_is_ours(monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    import socket

    # The attack: another program holds the port; the curl line printed at start would send it the token.
    serve_stub(monkeypatch)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--model", "openai:gpt-4o-mini"])
    assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "curl" not in result.stderr and "token" not in result.stderr.replace("Address already in use", "")
    assert not (isolated_home / "serve" / "token").exists()


def test_a_given_token_is_used_and_not_printed(monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    from fastapi.testclient import TestClient

    started = serve_stub(monkeypatch)
    monkeypatch.setenv("AUTOAGENT_SERVE_TOKEN", "from-the-environment")
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--model", "openai:gpt-4o-mini", "--no-memory"])
    assert result.exit_code == 0 and "from-the-environment" not in result.stderr
    assert not (isolated_home / "serve" / "token").exists()
    http = TestClient(started["app"], base_url=BASE_URL)  # type: ignore[arg-type]
    assert http.get(TASKS, headers={"Authorization": "Bearer from-the-environment"}).status_code == 200


def test_the_loopback_opt_out_is_explicit(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    started = serve_stub(monkeypatch)
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-token", "--model", "openai:gpt-4o-mini",
                                      "--no-memory"])
    assert result.exit_code == 0 and "any account on this machine can drive the agent" in result.stderr
    assert TestClient(started["app"], base_url=BASE_URL).get(TASKS).status_code == 200  # type: ignore[arg-type]
    clash = CliRunner().invoke(cli, ["serve", "--no-token", "--token", "x"])
    assert clash.exit_code == 2 and "contradict" in clash.stderr


def test_help_warns_that_a_token_flag_is_visible_to_others() -> None:
    shown = " ".join(CliRunner().invoke(cli, ["serve", "--help"]).output.split())
    assert "visible to every local user in /proc/<pid>/cmdline" in shown and "AUTOAGENT_SERVE_TOKEN" in shown
    for flag in ["--no-token", "--allow-host", "--allow-origin", "--max-upload-mb", "--max-live-tasks"]:
        assert flag in shown
