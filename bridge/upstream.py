"""Talk to the WDA behind the bridge: forward a request byte for byte, and read JSON values.

Upstream URLs are `http://host:port[/prefix]`, `https://...` or `http+usbmux://UDID:8100`
(through facebook-wda's usbmux helper, imported only for that scheme). One connection per
request, as facebook-wda itself does: a kept-alive connection that the phone closed while idle
would force a choice between losing a tap and sending it twice. Transport failures become
`BridgeError`s naming the upstream (`errors.shown_url`: scheme, host and port, never the path a
harness-started simulator keeps its fault and reset routes under) and the request: `UpstreamDown`
when WDA did not answer (`refused` when nothing listens), its parent `ForwardError` when the
request could not be sent at all. Each also carries `shown`, what a client other than the harness
is told: the request and the failure in words of ours, not even the host.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from phoneshell.errors import (
    CLOSED_UNANSWERED,
    BridgeError,
    nothing_listens,
    shown_url,
    without_url,
)
from phoneshell.wda_routes import find_route, route_name

FORWARD_TIMEOUT_S = 180.0
"""facebook-wda's own default: a launch or a slow source may legitimately take long."""
READ_TIMEOUT_S = 30.0
"""For the bridge's own reads (foreground, source, element rect)."""
SESSION_NOTE_MAX = 16_384
"""The largest answer read for the session it names (an action's answer is under 100 bytes)."""

# Per-hop headers (RFC 9110 §7.6.1) plus the ones http.client sets itself.
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                        "te", "trailer", "transfer-encoding", "upgrade", "host",
                        "content-length"})


class ForwardError(BridgeError):
    """A request got no answer from WDA: it could not be sent, or forwarding it failed.

    Args:
        message: the whole story, for the harness: WDA's URL (a harness-started simulator's
            holds its secret), the request, the transport's own words.
        shown: what anyone else may be told: the request and what went wrong, never the URL
            or the transport's words (an encoding error quotes the whole URL path).
        refused: nothing listens: the connection was refused, or closed before any answer
            (`errors.nothing_listens`; only an `UpstreamDown` says so); False: no answer in
            time, a failure of another kind, or nothing sent.
    """

    def __init__(self, message: str, hint: str = "", shown: str = "",
                 refused: bool = False) -> None:
        super().__init__(message, hint)
        self.shown = shown or "forwarding the request to the phone failed"
        self.refused = refused


class UpstreamDown(ForwardError):
    """WDA did not answer a request at all (refused, reset, timed out, usbmux failure)."""


@dataclass(frozen=True)
class Reply:
    """An upstream answer as received: status, reason, end-to-end headers and the whole body."""

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def json_value(self) -> object:
        """The `value` of a WDA envelope (None when the body is not one)."""
        try:
            data = json.loads(self.body)
        except ValueError:
            return None
        return data.get("value") if isinstance(data, dict) else None


class Upstream:
    """The WDA a bridge forwards to.

    Args:
        url: the WDA base URL.
    """

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "http+usbmux") or not parts.netloc:
            raise BridgeError(f"unsupported WDA URL {url!r}",
                              hint="use http://HOST:PORT or http+usbmux://UDID:8100")
        self.url = url.rstrip("/")
        self.shown = shown_url(self.url)
        """How messages name this WDA (never its path)."""
        self._origin = f"{parts.scheme}://{parts.netloc}"
        self._prefix = parts.path.rstrip("/")
        self.session_id: str | None = None
        """The session WDA's last small answer named active (None: none, or no answer yet).
        WDA puts the active id at the top of every answer, so the bridge's own answers carry
        it too (`http_server.OwnReply`)."""
        self._sent: Counter[str] = Counter()
        self._settled: Counter[str] = Counter()
        self._books = threading.Lock()  # requests are sent on many threads

    def requests_sent(self, settled: bool = False) -> Counter[str]:
        """How many WDA requests were sent to the phone so far, by route ("GET /source": n),
        named as phoneshell's simulator counts those it receives (`wda_routes.route_name`, `GET
        /phoneshell/sim/requests`): every one that set out, the bridge's own reads as much as
        what it forwards; what the runner holds that witness against (`runner.around`).

        Args:
            settled: only those that can no longer reach the phone: answered, or never sent.
                One that got no answer (timed out, reset) never settles: it may still arrive.
        """
        with self._books:
            return Counter(self._settled if settled else self._sent)

    def _count(self, method: str, target: str) -> str:
        route = route_name(method, find_route(
            method, tuple(p for p in urlsplit(target).path.split("/") if p)))
        with self._books:
            self._sent[route] += 1
        return route

    def _settle(self, route: str) -> None:
        with self._books:
            self._settled[route] += 1

    def _connect(self, timeout_s: float) -> http.client.HTTPConnection:
        if self._origin.startswith("http+usbmux://"):
            # the usbmux client, as facebook-wda's http_create uses it; only real phones need it
            from wda.usbmux.pyusbmux import select_device

            udid, port = self._origin[len("http+usbmux://"):].rsplit(":", 1)
            device = select_device(udid)
            if device is None:  # unplugged (http_create would fail on the None)
                raise ConnectionRefusedError(f"usbmuxd lists no phone {udid}")
            conn: http.client.HTTPConnection = device.make_http_connection(int(port))
        elif self._origin.startswith("https://"):
            conn = http.client.HTTPSConnection(self._origin[len("https://"):])
        else:
            conn = http.client.HTTPConnection(self._origin[len("http://"):])
        conn.timeout = timeout_s
        return conn

    def send(self, method: str, target: str, body: bytes | None,
             headers: Mapping[str, str], timeout_s: float = FORWARD_TIMEOUT_S,
             counted: bool = True) -> Reply:
        """Send one request (path and query as given) and read the whole answer; `counted`:
        False for one that is no WDA request (the simulator's control routes, which it does
        not count either), left out of `requests_sent`.

        Raises:
            UpstreamDown: no answer (refused, reset, timed out, usbmux failure).
            ForwardError: the request could not be encoded, so nothing was sent.
        """
        conn = route = None
        try:
            conn = self._connect(timeout_s)
            # counted before it is sent: the phone may note it before this thread goes on
            route = self._count(method, target) if counted else None
            conn.request(method, self._prefix + target, body=body, headers=dict(headers))
            response = conn.getresponse()
            data = response.read()
            kept = tuple((k, v) for k, v in response.getheaders()
                         if k.lower() not in HOP_BY_HOP)
            if route is not None:
                self._settle(route)
                self._note_session(data)
            return Reply(response.status, response.reason, kept, data)
        except ValueError as exc:
            if route is not None:
                self._settle(route)  # refused before a byte was sent: it can never arrive
            # http.client refuses, before sending a byte, a request it cannot encode: a path
            # that is not ASCII (a client that did not percent-encode it) or a bad header.
            raise ForwardError(f"cannot send {method} {target!r} to WDA at {self.shown}: "
                               f"{without_url(str(exc), self.url)}",
                               hint="the client sent a path or header HTTP cannot carry; "
                                    "percent-encode non-ASCII paths",
                               shown=f"cannot send {method} {target[:200]!r}: its path or a header "
                                     "is not one HTTP can carry (percent-encode non-ASCII "
                                     "paths)") from exc
        except (OSError, http.client.HTTPException) as exc:
            raise self._down(method, target, exc, "is WDA running at that URL?") from exc
        except Exception as exc:  # noqa: BLE001 - usbmux raises its own (MuxError and kin)
            if type(exc).__module__.startswith("wda."):
                raise self._down(method, target, exc,
                                 "is the phone connected and WDA started?") from exc
            raise
        finally:
            if conn is not None:
                conn.close()

    def _note_session(self, body: bytes) -> None:
        """Keep the session an answer names active: an action's and most reads' (an answer
        over `SESSION_NOTE_MAX` bytes, a source or a screenshot, is not read for it)."""
        if len(body) > SESSION_NOTE_MAX:
            return
        try:
            data = json.loads(body)
        except ValueError:
            return
        if isinstance(data, dict) and "sessionId" in data:
            found = data["sessionId"]
            if found is None or isinstance(found, str):
                self.session_id = found

    def _down(self, method: str, target: str, exc: Exception, ask: str) -> UpstreamDown:
        """WDA's silence to a request, as the harness is told it and as a client is
        (`no_answer`); `ask` is the hint's question."""
        return UpstreamDown(f"no answer from WDA at {self.shown} to {method} {target}: "
                            f"{why_no_answer(exc)} ({without_url(str(exc), self.url)})",
                            hint=f"{ask} `phoneshell doctor` checks the chain",
                            shown=no_answer(method, target, exc), refused=nothing_listens(exc))

    def read(self, target: str, timeout_s: float = READ_TIMEOUT_S) -> object:
        """GET a WDA route and return its `value`.

        Raises:
            BridgeError: no answer, or an answer that is an error or not a WDA envelope.
        """
        reply = self.send("GET", target, None, {}, timeout_s)
        value = reply.json_value()
        if reply.status >= 400 or (isinstance(value, dict) and value.get("error")):
            raise BridgeError(f"WDA at {self.shown} answered GET {target} with HTTP "
                              f"{reply.status}: {reply.body[:200]!r}")
        return value


def no_answer(method: str, target: str, exc: Exception) -> str:
    """What a client is told when WDA did not answer: the request and the kind of failure,
    in words of ours (never the exception's, which may quote the URL)."""
    return (f"no answer from the phone's WDA to {method} {target.split('?', 1)[0][:200]}: "
            f"{why_no_answer(exc)}")


def why_no_answer(exc: Exception) -> str:
    """The kind of a transport failure, in words of ours."""
    if isinstance(exc, TimeoutError):
        return "it timed out"
    if isinstance(exc, ConnectionRefusedError):
        return "the connection was refused"
    if isinstance(exc, CLOSED_UNANSWERED):
        return "the connection closed before an answer came"
    if isinstance(exc, http.client.HTTPException):
        return "its answer was not HTTP"
    if isinstance(exc, OSError):
        return f"the connection failed ({type(exc).__name__})"
    return "the phone could not be reached over USB"


SIM_STATUS_KEYS = ("simulated", "instance")
"""What phoneshell's simulated iPhone adds to WDA's `/status` for the harness (that it is one,
and which): no real WDA says either."""


def as_a_phone_answers(reply: Reply) -> Reply:
    """A `/status` reply as a real phone's WDA would give it: without `SIM_STATUS_KEYS`, so an
    agent cannot tell the simulated iPhone by asking (and take shortcuts only it allows)."""
    try:
        data = json.loads(reply.body)
    except ValueError:
        return reply
    value = data.get("value") if isinstance(data, dict) else None
    if not isinstance(value, dict) or not any(key in value for key in SIM_STATUS_KEYS):
        return reply
    data["value"] = {k: v for k, v in value.items() if k not in SIM_STATUS_KEYS}
    pretty = reply.body.startswith(b"{\n")  # written back as it came: its layout is no tell
    body = json.dumps(data, indent=2 if pretty else None, ensure_ascii=False).encode()
    headers = tuple((k, str(len(body)) if k.lower() == "content-length" else v)
                    for k, v in reply.headers)
    return Reply(reply.status, reply.reason, headers, body)
