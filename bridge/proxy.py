"""The bridge server: a WDA-protocol HTTP proxy in front of one phone that logs every action.

Every request (any method, path, query, body) goes upstream unchanged, and the upstream status,
body and end-to-end headers come back unchanged, WDA errors included. Actions (`actions.py`) go
through the recorder, which writes the intent before forwarding and the outcome after. The
bridge's own routes live under `/phoneshell/bridge/`, never in WDA's namespace. Binds loopback
unless told otherwise; a token, when set, is required on every request. The context routes
also need the control token, which only the runner holds: the agent is given the bridge's URL
and token, and must never be able to move its own actions to another run.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

from bridge.actions import classify
from bridge.audit_log import AuditWriteError, AuditWriter, shared_writer
from bridge.context import UNSCOPED, RunContext, context_from_json, make_context
from bridge.recorder import Recorder
from bridge.trajectory import Trajectory
from bridge.upstream import HOP_BY_HOP, ForwardError, Reply, Upstream
from phoneshell.errors import BridgeError

CONTROL_PREFIX = "/phoneshell/bridge/"
TOKEN_HEADER = "X-Phoneshell-Token"
CONTROL_TOKEN_HEADER = "X-Phoneshell-Control-Token"
"""The header carrying the control token (never a URL: URLs are handed to agents and logged)."""
TOKEN_PATH = "/t/"
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


def is_loopback(host: str) -> bool:
    """Whether an address to bind is loopback only ("localhost" counts)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class BridgeServer:
    """A logging WDA proxy for one phone; start it, point any WDA client at `.url`.

    Args:
        wda_url: the phone's WDA (`http://...` or `http+usbmux://UDID:8100`).
        host: address to bind; anything but loopback needs `allow_remote` and a `token`.
        port: port to bind (0: any free port).
        runs_dir: where run folders (and their audit.jsonl) go.
        resolve_targets: find the element under every tap (keys are always resolved).
        token: when set, every request must carry it (`/t/TOKEN/...` or X-Phoneshell-Token).
        control_token: the token the context routes need (header X-Phoneshell-Control-Token);
            keep it from the agent. Without one, those routes are refused over HTTP and the
            context is set in-process only (`set_context`).
        allow_remote: permit a non-loopback `host`.
        fsync: fsync every audit line (power-loss durability; kill -9 needs no fsync).
        writer: the audit writer to use (default: the process's writer for `runs_dir`).
        trajectory_px: when above 0, capture a screenshot at the start of each agent turn and
            after each agent action, scaled to this long edge (bridge/trajectory.py).

    Raises:
        BridgeError: a remote bind without `allow_remote` and a token, a control token equal to
            the token, or a bad WDA URL.
    """

    def __init__(self, wda_url: str, host: str = "127.0.0.1", port: int = 0,
                 runs_dir: Path = Path("runs"), resolve_targets: bool = True,
                 token: str | None = None, allow_remote: bool = False, fsync: bool = False,
                 writer: AuditWriter | None = None, control_token: str | None = None,
                 trajectory_px: int = 0) -> None:
        if not is_loopback(host) and not (allow_remote and token):
            raise BridgeError(f"refusing to bind the bridge to {host}: it would let anyone on "
                              f"the network drive the phone",
                              hint="bind 127.0.0.1, or pass --allow-remote with --token")
        if control_token and control_token == token:
            raise BridgeError("the control token is the same as the token: whoever drives the "
                              "phone could then change the run its actions are logged under",
                              hint="use a separate control token, and keep it from the agent")
        self.host, self.port, self.token = host, port, token or None
        self.control_token = control_token or None
        self.upstream = Upstream(wda_url)
        self.writer = writer or shared_writer(runs_dir, fsync)
        self.recorder = Recorder(self.upstream, self.writer, resolve_targets)
        self.trajectory = (Trajectory(self.upstream, self.writer.runs_dir, trajectory_px)
                           if trajectory_px > 0 else None)
        if self.trajectory is not None:
            self.recorder.after_action = self.trajectory.after
        self._context = UNSCOPED
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL clients use (with the token path prefix when a token is set)."""
        if self._server is None:
            raise BridgeError("the bridge is not started", hint="call start() first")
        host, port = self._server.socket.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        base = f"http://{shown}:{port}"
        return f"{base}{TOKEN_PATH}{self.token}" if self.token else base

    @property
    def context(self) -> RunContext:
        """The context stamped on the next action."""
        return self._context

    @property
    def last_foreground(self) -> str:
        """The foreground app read around the last action ("" before any)."""
        return self.recorder.last_foreground

    def set_context(self, run_id: str, task_id: str, attempt: int, phase: str) -> RunContext:
        """Log the next actions under this run, task, attempt and phase.

        Raises:
            BridgeError: a run id that is not a plain folder name, or an unknown phase.
        """
        self._context = make_context(run_id, task_id, attempt, phase)
        self._entered()
        return self._context

    def _entered(self) -> None:
        """A new context is set: with trajectory capture on, an agent's turn starts with a
        frame of the screen it is handed."""
        if self.trajectory is not None:
            self.trajectory.start(self._context, self.recorder.last_seq)

    def clear_context(self) -> None:
        """Log the next actions under the unscoped run."""
        self._context = UNSCOPED

    def health(self) -> dict[str, object]:
        """What `GET /phoneshell/bridge/health` shows."""
        return {"ready": True, "upstream": self.upstream.url,
                "last_foreground": self.recorder.last_foreground,
                "actions_logged": self.recorder.actions_logged,
                "last_seq": self.recorder.last_seq,
                "outcomes_lost": self.recorder.outcomes_lost,
                "resolve_targets": self.recorder.resolve_targets,
                "context": self._context.to_json(),
                "audit_file": str(self.writer.path_for(self._context.run_id))}

    def start(self) -> BridgeServer:
        """Bind and serve in a background thread; return self."""
        if self._server is not None:
            return self
        server = _Server((self.host.strip("[]"), self.port), _Handler, self)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={
            "poll_interval": 0.05}, name=f"bridge:{server.server_address[1]}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (the shared writer stays open for other bridges)."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> BridgeServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def authorise(self, path: str, header: str | None) -> str | None:
        """The path to serve (token prefix stripped), or None when the token is wrong."""
        if self.token is None:
            return path
        if path.startswith(TOKEN_PATH):
            given, _, rest = path[len(TOKEN_PATH):].partition("/")
            given, query_sep, query = given.partition("?")
            if hmac.compare_digest(given.encode(), self.token.encode()):
                return "/" + rest + (query_sep + query if query_sep else "")
        if header is not None and hmac.compare_digest(header.encode(), self.token.encode()):
            return path
        return None

    def control(self, method: str, route: str, body: bytes,
                control_token: str | None = None) -> Reply:
        """Serve the bridge's own routes: context (GET, POST, DELETE) and health (GET).

        Args:
            control_token: the X-Phoneshell-Control-Token header, which the context routes
                need; health does not.
        """
        route = route.split("?", 1)[0].rstrip("/")
        if route == CONTROL_PREFIX + "health" and method == "GET":
            return wda_value(self.health())
        if route != CONTROL_PREFIX + "context":
            return wda_error(404, "unknown command", f"unknown bridge route {method} {route}; "
                             f"routes: GET|POST|DELETE {CONTROL_PREFIX}context, "
                             f"GET {CONTROL_PREFIX}health")
        refused = self._refuse_control(control_token)
        if refused is not None:
            return refused
        if method == "POST":
            try:
                self._context = context_from_json(json.loads(body or b"null"))
                self._entered()
            except ValueError as exc:
                return wda_error(400, "invalid argument", f"the context is not JSON: {exc}")
            except BridgeError as exc:
                return wda_error(400, "invalid argument", exc.message)
        elif method == "DELETE":
            self.clear_context()
        elif method != "GET":
            return wda_error(405, "unknown method", f"{method} {route} is not served")
        return wda_value(self._context.to_json())

    def _refuse_control(self, given: str | None) -> Reply | None:
        """The refusal for a context request without the right control token (None: allowed)."""
        if self.control_token is None:
            return wda_error(403, "unsupported operation", "phoneshell bridge: the context "
                             "routes are off: this bridge has no control token. Start it with "
                             "one (control_token=..., or `phoneshell bridge --control-token` or "
                             "PHONESHELL_BRIDGE_CONTROL_TOKEN) and send it in the "
                             f"{CONTROL_TOKEN_HEADER} header, or set the context in-process "
                             "with BridgeServer.set_context")
        if given is None or not hmac.compare_digest(given.encode(), self.control_token.encode()):
            return wda_error(401, "unauthorized", "phoneshell bridge: the context routes need "
                             f"the control token in the {CONTROL_TOKEN_HEADER} header")
        return None

    def handle(self, method: str, path: str, body: bytes, headers: dict[str, str],
               control_token: str | None = None) -> Reply:
        """Answer one authorised request: a control route, a read, or a logged action.

        Args:
            headers: the end-to-end headers to forward (tokens already removed).
            control_token: the X-Phoneshell-Control-Token header, if sent.
        """
        if path.startswith(CONTROL_PREFIX):
            return self.control(method, path, body, control_token)
        try:
            decoded = json.loads(body) if body else None
        except ValueError:
            decoded = None  # WDA will refuse it; the route still decides whether it is logged
        action = classify(method, path, decoded)

        def forward() -> Reply:
            return self.upstream.send(method, path, body if body or method == "POST" else None,
                                      headers)
        try:
            if action is None:
                return forward()
            return self.recorder.perform(self._context, action, forward, f"{method} {path}")
        except ForwardError as exc:
            # 502 is what a gateway says when the server behind it is gone; facebook-wda raises
            # WDABadGateway for it, which no caller mistakes for the agent's own WDA error.
            hint = f" ({exc.hint})" if exc.hint else ""
            return wda_error(502, "unknown error", f"phoneshell bridge: {exc.message}{hint}")
        except AuditWriteError as exc:
            return wda_error(500, "unknown error", f"phoneshell bridge refused {method} {path}: "
                                                   f"{exc.message}; the action was NOT sent "
                                                   f"to the phone")


class _Server(ThreadingHTTPServer):
    """The HTTP server, knowing its bridge."""

    daemon_threads = True
    request_queue_size = 128  # a burst of new connections (one per facebook-wda request)

    def __init__(self, address: tuple[str, int], handler: type[_Handler],
                 bridge: BridgeServer) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)
        self.bridge = bridge

    def service_actions(self) -> None:
        """Between requests (every poll): close the audit files of runs gone quiet."""
        self.bridge.writer.close_idle()


class _Handler(BaseHTTPRequestHandler):
    """One client connection: read the request, let the bridge answer, write the reply."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _serve(self) -> None:
        try:
            body = self._read_body()
        except ValueError:
            self.close_connection = True  # the stream is out of step: drop the connection
            self._reply(wda_error(400, "invalid argument", "phoneshell bridge: bad chunked "
                                                          "request body"))
            return
        bridge = self.server.bridge
        path = bridge.authorise(self.path, self.headers.get(TOKEN_HEADER))
        if path is None:
            reply = wda_error(401, "unauthorized", "phoneshell bridge: missing or wrong token; "
                              f"use the base URL http://HOST:PORT{TOKEN_PATH}TOKEN or the "
                              f"{TOKEN_HEADER} header")
        else:
            private = {TOKEN_HEADER.lower(), CONTROL_TOKEN_HEADER.lower()}  # never forwarded
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in HOP_BY_HOP and k.lower() not in private}
            reply = bridge.handle(self.command, path, body, headers,
                                  self.headers.get(CONTROL_TOKEN_HEADER))
        self._reply(reply)

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
