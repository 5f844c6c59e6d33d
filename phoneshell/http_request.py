"""The request side of `guarded_http`'s server: what a connection has sent (`Arrival`), its
body read strictly (`read_body`), WDA's error shape, and the handler that serves one request a
connection under the request's deadlines (`GuardedHandler`).

The body's framing is read strictly: a Content-Length of digits only, chunk sizes of hex digits
only, at most `max_bytes` read in all, chunk lines and trailers bounded. Every method, one the
handler routes or not, and every malformed request is answered in WDA's JSON error shape, never
the standard library's HTML page.
"""

from __future__ import annotations

import io
import json
import re
import socket
import time
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler
from typing import Any

LINE_MAX_BYTES = 4096
"""The longest chunk-size line (with its extensions) or trailer line of a chunked body."""
TRAILERS_MAX_BYTES = 16 * 1024
"""The most trailer bytes after a chunked body."""
JSON_TYPE = "application/json;charset=UTF-8"
ERROR_NAMES = {400: "invalid argument", 404: "unknown command", 405: "unknown method",
               408: "timeout"}
"""WDA's error names for the HTTP codes the server answers itself (other 4xx: `invalid
argument`, 5xx: `unknown error`)."""

_HEX = re.compile(rb"[0-9A-Fa-f]+")
_DIGITS = re.compile(r"[0-9]+")


def error_name(status: int) -> str:
    """WDA's error name for an HTTP status the server answers itself."""
    return ERROR_NAMES.get(status, "unknown error" if status >= 500 else "invalid argument")


def wda_error_body(error: str, message: str) -> bytes:
    """A body in WDA's error shape, which every WDA client knows how to raise."""
    return json.dumps({"value": {"error": error, "message": message, "traceback": ""},
                       "sessionId": None}, indent=2).encode()


class BadRequest(ValueError):
    """A request whose body cannot be taken, with the HTTP status and WDA error to answer."""

    def __init__(self, message: str, status: int = 400, error: str = "invalid argument") -> None:
        super().__init__(message)
        self.status, self.error = status, error


class TooLarge(BadRequest):
    """A body over the limit: `size` is its Content-Length (None: chunked, so only known to be
    over)."""

    def __init__(self, size: int | None, limit: int) -> None:
        shown = f"a body of {size:,} bytes" if size is not None else "a body"
        super().__init__(f"{shown} over {limit:,}")
        self.size, self.limit = size, limit


def read_body(headers: Message, rfile: io.BufferedIOBase, max_bytes: int, *,
              drain: bool = False) -> bytes:
    """A request's whole body, framed by Content-Length or chunked, read strictly.

    Args:
        drain: read and drop a body whose Content-Length is over `max_bytes` before refusing it
            (as WDA does), rather than refusing it unread.

    Raises:
        BadRequest: ambiguous or malformed framing, a body cut short, or one that did not arrive
            by its deadline (408 `timeout`); `TooLarge` for one over `max_bytes`.
    """
    codings = headers.get_all("Transfer-Encoding") or []
    lengths = headers.get_all("Content-Length") or []
    try:
        if codings:
            if lengths:
                raise BadRequest("both Transfer-Encoding and Content-Length: the body's end is "
                                 "ambiguous")
            if [c.strip().lower() for c in ",".join(codings).split(",")] != ["chunked"]:
                raise BadRequest(f"Transfer-Encoding {', '.join(codings)[:60]!r}: only chunked "
                                 "is taken")
            return _read_chunked(rfile, max_bytes)
        if len(lengths) > 1:
            raise BadRequest("more than one Content-Length")
        count = (lengths[0] if lengths else "0").strip(" \t")
        if not (_DIGITS.fullmatch(count) and len(count) < 19):
            raise BadRequest(f"Content-Length {count[:40]!r} is not a count of bytes")
        size = int(count)
        if size > max_bytes:
            if drain:
                left = size
                while left > 0 and (piece := rfile.read(min(left, 1 << 20))):
                    left -= len(piece)
            raise TooLarge(size, max_bytes)
        data = rfile.read(size)
        if len(data) < size:
            raise BadRequest(f"the body ended after {len(data):,} of its {size:,} bytes")
        return data
    except TimeoutError as exc:  # `_Reader` says what took too long
        raise BadRequest(str(exc), 408, "timeout") from exc


def _read_chunked(rfile: io.BufferedIOBase, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        line = _line(rfile, "chunk size")
        # chunk-size [ BWS ";" chunk-ext ]: the size is hex digits and nothing else
        size_text = line.split(b";", 1)[0].rstrip(b" \t")
        if not _HEX.fullmatch(size_text):
            raise BadRequest(f"chunk size {size_text[:40]!r} is not hex digits")
        size = int(size_text, 16)
        if size > max_bytes - total:
            raise TooLarge(None, max_bytes)
        if size == 0:
            break
        data = rfile.read(size)
        if len(data) < size:
            raise BadRequest("the body ended inside a chunk")
        if _line(rfile, "chunk end"):
            raise BadRequest("a chunk is longer than its size says")
        chunks.append(data)
        total += size
    trailers = 0
    while line := _line(rfile, "trailer"):
        trailers += len(line)
        if trailers > TRAILERS_MAX_BYTES:
            raise BadRequest(f"trailers over {TRAILERS_MAX_BYTES:,} bytes")
    return b"".join(chunks)


def _line(rfile: io.BufferedIOBase, what: str) -> bytes:
    """One line of a chunked body, without its line end."""
    line = rfile.readline(LINE_MAX_BYTES + 1)
    if not line.endswith(b"\n"):
        raise BadRequest(f"a {what} line over {LINE_MAX_BYTES:,} bytes"
                         if len(line) > LINE_MAX_BYTES else f"the body ended before a {what}")
    return line[:-2] if line.endswith(b"\r\n") else line[:-1]


@dataclass
class Arrival:
    """A connection taken, and what it has sent so far."""

    sock: socket.socket
    address: Any
    taken_at: float
    """`time.monotonic()` when it was taken; the head's deadline runs from here."""
    head: bytearray = field(default_factory=bytearray)
    deadline: float = 0.0
    """When the rest of the request must have arrived (set when a thread takes it up)."""


class _Reader(io.RawIOBase):
    """The head already read, then the socket, until the request's deadline."""

    def __init__(self, arrival: Arrival, timeout_s: float) -> None:
        self._sock = arrival.sock
        self._pending = memoryview(bytes(arrival.head))
        self._deadline = arrival.deadline
        self._late = f"the request was not whole {timeout_s:g} s after it was taken up"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._pending:
            n = min(len(buffer), len(self._pending))
            buffer[:n] = self._pending[:n]
            self._pending = self._pending[n:]
            return n
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(self._late)
        self._sock.settimeout(left)
        try:
            return self._sock.recv_into(buffer)
        except TimeoutError as exc:
            raise TimeoutError(self._late) from exc


class _Writer(io.BufferedIOBase):
    """The socket, each write taken within `timeout_s`."""

    def __init__(self, sock: socket.socket, timeout_s: float) -> None:
        self._sock = sock
        self._timeout_s = timeout_s

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._sock.settimeout(self._timeout_s)
        self._sock.sendall(data)
        with memoryview(data) as view:
            return view.nbytes


class GuardedHandler(BaseHTTPRequestHandler):
    """Serve one request a connection with `answer`, whatever its method.

    Subclasses implement `answer`; errors the standard library answers itself (a malformed
    request line, a head too long) come in WDA's JSON error shape too.
    """

    def setup(self) -> None:
        """Read from the head already taken, then the socket, under the request's deadlines."""
        arrival: Arrival = self.request
        self.connection = arrival.sock
        if self.disable_nagle_algorithm:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
        server: Any = self.server  # a GuardedHTTPServer: its deadlines
        self.rfile = io.BufferedReader(_Reader(arrival, server.request_timeout_s))
        self.wfile = _Writer(arrival.sock, server.write_timeout_s)

    def handle(self) -> None:
        """One request, then the connection closes."""
        self.close_connection = True
        self.handle_one_request()

    def answer(self) -> None:
        """Answer the request parsed into `command`, `path` and `headers`."""
        raise NotImplementedError

    def __getattr__(self, name: str) -> Any:
        # The standard library looks up do_<METHOD> and answers 501 in HTML when it is missing;
        # WDA routes every method, answering one it does not know with `unknown command`.
        if name.startswith("do_"):
            return self.answer
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """Answer an error the standard library found, in WDA's shape."""
        text = message or self.responses.get(code, ("error",))[0]
        body = wda_error_body(error_name(code), text)
        self.close_connection = True
        # A request line too broken to name its version is taken as HTTP/0.9, which has no
        # status line: no client of WDA's speaks that, and every one needs the status.
        self.request_version = self.protocol_version
        self.send_response(code)
        self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Connection", "close")
        if self.command == "HEAD" or code < 200 or code in (204, 304):
            self.end_headers()
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
