"""One place for the access rules, held on every route of both servers: `autoagent serve` (the Agent Protocol, A2A,
the docs) and `autoagent mcp --http`. Each route the apps declare, with each of its methods, is refused without the
token (401), with a rebinding Host (400), from another origin's page where it changes state (403) and with a body
over the limit (413); a route added later is swept without a change here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import Route

from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.limits import MIB, Limits
from autoagent.serve.mcp import http_app
from autoagent.settings import Settings

TOKEN = "sweep-token-0123456789abcdef"
BASE_URL = "http://127.0.0.1:8000"
SETTINGS = Settings(model="openai:gpt-4o-mini", use_memory=False)
READING = {"GET", "HEAD", "OPTIONS"}
LIMITS = Limits(artifact_bytes=1 * MIB)  # an upload's limit near a JSON body's: one oversized body passes both


def serve_routes() -> list[tuple[str, str]]:
    """(method, path) of every route `autoagent serve` declares, path parameters filled in."""
    app = create_app(SETTINGS, Access(token=TOKEN))
    found = []
    for route in app.routes:
        assert isinstance(route, Route), route  # a mount would hide routes from the sweep
        for method in sorted((route.methods or set()) - {"HEAD"}):
            found.append((method, re.sub(r"\{[^}]+\}", "x", route.path)))
    return found


ROUTES = serve_routes()
MCP_ROUTES = [(method, "/mcp") for method in ("GET", "POST", "DELETE")]


@pytest.fixture(params=["serve", "mcp"])
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, list[Any]]]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    access = Access(token=TOKEN)
    if request.param == "serve":
        yield TestClient(create_app(SETTINGS, access, limits=LIMITS), base_url=BASE_URL), ROUTES
    else:
        with TestClient(http_app(SETTINGS, access), base_url=BASE_URL) as http:
            yield http, MCP_ROUTES


def test_every_route_is_swept() -> None:
    paths = {path for _, path in ROUTES}
    assert {"/ap/v1/agent/tasks", "/a2a", "/.well-known/agent-card.json", "/docs", "/openapi.json"} <= paths
    assert ("POST", "/ap/v1/agent/tasks/x/steps/stream") in ROUTES and ("POST", "/a2a") in ROUTES


def test_without_the_token_every_route_answers_401(server: tuple[Any, list[Any]]) -> None:
    http, routes = server
    for method, path in routes:
        assert http.request(method, path).status_code == 401, (method, path)
        wrong = http.request(method, path, headers={"Authorization": "Bearer " + "w" * 32})
        assert wrong.status_code == 401, (method, path)


def test_a_rebinding_host_gets_400_on_every_route(server: tuple[Any, list[Any]]) -> None:
    http, routes = server
    for method, path in routes:
        response = http.request(method, path, headers={"Authorization": f"Bearer {TOKEN}",
                                                       "Host": "attacker.example:8000"})
        assert response.status_code == 400, (method, path)


def test_a_foreign_page_changes_nothing_on_any_route(server: tuple[Any, list[Any]]) -> None:
    http, routes = server
    changing = [(method, path) for method, path in routes if method not in READING]
    assert changing
    for method, path in changing:
        response = http.request(method, path, json={}, headers={"Authorization": f"Bearer {TOKEN}",
                                                                "Origin": "http://attacker.example"})
        assert response.status_code == 403, (method, path)


def test_a_body_over_the_limit_gets_413_on_every_route_that_takes_one(server: tuple[Any, list[Any]]) -> None:
    http, routes = server
    for method, path in routes:
        if method in READING:
            continue
        body = b"{" + b" " * LIMITS.body_limit(method, path) + b"}"
        response = http.request(method, path, content=body, headers={"Authorization": f"Bearer {TOKEN}",
                                                                     "Content-Type": "application/json"})
        assert response.status_code == 413, (method, path)
