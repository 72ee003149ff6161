"""`autoagent serve` against the second red team (issue 50): no token with any Host name is refused, the docs page
pastes nothing of the query into itself, and a Host header is read whole."""

from __future__ import annotations

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
