"""Who may talk to the server, checked before any route (the docs pages included), as Jupyter Server does: the Host
header must name this server (against DNS rebinding), a request that changes state must come from no page or an
allowed origin, and every request carries the bearer token: one given of at least MIN_TOKEN_CHARS, or one the server
makes anew at each start and writes (0600) where its user can read it."""

from __future__ import annotations

import contextlib
import fcntl
import hmac
import ipaddress
import json
import os
import secrets
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import autoagent_home, private_dir

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WILDCARD_BINDS = frozenset({"0.0.0.0", "::", ""})
DOCS_PATHS = frozenset({"/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"})
QUERY_TOKEN_PATHS = DOCS_PATHS | {"/"}  # pages opened from a link that carries the token (the web page: page.py)
MIN_TOKEN_CHARS = 16  # a token given (--token, AUTOAGENT_SERVE_TOKEN) has at least this many characters
TOKEN_LOCK = "token.lock"  # beside the token file: held (shared) by each server that runs with the made token


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (localhost, 127.0.0.0/8, ::1)."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str:
    """The name in a Host header, without its port or brackets, lower case ("[::1]:8000" -> "::1"); a bracketed
    name that is no IPv6 address, or has more than a port after it ("[::1]evil.example"), is returned whole."""
    header = header.strip().lower()
    if header.startswith("["):
        inside, closed, after = header[1:].partition("]")
        port = after[1:] if after.startswith(":") else after
        return inside if closed and ":" in inside and _is_ip(inside) and port.isdigit() == bool(port) else header
    name = header.rsplit(":", 1)[0] if header.count(":") == 1 else header
    return name.rstrip(".")


def query_token(query: str) -> str | None:
    """The one `token` a query string gives (the docs pages'); None when it gives none, or more than one (a page
    might check one and show another)."""
    from urllib.parse import parse_qs

    values = parse_qs(query).get("token", []) if query else []
    return values[0] if len(values) == 1 else None


@dataclass(frozen=True)
class Access:
    """The rules one server applies: its token (None: the loopback opt-out), the host names it answers to and the
    other origins that may change state."""

    token: str | None
    bind: str = "127.0.0.1"
    hosts: frozenset[str] = field(default_factory=frozenset)  # --allow-host: more names ("*": any)
    origins: frozenset[str] = field(default_factory=frozenset)  # --allow-origin: e.g. http://localhost:3000
    cookie: str = "autoagent"  # the web page's session cookie, named for the server's port (page.py)
    session: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)  # its value: new each start

    def host_allowed(self, name: str) -> bool:
        """Loopback names always; the bound address; any IP address on a wildcard bind; the allowed names."""
        if "*" in self.hosts or name in self.hosts:
            return True
        if "[" in name or "]" in name:  # a bracketed name host_name could not read: none of ours
            return False
        if is_loopback(name):
            return True
        if is_loopback(self.bind):
            return False
        if self.bind in WILDCARD_BINDS:
            return _is_ip(name)
        return name == host_name(self.bind)

    def origin_allowed(self, origin: str, host_header: str) -> bool:
        """The server's own origin (the page came from it) or one the user allowed; never "null"."""
        origin = origin.strip().rstrip("/").lower()
        return origin in self.origins or origin in (f"http://{host_header.lower()}", f"https://{host_header.lower()}")

    def token_given(self, headers: dict[str, str], query: str) -> bool:
        """Whether the request carries the token: `Authorization: Bearer <token>` (or `?token=` on the docs and the
        page), or the page's session cookie."""
        if self.token is None:
            return True
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), self.token.encode()):
            return True
        if self.session_given(headers):
            return True
        given = query_token(query)
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def session_given(self, headers: dict[str, str]) -> bool:
        """Whether the request carries this server's page session cookie (set once the page had the token)."""
        from http.cookies import CookieError, SimpleCookie

        try:
            jar = SimpleCookie(headers.get("cookie", ""))
        except CookieError:
            return False
        held = jar.get(self.cookie)
        return held is not None and hmac.compare_digest(held.value.encode(), self.session.encode())


class AccessGuard:
    """ASGI middleware: Host (400), Origin on state-changing requests (403), then the token (401), for every path."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        method = scope["method"]
        if not self.access.host_allowed(host_name(host)):
            await refuse(send, 400, f"this server does not answer to the host name {host_name(host)!r} (a page may be "
                                    "rebinding its name to this machine); allow a name with --allow-host")
            return
        origin = headers.get("origin")
        if origin is not None and method not in SAFE_METHODS and not self.access.origin_allowed(origin, host):
            await refuse(send, 403, f"a request from the page at {origin} may not change anything here; allow that "
                                    "origin with --allow-origin")
            return
        preflight = method == "OPTIONS" and "access-control-request-method" in headers  # answered by CORS, inside
        query = scope.get("query_string", b"").decode("latin-1") if scope["path"] in QUERY_TOKEN_PATHS else ""
        if not preflight and not self.access.token_given(headers, query):
            await refuse(send, 401, "a bearer token is required: Authorization: Bearer <token> (the one autoagent "
                                    "serve makes is in $AUTOAGENT_HOME/serve/token)",
                         [(b"www-authenticate", b"Bearer")])
            return
        await self.app(scope, receive, send)


async def refuse(send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer with `{"message": ...}` and this status, as the routes' errors do."""
    body = json.dumps({"message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def token_path() -> Path:
    """Where the server keeps the token it made: $AUTOAGENT_HOME/serve/token (0600)."""
    return autoagent_home() / "serve" / "token"


def token_problem(token: str) -> str | None:
    """Why a token given to the server is not good enough (None: it is): too short to be out of reach of guessing."""
    if len(token) < MIN_TOKEN_CHARS:
        return (f"the token must be at least {MIN_TOKEN_CHARS} characters (it has {len(token)}): one that can be "
                "guessed lets anyone who can reach the port drive the agent; make one with python -c 'import secrets; "
                "print(secrets.token_urlsafe(32))', or give none and the server makes one")
    return None


@contextlib.contextmanager
def server_token() -> Iterator[str]:
    """The token of a server that makes its own, while it runs: a new one at each start, written (0600, in a 0700
    folder) to token_path(), so a token once seen stops working when the server restarts; a server started while
    another on this $AUTOAGENT_HOME runs shares that one's (the file holds one token). Each running server holds a
    shared lock beside the file; the first to start holds it alone while it writes."""
    path = token_path()
    private_dir(path.parent)
    descriptor = os.open(path.with_name(TOKEN_LOCK), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            token = _new_token(path)
        except BlockingIOError:  # another server runs: once it has written its token (a moment), it is ours too
            fcntl.flock(descriptor, fcntl.LOCK_SH)
            token = _read_token(path) or _new_token(path)
        fcntl.flock(descriptor, fcntl.LOCK_SH)  # from now on one of the servers that run
        yield token
    finally:
        os.close(descriptor)


def _read_token(path: Path) -> str:
    """The token in the file ("" when there is none), not following a link."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return ""
    with os.fdopen(descriptor, encoding="utf-8") as file:
        return file.read().strip()


def _new_token(path: Path) -> str:
    """A new random token, written to `path` (0600) in place of the one there."""
    token = secrets.token_urlsafe(32)
    temporary = path.with_name(f".token.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    os.replace(temporary, path)
    return token
