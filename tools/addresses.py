"""Which addresses the web tools may reach: public ones only, unless the user allows the rest.

Loopback, private, link-local, shared (CGNAT), multicast and reserved addresses are refused three times over:
for the URL's host after DNS resolution, for each redirect's target, and for the address each connection
really reached (so a name that resolves differently the second time gains nothing).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

ALLOW_HINT = "the user can allow them with --allow-private-urls"
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class PrivateAddressError(ValueError):
    """A URL leads to an address on this machine or its networks, and private addresses are not allowed."""


def _embedded(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, Teredo, NAT64), if any."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped or address.sixtofour:
        return address.ipv4_mapped or address.sixtofour
    if address.teredo:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def describe(text: str) -> str | None:
    """What kind of non-public address `text` is ("loopback", "private", ...), or None for a public one."""
    address = ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0) is not part of it
    address = _embedded(address) or address
    if address.is_global and not address.is_multicast:
        return None
    for kind in ("loopback", "unspecified", "link_local", "private", "multicast"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return "non-public"


def check_host(host: str, port: int | None = None) -> None:
    """Refuse `host` if it is, or resolves to, a non-public address; a name that does not resolve passes (the
    request then says so)."""
    try:
        found = socket.getaddrinfo(host.strip("[]"), port or 80, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return
    for *_, sockaddr in found:
        kind = describe(str(sockaddr[0]))
        if kind is not None:
            shown = host if host == sockaddr[0] else f"{host} ({sockaddr[0]})"
            raise PrivateAddressError(
                f"{shown} is a {kind} address: the web tools reach public addresses only ({ALLOW_HINT})"
            )


def check_url(url: str) -> None:
    """Refuse a URL whose host is, or resolves to, a non-public address."""
    parts = urlsplit(url)
    if parts.hostname:
        check_host(parts.hostname, parts.port)


def _check_peer(connection: HTTPConnection, sock: socket.socket) -> None:
    """Refuse the address a connection really reached; the socket is closed first."""
    address = str(sock.getpeername()[0])
    kind = describe(address)
    if kind is not None:
        sock.close()
        raise PrivateAddressError(
            f"{connection.host} ({address}) is a {kind} address: the web tools reach public addresses only "
            f"({ALLOW_HINT})"
        )


class _PublicHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        _check_peer(self, sock)
        return sock


class _PublicHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        sock = super()._new_conn()
        _check_peer(self, sock)
        return sock


class _PublicHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PublicHTTPConnection


class _PublicHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PublicHTTPSConnection


class PublicOnlyAdapter(requests.adapters.HTTPAdapter):
    """A requests adapter whose direct connections refuse non-public peers (through a proxy, the URL checks
    still apply)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _PublicHTTPPool, "https": _PublicHTTPSPool}


def public_only(session: requests.Session) -> requests.Session:
    """`session`, made to refuse non-public addresses: at connect time, and for each redirect's target."""
    adapter = PublicOnlyAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)

    def check_redirect(response: requests.Response, *args: Any, **kwargs: Any) -> None:
        if response.is_redirect:
            check_url(urljoin(response.url, response.headers["location"]))

    session.hooks["response"].append(check_redirect)
    return session
