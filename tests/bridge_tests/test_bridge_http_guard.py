"""Whatever a local process sends the bridge's port, it cannot exhaust the harness.

The red team's agent sent a chunk size of -1 and 640 MiB after it, and the bridge read it all;
it opened 1,500 idle connections and the harness held a thread for each. Here chunk sizes and
lengths Python's `int` would take are refused at once, nothing is read past the 64 MiB limit, a
slow sender is cut off, idle connections hold no thread, an agent that has used all its threads
leaves the harness's requests served at once, and every method gets WDA's JSON error shape.
"""

from __future__ import annotations

import socket
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest
from bridge_rig import Rig, request
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

from bridge.gate import MAX_BODY_BYTES
from bridge.http_server import POOLS, BridgeHTTPServer


def listener(rig: Rig) -> BridgeHTTPServer:
    """The bridge's HTTP listener (its timeouts are shortened per test)."""
    assert rig.bridge._server is not None
    return rig.bridge._server


def agent_head(rig: Rig, method: str, route: str, *headers: str) -> tuple[int, bytes]:
    """A granted agent's port and request head for `route`, with `headers`."""
    where = urlsplit(rig.bridge.grant_agent())
    assert where.port is not None
    lines = "".join(f"{h}\r\n" for h in ("Host: x", *headers))
    return where.port, f"{method} {where.path}{route} HTTP/1.1\r\n{lines}\r\n".encode()


@pytest.mark.parametrize("size", [b"-1", b"+1", b" 1", b"0x1", b"1_0", b"", b"1" + b"0" * 5000])
def test_a_chunk_size_that_is_not_hex_digits_is_refused_at_once(guarded: Rig,
                                                                size: bytes) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen", "Transfer-Encoding: chunked")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        # a megabyte after it and the connection left open: the bridge reads to no end
        conn.sendall(head + size + b"\r\n" + b"a" * (1 << 20))
        status, body = read_answer(conn)
    assert status == 400 and wda_error(body) == "invalid argument" and b"chunk size" in body
    assert guarded.sim.ledger()[0] == 0


def test_a_chunk_with_an_extension_is_forwarded(guarded: Rig) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen", "Transfer-Encoding: chunked")
    status, body = exchange(port, head + b"2 ;ext=1\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n")
    assert status == 200, body
    assert guarded.sim.ledger()[0] == 1


def test_chunks_past_the_limit_are_refused_at_the_limit(guarded: Rig) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen", "Transfer-Encoding: chunked")
    piece = b"100000\r\n" + b"a" * (1 << 20) + b"\r\n"
    offered = 2 * (MAX_BODY_BYTES + socket_buffers())  # the bridge never reads on to the end
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head)
        sent = 0
        try:
            while sent < offered:
                conn.sendall(piece)
                sent += 1 << 20
        except ConnectionError:
            pass  # refused, and closed with the rest unread
        status, body = read_answer(conn)
    assert status == 400 and f"over {MAX_BODY_BYTES:,}".encode() in body
    assert sent <= MAX_BODY_BYTES + socket_buffers(), sent  # the kernel's buffers on top
    assert sent < offered  # it never read on to the end


@pytest.mark.parametrize("framing", [("Content-Length: +2",), ("Content-Length: 0x2",),
                                     ("Content-Length: 2", "Content-Length: 2"),
                                     ("Content-Length: 2", "Transfer-Encoding: chunked"),
                                     ("Transfer-Encoding: gzip, chunked",)])
def test_a_framing_python_would_read_some_way_is_refused(guarded: Rig,
                                                         framing: tuple[str, ...]) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen", *framing)
    status, body = exchange(port, head + b"{}")
    assert status == 400 and wda_error(body) == "invalid argument"
    assert guarded.sim.ledger()[0] == 0


def test_a_body_sent_too_slowly_is_answered_timeout(guarded: Rig) -> None:
    listener(guarded).request_timeout_s = 0.5
    port, head = agent_head(guarded, "POST", "/wda/homescreen", "Content-Length: 10")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(head + b"{")
        status, body = read_answer(conn)
    assert status == 408 and wda_error(body) == "timeout"
    assert guarded.sim.ledger()[0] == 0


def test_a_head_that_never_ends_is_cut_off(guarded: Rig) -> None:
    listener(guarded).head_timeout_s = 0.5
    port = urlsplit(guarded.bridge.base_url).port
    assert port is not None
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(b"GET /t/")
        assert closed_within(conn, 5) < 3


def test_a_flood_of_idle_connections_holds_no_thread(guarded: Rig) -> None:
    port = urlsplit(guarded.bridge.base_url).port
    assert port is not None
    with idle_connections(port, 300):
        wait_until(lambda: listener(guarded).waiting() == 300)
        assert listener_threads(port) == 0
        start = time.monotonic()
        assert request(guarded.bridge.url, "GET", "/status")[0] == 200
        assert time.monotonic() - start < 2


def test_an_agent_with_every_thread_stuck_leaves_the_harness_served(guarded: Rig) -> None:
    port, head = agent_head(guarded, "POST", "/wda/homescreen", "Content-Length: 100")
    stuck = POOLS["client"] * 6  # more than its threads and its queue
    with ExitStack() as stack:
        held = []
        for _ in range(stuck):
            conn = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
            conn.sendall(head)  # and never the body
            held.append(conn)
        wait_until(lambda: listener_threads(port) == POOLS["client"])
        start = time.monotonic()
        assert request(guarded.bridge.url, "GET", "/wda/activeAppInfo")[0] == 200
        assert time.monotonic() - start < 2
        assert listener_threads(port) <= POOLS["client"] + 1
        assert {read_answer(c)[0] for c in held[-POOLS["client"]:]} == {503}


@pytest.mark.parametrize("method", ["PATCH", "PUT", "TRACE", "PROPFIND", "BREW"])
def test_every_method_gets_wdas_json_error(guarded: Rig, method: str) -> None:
    port, head = agent_head(guarded, method, "/status", "Content-Length: 0")
    status, body = exchange(port, head)
    assert status == 404 and wda_error(body) == "unknown command"
    status, body = exchange(port, f"{method} /status HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 401 and wda_error(body) == "unauthorized"


def test_a_malformed_request_line_gets_wdas_json_error(guarded: Rig) -> None:
    port = urlsplit(guarded.bridge.base_url).port
    assert port is not None
    status, body = exchange(port, b"GET /status HTTP/1.1 extra\r\nHost: x\r\n\r\n")
    assert status == 400 and wda_error(body) == "invalid argument"
