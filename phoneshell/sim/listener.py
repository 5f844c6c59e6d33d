"""The simulated iPhone's HTTP listener: read a request, let `SimServer.dispatch` answer it.

Bounded as `phoneshell.guarded_http` says, because any local process, an agent's included, can
find the port even when it lacks the secret: idle and slow connections cost no thread and are
cut off, and requests under the secret (the harness's and its bridge's) have threads of their
own that no stranger can use up. Every method reaches the router, so one WDA does not route
gets WDA's `unknown command`, as a phone answers it. Answers carry WDA's `Server` and CORS
headers (`WDA_HEADERS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from phoneshell.guarded_http import (
    BadRequest,
    GuardedHandler,
    GuardedHTTPServer,
    TooLarge,
    read_body,
)
from phoneshell.sim.wire import MAX_BODY, Reply, WdaError

if TYPE_CHECKING:
    from phoneshell.sim.server import SimServer

NOT_FOUND = Reply(404, b"not found\n", "text/plain; charset=utf-8")
"""What a simulator with a secret answers a path outside it: nothing a WDA client knows."""
POOLS = {"inside": 64, "outside": 8}
"""Threads requests may use at once: those under the secret (all of them, on a simulator
without one) and the rest, which only ever get `NOT_FOUND`."""


class SimHTTPServer(GuardedHTTPServer):
    """The HTTP server, knowing its simulator."""

    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], sim: SimServer) -> None:
        self.sim = sim
        super().__init__(address, _Handler, POOLS, self._pool)

    def _pool(self, method: str, target: str, headers: Mapping[str, str]) -> str:
        path = self.sim.inside_secret(urlsplit(target).path)
        if path is None:
            return "outside"
        # counted here, on the one thread that reads heads, in the order they arrive: a
        # request sent before a read of the counts is in them (`SimServer.arrived`)
        self.sim.arrived(method, path)
        return "inside"


WDA_HEADERS = (("Access-Control-Allow-Origin", "*"),
               ("Access-Control-Allow-Headers", "Content-Type, X-Requested-With"))
"""The default headers WDA's `FBWebServer startHTTPServer` sets on every answer (with `Server`)."""


class _Handler(GuardedHandler):
    # WDA names itself in `Server` (not Python's BaseHTTP). The status line stays HTTP/1.0,
    # where WDA's CocoaHTTPServer says HTTP/1.1 and keeps connections open: one request a
    # connection is what the guarded server's per-request deadlines rest on.
    server: SimHTTPServer
    server_version = "WebDriverAgent/1.0"

    def version_string(self) -> str:
        """The `Server` header: WDA's, with no Python version after it."""
        return self.server_version

    def send_response(self, code: int, message: str | None = None) -> None:
        """The status line and WDA's default headers, on every answer (errors too)."""
        super().send_response(code, message)
        for name, value in WDA_HEADERS:
            self.send_header(name, value)

    def answer(self) -> None:
        """Every method: WDA's router answers one it does not know with `unknown command`."""
        url = urlsplit(self.path)
        sim = self.server.sim
        path = sim.inside_secret(url.path)
        try:
            # Read before the phone's lock is taken; each answer closes its connection, so a
            # body refused unread leaves no bytes behind for a next request.
            raw = read_body(self.headers, self.rfile, MAX_BODY, drain=True)
        except BadRequest as exc:
            message = (f"Request body exceeds the configured limit of {MAX_BODY} bytes"
                       if isinstance(exc, TooLarge) else str(exc))
            reply = NOT_FOUND if path is None else Reply.error(
                WdaError(exc.error, message), sim.endpoints.reported_session())
        else:
            reply = NOT_FOUND if path is None else sim.dispatch(
                self.command, path.rstrip("/") or "/", dict(parse_qsl(url.query)), raw)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base signature
        """Stay quiet: a harness polls the phone many times a second."""
