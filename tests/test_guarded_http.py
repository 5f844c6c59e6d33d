"""No sequence of client events ends a guarded listener's loop: it answers after any of them.

The red team's agent filled the waiting list with connections that never sent a head, then
closed the oldest and opened another, round after round, until one select round took the new
connection first (dropping the oldest to make room) and then read the oldest's close: dropping
it twice raised out of `serve_forever`, and the port took connections it never answered. Here
the listener's loop is held between two select rounds (`service_actions`, the standard library's
hook between rounds), the clients do their part, and the next round sees it all at once.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator, Mapping

import pytest
from raw_http import exchange, wait_until, wda_error

from phoneshell.guarded_http import ERRORS_SHOWN, GuardedHandler, GuardedHTTPServer

OK = b"GET /status HTTP/1.1\r\nHost: x\r\n\r\n"


class _Handler(GuardedHandler):
    def answer(self) -> None:
        if self.path == "/raise":  # a handler that breaks on what one client sent
            raise ValueError("Invalid IPv6 URL")
        body = b'{"value": "ok"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
        pass


class HeldServer(GuardedHTTPServer):
    """A guarded listener whose loop a test can stop between two select rounds."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler, {"any": 4}, self._pool)
        self.hold_asked, self.held, self.go = (threading.Event() for _ in range(3))
        self.chore_fails = False

    def _pool(self, method: str, target: str, headers: Mapping[str, str]) -> str:
        if target == "/boom":  # a classifier that fails on what one client sent
            raise ValueError("a head no classifier expected")
        return "any"

    def service_actions(self) -> None:
        if self.chore_fails:
            self.chore_fails = False
            raise OSError("a chore between rounds failed")
        if self.hold_asked.is_set():
            self.hold_asked.clear()
            self.held.set()
            self.go.wait(5)
            self.go.clear()

    def between_rounds(self) -> Iterator[None]:
        """Hold the loop after its chores, until the caller's block is done."""
        self.hold_asked.set()
        assert self.held.wait(5)
        self.held.clear()
        try:
            yield
        finally:
            self.go.set()


@pytest.fixture
def server() -> Iterator[HeldServer]:
    server = HeldServer()
    server.waiting_max = 4
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01},
                              daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.go.set()
        if thread.is_alive():
            server.shutdown()
        server.server_close()
        thread.join(5)


def port_of(server: GuardedHTTPServer) -> int:
    return int(server.server_address[1])


def answers(server: GuardedHTTPServer) -> int:
    """The status of a plain request (fails the test when no answer comes within 3 s)."""
    return exchange(port_of(server), OK, timeout_s=3)[0]


def connect(server: GuardedHTTPServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port_of(server)), timeout=5)


@pytest.mark.parametrize(("new", "close_first"), [(1, False), (2, False), (1, True), (3, False)])
def test_the_oldest_closing_in_the_round_that_evicts_it(server: HeldServer, new: int,
                                                        close_first: bool) -> None:
    idle = [connect(server) for _ in range(server.waiting_max)]
    wait_until(lambda: server.waiting() == server.waiting_max)
    opened = []
    for _ in server.between_rounds():
        # One round sees the listener ready (new connections: the oldest must make room) and
        # the oldest ready (its close). With 2 or 3 new, a new one takes the oldest's number.
        if close_first:
            idle.pop(0).close()
        opened = [connect(server) for _ in range(new)]
        if not close_first:
            idle.pop(0).close()
    assert answers(server) == 200
    assert server.failure == "" and server.errors == 0
    for conn in idle + opened:
        conn.close()


def test_an_error_with_one_connection_drops_it_alone(server: HeldServer,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status, body = exchange(port_of(server), b"GET /boom HTTP/1.1\r\nHost: x\r\n\r\n", 3)
    assert status == 500 and wda_error(body) == "unknown error"
    assert answers(server) == 200
    assert server.errors == 1 and "a head no classifier expected" in capsys.readouterr().err


def test_a_chore_that_fails_between_rounds_stops_nothing(server: HeldServer) -> None:
    server.chore_fails = True
    wait_until(lambda: server.errors == 1)
    assert answers(server) == 200


def test_a_broken_listening_socket_closes_the_port_and_says_so(
        server: HeldServer, capsys: pytest.CaptureFixture[str]) -> None:
    with connect(server) as held:
        wait_until(lambda: server.waiting() == 1)
        server.socket.shutdown(socket.SHUT_RDWR)  # accept(2) fails with EINVAL from now on
        wait_until(lambda: server.failure != "", timeout_s=3)
        assert "stopped on OSError" in capsys.readouterr().err
        assert server.waiting() == 0 and held.recv(1) == b""  # waiting clients are let go too
    with pytest.raises(ConnectionRefusedError):
        answers(server)


def test_a_port_already_taken_is_the_bind_error_not_a_crash_in_closing() -> None:
    """socketserver closes a server whose bind failed from inside its own __init__: the close
    must not need what __init__ had not set up yet (red team 48: `phoneshell sim --port P` on
    a port in use said "this is a bug in phoneshell")."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(OSError) as bound:
            GuardedHTTPServer(taken.getsockname(), _Handler, {"any": 1})
        assert bound.type is not AttributeError and bound.value.errno is not None
    finally:
        taken.close()


def test_a_handler_that_breaks_is_reported_a_bounded_number_of_times_never_at_column_0(
        server: HeldServer, capsys: pytest.CaptureFixture[str]) -> None:
    """The standard library's printer once wrote a traceback at column 0 for every request that
    broke a handler: 40 requests of a red team's agent printed 1,409 lines into a run."""
    for _ in range(ERRORS_SHOWN + 5):
        with connect(server) as conn:  # closed unanswered, as the standard library does
            conn.sendall(b"GET /raise HTTP/1.1\r\nHost: x\r\n\r\n")
            assert conn.recv(65536) == b""
    assert answers(server) == 200
    wait_until(lambda: server.errors == ERRORS_SHOWN + 5)
    said = capsys.readouterr().err.splitlines()
    heads = [line for line in said if line.startswith("phoneshell: the HTTP listener")]
    assert len(heads) == ERRORS_SHOWN and "later ones are only counted" in heads[-1]
    assert [line for line in said if line not in heads and not line.startswith(" " * 8)] == []
    assert sum("ValueError: Invalid IPv6 URL" in line for line in said) == ERRORS_SHOWN
