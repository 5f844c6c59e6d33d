"""The bridge's HTTP plumbing: read a request, ask the bridge what to answer, write the reply.

One request per connection; nothing here decides anything about the phone or the log.
"""

from __future__ import annotations

import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

from bridge.access import TOKEN_HEADER, TOKEN_PATH
from bridge.gate import MAX_BODY_BYTES
from bridge.upstream import Reply

if TYPE_CHECKING:
    from bridge.proxy import BridgeServer

CONTROL_TOKEN_HEADER = "X-Phoneshell-Control-Token"
"""The header carrying the control token (never a URL: URLs are handed to agents and logged)."""
JSON_TYPE = "application/json;charset=UTF-8"


def wda_error(status: int, error: str, message: str) -> Reply:
    """A reply in WDA's error shape, which every WDA client knows how to raise."""
    body = json.dumps({"value": {"error": error, "message": message, "traceback": ""},
                       "sessionId": None}).encode()
    return Reply(status, "", (("Content-Type", JSON_TYPE),), body)


def wda_value(value: object) -> Reply:
    """A 200 reply in WDA's envelope (for the bridge's own routes)."""
    body = json.dumps({"value": value, "sessionId": None}).encode()
    return Reply(200, "OK", (("Content-Type", JSON_TYPE),), body)


class BridgeHTTPServer(ThreadingHTTPServer):
    """The HTTP server, knowing its bridge."""

    daemon_threads = True
    request_queue_size = 128  # a burst of new connections (one per facebook-wda request)

    def __init__(self, address: tuple[str, int], bridge: BridgeServer) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)
        self.bridge = bridge

    def service_actions(self) -> None:
        """Between requests (every poll): close the audit files of runs gone quiet."""
        self.bridge.writer.close_idle()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went before its answer came (an agent's process stopped at the end of
        its turn, with requests still waiting) is no error of the bridge's: what it sent is in
        the log already. Anything else is reported as the standard library does, on stderr."""
        if isinstance(sys.exc_info()[1], ConnectionError):  # broken pipe, reset, aborted
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Handler(BaseHTTPRequestHandler):
    """One client connection: read the request, let the bridge answer, write the reply."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: BridgeHTTPServer

    def _read_body(self) -> bytes:
        """The whole body, at most `MAX_BODY_BYTES` (ValueError past that, or when malformed)."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks: list[bytes] = []
            total = 0
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                total += size
                if total > MAX_BODY_BYTES:
                    raise ValueError(f"a body over {MAX_BODY_BYTES:,} bytes")
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            raise ValueError(f"a body of {length:,} bytes, over {MAX_BODY_BYTES:,}")
        return self.rfile.read(length) if length > 0 else b""

    def _serve(self) -> None:
        bridge = self.server.bridge
        # Who it is first: a stranger's body is never read (it could be any size).
        admitted = bridge.access.admit(self.path, self.headers.get(TOKEN_HEADER))
        if admitted is None:
            self.close_connection = True
            self._reply(wda_error(401, "unauthorized", "phoneshell bridge: missing or wrong "
                                  f"token; use the base URL http://HOST:PORT{TOKEN_PATH}TOKEN "
                                  f"or the {TOKEN_HEADER} header"))
            return
        try:
            body = self._read_body()
        except ValueError as exc:
            self.close_connection = True  # the stream is out of step: drop the connection
            self._reply(wda_error(400, "invalid argument", f"phoneshell bridge: bad request "
                                                          f"body ({exc})"))
            return
        private = {TOKEN_HEADER.lower(), CONTROL_TOKEN_HEADER.lower()}  # never forwarded
        headers = {k: v for k, v in self.headers.items() if k.lower() not in private}
        self._reply(bridge.handle(self.command, admitted, body, headers,
                                  self.headers.get(CONTROL_TOKEN_HEADER)))

    def _reply(self, reply: Reply) -> None:
        # One request per connection, as WDA clients use it: facebook-wda opens a connection per
        # request and never closes it, so a kept-alive one would hold a server thread until the
        # client's garbage collector ran.
        self.close_connection = True
        self.send_response_only(reply.status, reply.reason or None)
        self.send_header("Connection", "close")
        for name, value in reply.headers:
            self.send_header(name, value)
        if self.command == "HEAD":
            self.end_headers()
            return
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
        """Stay quiet: the audit log is the record, and stderr belongs to the CLI."""

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = _serve
