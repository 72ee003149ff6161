"""`autoagent serve` against another local account without the token: a flood of half-sent requests (a slow-header
attack) neither runs the server out of file descriptors nor locks the token holder out, nor fills its log; a request
head that is late is let go, and past the cap on connections the slowest client makes room."""

from __future__ import annotations

import contextlib
import http.client
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import uvicorn

from autoagent.serve.access import Access
from autoagent.serve.app import create_app
from autoagent.serve.connections import Gate, connection_cap, listening_socket, shedding_protocol
from autoagent.settings import Settings

from .test_serve_client import free_port, wait_until_serving

REPO = Path(__file__).resolve().parent.parent
TOKEN = "flood-test-token-0123456789abcdef"
HALF_SENT = b"GET /ap/v1/agent/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # the head never ends


def half_sent(port: int, count: int) -> list[socket.socket]:
    """`count` connections, each with a request head begun and never finished."""
    opened = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(HALF_SENT)
            opened.append(sock)
    return opened


def ask(port: int, token: str = TOKEN, timeout: float = 10) -> int:
    """The token holder's request: its status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/ap/v1/agent/tasks", headers={"Authorization": f"Bearer {token}"})
        return connection.getresponse().status
    finally:
        connection.close()


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except (TimeoutError, OSError) as err:
        return not isinstance(err, TimeoutError)


def test_a_slow_header_flood_leaves_the_token_holder_served(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "AUTOAGENT_SERVE_TOKEN": TOKEN, "OPENAI_API_KEY": "sk-test"}

    def few_files() -> None:  # as a small limit: the flood would need more than the process may open
        resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))

    server = subprocess.Popen([sys.executable, "-m", "autoagent", "serve", "--port", str(port), "--model",
                               "openai:fake", "--no-memory"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, preexec_fn=few_files)
    flood: list[socket.socket] = []
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", TOKEN, server)
        flood = half_sent(port, 800)
        started = time.monotonic()
        statuses = [ask(port) for _ in range(5)]
        took = time.monotonic() - started
    finally:
        for sock in flood:
            sock.close()
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert statuses == [200] * 5 and took < 10
    assert "Too many open files" not in err and len(err) < 10_000, err[-2000:]


@contextlib.contextmanager
def served(head_seconds: float, cap: int) -> Iterator[int]:
    """The app on a server in a thread, shedding slow clients after `head_seconds`, at most `cap` connections."""
    app = create_app(Settings(model="openai:fake", use_memory=False), Access(token=TOKEN))
    sock = listening_socket("127.0.0.1", 0, cap)
    server = uvicorn.Server(uvicorn.Config(app, http=shedding_protocol(sock.gate, head_seconds), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_a_late_request_head_is_let_go() -> None:
    with served(head_seconds=0.5, cap=100) as port:
        [slow] = half_sent(port, 1)
        started = time.monotonic()
        assert closed_by_server(slow, within=5) and time.monotonic() - started < 3
        assert ask(port) == 200  # a client that sends its head at once is served


def test_past_the_cap_the_slowest_client_makes_room() -> None:
    with served(head_seconds=60, cap=4) as port:
        slow = half_sent(port, 4)
        time.sleep(0.2)
        assert ask(port) == 200
        assert closed_by_server(slow[0], within=2)  # the one that waited longest
        assert not closed_by_server(slow[-1], within=0.2)


def test_the_cap_keeps_room_for_the_runs_files() -> None:
    assert connection_cap(512) == 256 and connection_cap(1024) == 768 and connection_cap(1 << 20) == 1000


class FakeConnection:
    """A connection as the gate reads it: when it began to wait for a head, and whether it waits for one."""

    def __init__(self, idle_since: float, waiting_for_head: bool = True) -> None:
        self.idle_since, self.waiting_for_head, self.aborted = idle_since, waiting_for_head, False
        self.transport = self

    def abort(self) -> None:
        self.aborted = True


def test_connections_let_go_at_once_leave_room_for_the_next_client() -> None:
    gate = Gate(cap=2)
    slow = [FakeConnection(idle_since=i) for i in range(2)]
    assert all(gate.admit(each) for each in slow)
    for each in slow:  # both heads late in the same turn of the loop: dropped, their files not yet released
        gate.drop(each)
    newcomer = FakeConnection(idle_since=5)
    assert gate.admit(newcomer) and not newcomer.aborted  # refused before: the dropped ones counted as open
    assert gate.open == {newcomer} and gate.closing == set(slow) and gate.has_room()


def test_past_the_cap_the_gate_drops_the_longest_waiting_and_refuses_only_when_all_are_busy() -> None:
    gate = Gate(cap=2)
    oldest, busy = FakeConnection(idle_since=1), FakeConnection(idle_since=0, waiting_for_head=False)
    assert gate.admit(busy) and gate.admit(oldest)
    assert gate.admit(FakeConnection(idle_since=3)) and oldest.aborted and not busy.aborted
    gate.lost(oldest)
    assert gate.closing == set() and len(gate.open) == 2
    everyone_busy = Gate(cap=1)
    assert everyone_busy.admit(FakeConnection(idle_since=0, waiting_for_head=False))
    assert not everyone_busy.admit(FakeConnection(idle_since=1))


def test_with_no_room_a_new_connection_waits_in_the_queue_rather_than_being_cut() -> None:
    sock = listening_socket("127.0.0.1", 0, cap=8)
    sock.setblocking(False)
    try:
        sock.gate.starting = sock.gate.ceiling  # a whole queue accepted, their protocols not started yet
        client = socket.create_connection(sock.getsockname(), timeout=5)
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # the token holder's request, sent at once
        time.sleep(0.1)
        with contextlib.suppress(BlockingIOError):
            sock.accept()
        assert not closed_by_server(client, within=0.2)  # refused before: closed, its request reset
        sock.gate.starting = 0  # the protocols started: room again
        accepted, _ = sock.accept()
        with accepted:
            assert accepted.recv(100).startswith(b"GET /") and sock.gate.starting == 1
        client.close()
    finally:
        sock.close()
