"""Whatever a local process sends the simulator's port, it cannot exhaust it or read HTML.

An agent can find the simulator's port even without its secret. Chunk sizes and lengths that
Python's `int` would take (-1, +1, 0x1, 1_0) are refused, a body is never read past WDA's
limit, a slow sender is cut off, a flood of idle or stuck connections holds a bounded number of
threads while the harness's requests under the secret are served at once, and every method is
answered in WDA's JSON error shape. Everything goes over raw sockets, as an attacker sends it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import wda
from raw_http import (
    closed_within,
    exchange,
    idle_connections,
    listener_threads,
    read_answer,
    socket_buffers,
    wait_until,
    wda_error,
)

from phoneshell.sim import SimServer
from phoneshell.sim.listener import POOLS, SimHTTPServer
from phoneshell.sim.wire import MAX_BODY


@pytest.fixture
def secret_sim() -> Iterator[SimServer]:
    """A simulator serving only under a secret path, as the harness starts it."""
    with SimServer(secret=SimServer.new_secret()) as server:
        yield server


def listener(sim: SimServer) -> SimHTTPServer:
    """The simulator's HTTP listener (its timeouts are shortened per test)."""
    assert sim._httpd is not None
    return sim._httpd


def chunked(path: str, first_line: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
            + first_line)


@pytest.mark.parametrize("size", [b"-1", b"+1", b" 1", b"0x1", b"1_0", b"g", b"", b"1 1"])
def test_a_chunk_size_that_is_not_hex_digits_is_refused_at_once(sim: SimServer,
                                                                size: bytes) -> None:
    with socket.create_connection((sim.host, sim.port), timeout=5) as conn:
        # and a megabyte after it, the connection left open: nothing waits for its end
        conn.sendall(chunked("/wda/homescreen", size + b"\r\n" + b"a" * (1 << 20)))
        status, body = read_answer(conn)
    assert status == 400 and wda_error(body) == "invalid argument"
    assert b"chunk size" in body


def test_a_chunked_body_with_extensions_and_trailers_is_read(sim: SimServer) -> None:
    status, body = exchange(sim.port, chunked(
        "/wda/homescreen", b"1;name=value\r\n{\r\n1 ; x\r\n}\r\n0\r\nX-Trailer: 1\r\n\r\n"))
    assert status == 200, body


@pytest.mark.parametrize("first", [b"%x\r\n" % (MAX_BODY + 1), b"1" + b"0" * 5000 + b"\r\n"])
def test_a_chunk_over_the_limit_is_refused_before_it_is_read(sim: SimServer,
                                                             first: bytes) -> None:
    status, body = exchange(sim.port, chunked("/wda/homescreen", first))
    assert status == 400 and wda_error(body) == "invalid argument"


def test_chunks_that_add_up_past_the_limit_are_refused_at_the_limit(sim: SimServer) -> None:
    piece = b"100000\r\n" + b"a" * (1 << 20) + b"\r\n"
    with socket.create_connection((sim.host, sim.port), timeout=10) as conn:
        conn.sendall(chunked("/wda/homescreen", b""))
        sent = 0
        try:
            while sent < 2 * MAX_BODY:  # it never reads on to the end
                conn.sendall(piece)
                sent += 1 << 20
        except ConnectionError:
            pass  # refused, and closed with the rest unread
        status, body = read_answer(conn)
    assert status == 400 and b"exceeds the configured limit" in body
    assert sent <= MAX_BODY + socket_buffers(), sent  # what the kernel buffers comes on top
    assert sent < 2 * MAX_BODY  # it never read on to the end


@pytest.mark.parametrize("length", ["+5", "0x5", "5_0", "5 5", "\u0665", "-0"])
def test_a_content_length_python_would_read_is_refused(sim: SimServer, length: str) -> None:
    status, body = exchange(sim.port, f"POST /wda/homescreen HTTP/1.1\r\nHost: x\r\n"
                                      f"Content-Length: {length}\r\n\r\n{{}}".encode())
    assert status == 400 and wda_error(body) == "invalid argument"


def test_a_head_sent_a_byte_at_a_time_is_cut_off(sim: SimServer) -> None:
    listener(sim).head_timeout_s = 0.5
    with socket.create_connection((sim.host, sim.port)) as conn:
        conn.sendall(b"GET /sta")
        assert closed_within(conn, 5) < 3
    assert listener(sim).waiting() == 0


def test_a_body_sent_too_slowly_is_answered_timeout(sim: SimServer) -> None:
    listener(sim).request_timeout_s = 0.5
    with socket.create_connection((sim.host, sim.port), timeout=5) as conn:
        conn.sendall(b"POST /wda/homescreen HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
        start = time.monotonic()
        status, body = read_answer(conn)
    assert status == 408 and wda_error(body) == "timeout"
    assert time.monotonic() - start < 3


def test_idle_connections_hold_no_thread_and_the_oldest_give_way(secret_sim: SimServer) -> None:
    server = listener(secret_sim)
    server.waiting_max = 100
    with idle_connections(secret_sim.port, 300):
        wait_until(lambda: server.waiting() == 100)
        assert listener_threads(secret_sim.port) == 0
        start = time.monotonic()
        assert wda.Client(secret_sim.url).status()["ready"]
        assert time.monotonic() - start < 2


def test_strangers_stuck_mid_body_leave_the_secrets_holders_threads_free(
        secret_sim: SimServer) -> None:
    stuck = POOLS["outside"] * 6  # more than its threads and its queue
    with ExitStack() as stack:
        answers = []
        for _ in range(stuck):
            conn = stack.enter_context(socket.create_connection(
                (secret_sim.host, secret_sim.port), timeout=5))
            conn.sendall(b"POST /guess/wda/homescreen HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Length: 100\r\n\r\n")  # and never the body
            answers.append(conn)
        wait_until(lambda: listener_threads(secret_sim.port) == POOLS["outside"])
        start = time.monotonic()
        assert wda.Client(secret_sim.url).status()["ready"]
        assert time.monotonic() - start < 2
        assert listener_threads(secret_sim.port) <= POOLS["outside"] + 1
        refused = [read_answer(c)[0] for c in answers[-POOLS["outside"]:]]
        assert set(refused) == {503}  # past the queue: answered at once, with no thread


@pytest.mark.parametrize("method", ["PATCH", "PUT", "TRACE", "PROPFIND", "BREW"])
def test_every_method_gets_wdas_json_error(sim: SimServer, method: str) -> None:
    status, body = exchange(sim.port, f"{method} /status HTTP/1.1\r\nHost: x\r\n"
                                      "Content-Length: 0\r\n\r\n".encode())
    assert status == 404 and wda_error(body) == "unknown command"


def test_a_malformed_request_line_gets_wdas_json_error(sim: SimServer) -> None:
    status, body = exchange(sim.port, b"GET /status HTTP/9.9\r\nHost: x\r\n\r\n")
    assert status == 505 and wda_error(body) == "unknown error"
    status, body = exchange(sim.port, b"GET\r\n\r\n")
    assert status == 400 and wda_error(body) == "invalid argument"


def test_a_head_answers_headers_only(sim: SimServer) -> None:
    status, body = exchange(sim.port, b"HEAD /status HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 404 and body == b""


def test_a_simulator_with_connections_waiting_stops_at_once() -> None:
    server = SimServer().start()
    with idle_connections(server.port, 20):
        wait_until(lambda: listener(server).waiting() == 20)
        stopping = threading.Thread(target=server.stop, daemon=True)
        stopping.start()
        stopping.join(timeout=5)
        assert not stopping.is_alive()
