"""urllib's HTTP and HTTPS with one deadline for a whole exchange: connecting, sending the
request, and reading the status line, the headers and the body. Reaches only the URL it is
given; never retries.

A socket's timeout holds for one read or one write, and each byte that comes resets it: a peer
that sends its status line or headers (a header line may be 64 KiB, and there may be a hundred)
a byte just inside the timeout holds a plain `urlopen` for as long as it likes (red team 112:
a 20 s attempt took 150 s, as long as its endpoint chose to trickle). Here every read and
every write waits at most what is left of the deadline, and none starts once it has passed: it
raises `TimeoutError` (urllib wraps one raised while connecting or sending in a `URLError`).
The name lookup is the system resolver's, bounded by its own timeouts, not by the deadline.
"""

from __future__ import annotations

import http.client
import io
import socket
import time
import urllib.request
from typing import Any, cast

SEND_CHUNK = 1 << 16
"""How much of a request one write sends: a TLS socket's `sendall` gives each of its writes the
whole timeout, so a request is sent in pieces, each within what is left."""


def open_by(request: urllib.request.Request, deadline: float) -> http.client.HTTPResponse:
    """Send `request` and return its reply (urllib's: an error status raises `HTTPError`),
    every read of which, its body's and an error's body's too, ends by `deadline` (a
    `time.monotonic()` time).

    Raises:
        TimeoutError: the status line and headers had not all come by the deadline.
        urllib.error.URLError: no connection, or the request not sent, by the deadline (its
            reason a `TimeoutError`) or at all.
    """
    handlers = _HTTPHandler(), _HTTPSHandler()
    for handler in handlers:
        handler.deadline = deadline
    opener = urllib.request.build_opener(*handlers)
    return cast(http.client.HTTPResponse, opener.open(request, timeout=_left(deadline)))


def _left(deadline: float) -> float:
    """The seconds left before `deadline`; none left raises `TimeoutError`."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("timed out")
    return left


class _DeadlineSocket:
    """A connected socket (plain or TLS) whose every read and write ends by the deadline; all
    else is the socket's own."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def sendall(self, data: Any) -> None:
        """Send all of `data`, each piece within what is left of the deadline."""
        with memoryview(data) as view, view.cast("B") as octets:
            for start in range(0, len(octets), SEND_CHUNK):
                self._sock.settimeout(_left(self._deadline))
                self._sock.sendall(octets[start:start + SEND_CHUNK])

    def makefile(self, mode: str = "r", *args: Any, **kwargs: Any) -> io.BufferedReader:
        """What `HTTPResponse` reads the reply from (`"rb"`): buffered, each read of the socket
        within what is left of the deadline."""
        if mode != "rb":
            raise ValueError(f"only \"rb\" is read here, not {mode!r}")
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _DeadlineReader(io.RawIOBase):
    """The socket's own reader (which holds the socket open until it is closed, as
    `HTTPResponse` needs once urllib closes the connection), each read within what is left."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        self._sock.settimeout(_left(self._deadline))
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _DeadlineHTTP(http.client.HTTPConnection):
    """A connection made, and then read and written, by one deadline."""

    def __init__(self, host: str, *, deadline: float, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.deadline = deadline

    def connect(self) -> None:
        self.timeout = _left(self.deadline)  # TCP's connect and TLS's handshake: one wait each
        super().connect()
        self.sock = _DeadlineSocket(self.sock, self.deadline)


class _DeadlineHTTPS(_DeadlineHTTP, http.client.HTTPSConnection):
    """As `_DeadlineHTTP`, over TLS (`HTTPSConnection.connect` wraps the socket first)."""


class _HTTPHandler(urllib.request.HTTPHandler):
    deadline = 0.0

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        # typeshed's protocol for the class names only HTTPConnection's own keywords
        return self.do_open(cast(Any, _DeadlineHTTP), req, deadline=self.deadline)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    deadline = 0.0

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        # no context given: HTTPSConnection makes the default one (certificates checked)
        return self.do_open(cast(Any, _DeadlineHTTPS), req, deadline=self.deadline)
