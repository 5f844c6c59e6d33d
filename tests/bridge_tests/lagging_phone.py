"""A real phone's timing in front of the simulated iPhone (red team 63's lag proxy, as a fake).

A real phone answers a tap once XCTest has synthesised it; what the tap does (an app opening, a
page sliding in, a menu or an alert appearing) finishes afterwards, and a page source read
meanwhile still shows the screen from before. The simulator acts at once. `LaggingPhone` is a
real HTTP proxy speaking WDA in front of it: after each input, until `catch_up()` (the
transition has ended) or `lag_s` has passed, it answers page sources (XML and JSON) and
`/wda/activeAppInfo` with what they showed just before that input; everything else passes
through. Tests end the lag with `catch_up()` instead of sleeping.
"""

from __future__ import annotations

import http.client
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import urlsplit

from phoneshell.wda_routes import find_route, is_input

Answer = tuple[int, list[tuple[str, str]], bytes]
LAGGING = ("/source", "/wda/activeAppInfo")
"""The reads a phone mid-transition answers with the screen before (by route pattern)."""
DROPPED_HEADERS = ("transfer-encoding", "connection", "content-length")


class LaggingPhone:
    """The proxy: `url` is the phone's WDA as a client sees it (stop it with `stop()` or `with`).

    Args:
        wda_url: the simulator's URL (a path prefix, such as its secret, is kept).
        lag_s: how long after an input reads still show the screen before it, at most.
    """

    def __init__(self, wda_url: str, lag_s: float = 30.0) -> None:
        parts = urlsplit(wda_url)
        self._netloc, self._prefix = parts.netloc, parts.path.rstrip("/")
        self.lag_s = lag_s
        self.stale_reads = 0
        """Reads answered with the screen from before the last input."""
        self._until = 0.0
        self._before: dict[str, Answer] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="lagging-phone")
        self._thread.start()

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT (no path)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def catch_up(self) -> None:
        """The transition has ended: reads show the phone as it is from now on."""
        with self._lock:
            self._until = 0.0

    def stop(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> LaggingPhone:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def send(self, method: str, path: str, body: bytes | None,
             headers: dict[str, str]) -> Answer:
        """Forward one request to the simulator (`path`: as the client sent it)."""
        conn = http.client.HTTPConnection(self._netloc, timeout=60)
        try:
            conn.request(method, self._prefix + path, body=body, headers=headers)
            reply = conn.getresponse()
            data = reply.read()
            kept = [(k, v) for k, v in reply.getheaders() if k.lower() not in DROPPED_HEADERS]
            return reply.status, kept, data
        finally:
            conn.close()

    def answer(self, method: str, path: str, body: bytes | None,
               headers: dict[str, str]) -> Answer:
        """What the phone answers now: an input is forwarded (the screen before it kept, when no
        transition is under way); a lagging read answered with the screen before."""
        segments = tuple(p for p in path.split("?", 1)[0].split("/") if p)
        route = find_route(method, segments)
        if route is not None and is_input(method, route.pattern):
            with self._lock:
                if time.monotonic() >= self._until:  # what the screen shows before the input
                    self._before = {q: self.send("GET", q, None, {}) for q in (
                        "/source", "/source?format=json", "/wda/activeAppInfo")}
                sent = self.send(method, path, body, headers)
                self._until = time.monotonic() + self.lag_s
                return sent
        if method == "GET" and route is not None and route.pattern in LAGGING:
            query = "/source?format=json" if "format=json" in path else (
                "/source" if route.pattern == "/source" else route.pattern)
            with self._lock:
                if time.monotonic() < self._until and query in self._before:
                    self.stale_reads += 1
                    return self._before[query]
        return self.send(method, path, body, headers)


def _handler(phone: LaggingPhone) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _go(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() in ("content-type", "accept")}
            status, kept, data = phone.answer(self.command, self.path, body, headers)
            self.send_response(status)
            for key, value in kept:
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = _go

    return Handler
