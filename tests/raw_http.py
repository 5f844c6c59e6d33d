"""Raw HTTP over a socket, for tests that send what no HTTP client library would."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any


def socket_buffers() -> int:
    """The most a loopback TCP connection's two socket buffers may hold, on top of what a
    server read before it refused the rest: Linux grows them up to tcp_rmem's and tcp_wmem's
    maxima (32 MiB and 4 MiB on this machine), which a loaded machine, slower to close the
    connection, fills (8 MiB where the kernel does not say)."""
    try:
        return sum(int(Path(f"/proc/sys/net/ipv4/tcp_{side}").read_text().split()[2])
                   for side in ("rmem", "wmem"))
    except (OSError, IndexError, ValueError):
        return 8 << 20


def read_answer(conn: socket.socket) -> tuple[int, bytes]:
    """The answer on a connection the server closes after it: (status, body)."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def exchange(port: int, data: bytes, timeout_s: float = 10.0) -> tuple[int, bytes]:
    """Send `data` to 127.0.0.1:`port` and read the whole answer: (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as conn:
        conn.sendall(data)
        return read_answer(conn)


def wda_error(body: bytes) -> Any:
    """The `value.error` of a WDA error body (fails the test when it is not one)."""
    return json.loads(body)["value"]["error"]


@contextmanager
def idle_connections(port: int, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections to the port that send nothing, closed after."""
    with ExitStack() as stack:
        held = [stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
                for _ in range(count)]
        yield held


def listener_threads(port: int) -> int:
    """Threads serving requests of the listener on `port` now."""
    return sum(1 for t in threading.enumerate() if t.name == f"http:{port}")


def closed_within(conn: socket.socket, timeout_s: float) -> float:
    """How long the server took to close a connection that sent no whole request (fails the
    test past `timeout_s`)."""
    start = time.monotonic()
    conn.settimeout(timeout_s)
    try:
        while conn.recv(65536):
            pass
    except ConnectionResetError:
        pass  # closed with bytes unread: closed all the same
    return time.monotonic() - start


def wait_until(probe: Callable[[], bool], timeout_s: float = 5.0) -> None:
    """Poll until `probe()` holds (fails the test after `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    while not probe():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)
