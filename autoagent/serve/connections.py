"""The server's connections, held to what it can keep: a client that has not sent a request's head within
HEAD_SECONDS (since it connected, or since its last answer) is let go, and past a cap on open connections, well below
the process's open-file limit, a new one makes room by dropping the one that has waited longest for a head (a slow
client's), or is dropped itself when every open one is busy with a request. So 1,000 half-sent requests from an
account without the token neither run the server out of file descriptors nor keep the token holder waiting."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import time
from typing import Any, Protocol

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0  # a request's head (its line and headers) arrives within this, or the connection is closed
RESERVED_FILES = 128  # open files kept for the runs (model clients, transcripts, workspaces), beside connections
MAX_CONNECTIONS = 1000
BACKLOG = 64  # connections the kernel queues for the server, and the most it accepts in one go


def open_files_limit() -> int:
    """The process's limit on open files, raised first to the most it may be (the soft limit up to the hard one)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft


def connection_cap(files: int) -> int:
    """How many connections may be open at once with `files` open files allowed."""
    return max(8, min(MAX_CONNECTIONS, files - RESERVED_FILES - 2 * BACKLOG))


class Gate:
    """The connections a server holds: those open, those being closed (dropped, their files not yet released), and
    those accepted whose protocol has not started yet. Past `cap` open ones a new one drops the one that has waited
    longest for a head; one being closed no longer counts, so a wave of late heads let go at once never turns away
    the client that comes next. At `ceiling` files in all (the cap, and room for what one accepted queue brings while
    the connections it drops are being closed) no new one is accepted until files are released, so the open files
    never run out."""

    def __init__(self, cap: int) -> None:
        self.cap, self.ceiling = cap, cap + 2 * BACKLOG
        self.open: set[Connection] = set()
        self.closing: set[Connection] = set()
        self.starting = 0

    def has_room(self) -> bool:
        return len(self.open) + len(self.closing) + self.starting < self.ceiling

    def admit(self, connection: Connection) -> bool:
        """Count in a connection whose protocol has started; past the cap, drop the open one that has waited longest
        for a head. False: every other open one is busy with a request, and this one is to be refused."""
        self.starting = max(0, self.starting - 1)
        self.open.add(connection)
        if len(self.open) <= self.cap:
            return True
        waiting = [other for other in self.open if other is not connection and other.waiting_for_head]
        if not waiting:
            return False
        self.drop(min(waiting, key=lambda other: other.idle_since))
        return True

    def drop(self, connection: Connection) -> None:
        """Close a connection at once; it holds its file until it is lost."""
        self.open.discard(connection)
        self.closing.add(connection)
        connection.transport.abort()

    def lost(self, connection: Connection) -> None:
        self.open.discard(connection)
        self.closing.discard(connection)


class Connection(Protocol):
    """What the gate reads of a connection."""

    transport: asyncio.Transport
    idle_since: float

    @property
    def waiting_for_head(self) -> bool: ...


class GatedSocket(socket.socket):
    """A listening socket whose accept() takes no connection while its gate has no room: the connection waits in
    the kernel's queue until the connections being closed or started are counted out, a turn or two of the loop
    later (asyncio's server accepts a whole queue in one go, before any protocol hears of one). Closing it instead
    would reset a request already sent, the token holder's as readily as a flood's."""

    gate: Gate

    def accept(self) -> tuple[socket.socket, Any]:
        if not self.gate.has_room():
            raise BlockingIOError(errno.EAGAIN, "no room yet: the connection waits in the queue")
        connection, address = super().accept()  # BlockingIOError when none waits: the server waits for more
        self.gate.starting += 1
        return connection, address


def listening_socket(host: str, port: int, cap: int | None = None) -> GatedSocket:
    """A socket bound to `host`:`port` and listening, before anything is said about the server (OSError when another
    program holds the port), that holds at most `cap` connections (None: as the open-files limit allows)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = GatedSocket(family, socket.SOCK_STREAM)
    sock.gate = Gate(cap if cap is not None else connection_cap(open_files_limit()))
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def shedding_protocol(gate: Gate, head_seconds: float = HEAD_SECONDS) -> type[SheddingH11Protocol]:
    """The protocol of a server whose connections `gate` holds, letting a head go after `head_seconds`."""
    return type("SheddingH11Protocol", (SheddingH11Protocol,), {"head_seconds": head_seconds, "gate": gate})


def serve_on(app: Any, sock: GatedSocket, head_seconds: float = HEAD_SECONDS) -> None:
    """Serve `app` on the listening socket until stopped (Ctrl-C, SIGTERM), shedding slow clients."""
    import uvicorn

    config = uvicorn.Config(app, http=shedding_protocol(sock.gate, head_seconds), log_level="warning",
                            backlog=BACKLOG)
    uvicorn.Server(config).run(sockets=[sock])


class SheddingH11Protocol(H11Protocol):
    """uvicorn's h11 protocol for one connection: closed when its request's head is late, and the first to go when
    the server is full and it is the one that has waited longest for a head."""

    head_seconds = HEAD_SECONDS
    gate = Gate(MAX_CONNECTIONS)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.idle_since = time.monotonic()
        self.head_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        if not self.gate.admit(self):
            self.gate.drop(self)  # every other one is busy with a request: this one is refused
            return
        self._watch_head(self.head_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.lost(self)
        if self.head_timer is not None:
            self.head_timer.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self.idle_since = time.monotonic()  # the next request's head is awaited from now
        super().on_response_complete()

    @property
    def waiting_for_head(self) -> bool:
        """Whether no request is under way: the connection waits for the next request's head."""
        return self.cycle is None or self.cycle.response_complete

    def _watch_head(self, delay: float) -> None:
        self.head_timer = self.loop.call_later(delay, self._head_due)

    def _head_due(self) -> None:
        """Close the connection when its head is late; else look again when the next one could be."""
        late = time.monotonic() - self.idle_since - self.head_seconds
        if self.waiting_for_head and late >= 0:
            self.gate.drop(self)
        else:
            self._watch_head(max(-late, 0.0) if self.waiting_for_head else self.head_seconds)
