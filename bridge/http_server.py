"""The bridge's HTTP plumbing: read a request, ask the bridge what to answer, write the reply.

One request per connection; nothing here decides anything about the phone or the log. Any
local process can connect, so the listener is bounded (`phoneshell.guarded_http`): idle or slow
connections cost no thread and are cut off, and the harness's requests have threads of their
own that no agent can use up.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import TYPE_CHECKING

from bridge.access import TOKEN_HEADER, TOKEN_PATH, Admitted
from bridge.body_budget import BodyBudget
from bridge.context import RunContext
from bridge.gate import MAX_BODY_BYTES, Refused
from bridge.upstream import Reply
from phoneshell.guarded_http import (
    BadRequest,
    GuardedHandler,
    GuardedHTTPServer,
    TooLarge,
    read_body,
)

if TYPE_CHECKING:
    from bridge.proxy import BridgeServer

CONTROL_TOKEN_HEADER = "X-Phoneshell-Control-Token"
"""The header carrying the control token (never a URL: URLs are handed to agents and logged)."""
JSON_TYPE = "application/json;charset=UTF-8"


@dataclass(frozen=True)
class OwnReply(Reply):
    """An answer the bridge makes itself, in WDA's envelope. Its `sessionId` is null until it
    leaves (`in_session`): WDA puts the active session's id at the top of every answer, its
    errors' too (FBResponseWithStatus), and a client that tracks the id from every answer
    would drop its session on a null."""

    value: object = None

    def in_session(self, session_id: str | None) -> Reply:
        """The answer with `session_id` as its envelope's."""
        return _own(self.status, self.reason, self.value, session_id)


def _own(status: int, reason: str, value: object, session_id: str | None = None) -> OwnReply:
    body = json.dumps({"value": value, "sessionId": session_id}).encode()
    return OwnReply(status, reason, (("Content-Type", JSON_TYPE),), body, value)


def wda_error(status: int, error: str, message: str,
              more: Mapping[str, object] | None = None) -> OwnReply:
    """A reply in WDA's error shape, which every WDA client knows how to raise; `more` adds
    fields of the bridge's own to its value, after WDA's."""
    return _own(status, "", {"error": error, "message": message, "traceback": "",
                             **(more or {})})


def wda_value(value: object) -> OwnReply:
    """A 200 reply in WDA's envelope (for the bridge's own routes)."""
    return _own(200, "OK", value)


POOLS = {"harness": 16, "client": 32, "other": 8}
"""Threads each kind of sender may use at once: the harness (its token), the agent of the
current grant (or anyone, on an open bridge), and everyone else (strangers and late agents,
answered 401 at once). An agent that has used all of its own leaves the harness's free."""
_POOL_OF = {"harness": "harness", "agent": "client", "open": "client"}


def _declared_length(headers: Message) -> int | None:
    """A request's Content-Length, to reserve before its body is read (None: chunked, or a
    length `read_body` refuses anyway)."""
    count = (headers.get("Content-Length") or "0").strip(" \t")
    return int(count) if count.isdigit() and len(count) < 19 else None


class BridgeHTTPServer(GuardedHTTPServer):
    """The HTTP server, knowing its bridge (bounded as `phoneshell.guarded_http` says)."""

    def __init__(self, address: tuple[str, int], bridge: BridgeServer) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.bridge = bridge
        self.bodies = BodyBudget()
        """What clients' (not the harness's) request bodies may hold at once."""
        super().__init__(address, _Handler, POOLS, self._pool)

    def _pool(self, method: str, target: str, headers: Mapping[str, str]) -> str:
        admitted = self.bridge.access.admit(target, headers.get(TOKEN_HEADER.lower()))
        return _POOL_OF.get(admitted.actor, "other") if admitted is not None else "other"

    def service_actions(self) -> None:
        """Between requests (every poll): close the audit files of runs gone quiet."""
        self.bridge.writer.close_idle()


class _Handler(GuardedHandler):
    """One client connection: read the request, let the bridge answer, write the reply."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: BridgeHTTPServer

    def answer(self) -> None:
        """Every method: the bridge's gate refuses one WDA does not route (`unknown command`)."""
        bridge = self.server.bridge
        # Who it is first: a stranger's body is never read (it could be any size).
        admitted = bridge.access.admit(self.path, self.headers.get(TOKEN_HEADER))
        if admitted is None:
            # a stranger learns nothing of the phone, not even which session is active
            self._reply(wda_error(401, "unauthorized", "phoneshell bridge: missing or wrong "
                                  f"token; use the base URL http://HOST:PORT{TOKEN_PATH}TOKEN "
                                  f"or the {TOKEN_HEADER} header"))
            return
        # A client's body is held within the bridge's budget (the harness's is its own)
        held = (contextlib.nullcontext() if admitted.actor == "harness"
                else self.server.bodies.hold(_declared_length(self.headers)))
        try:
            with held:
                reply = self._handled(admitted)
        except Refused as exc:  # no room for its body: refused unread, and logged
            reply = self._refused(admitted, exc)
        if isinstance(reply, OwnReply):  # WDA's own answers carry the session already
            reply = reply.in_session(bridge.upstream.session_id)
        self._reply(reply)

    def _handled(self, admitted: Admitted) -> Reply:
        """Read the body and let the bridge answer; a body over the limit is refused and
        logged, any other bad framing answered (the stream is out of step: the connection
        closes after the answer)."""
        try:
            body = read_body(self.headers, self.rfile, MAX_BODY_BYTES)
        except TooLarge as exc:
            return self._refused(admitted, Refused(f"the request body is too large ({exc}): "
                                                   "no WDA route takes that much; it was not "
                                                   "read", exc.status, exc.error))
        except BadRequest as exc:
            return wda_error(exc.status, exc.error, f"phoneshell bridge: bad request body "
                                                    f"({exc})")
        private = {TOKEN_HEADER.lower(), CONTROL_TOKEN_HEADER.lower()}  # never forwarded
        headers = {k: v for k, v in self.headers.items() if k.lower() not in private}
        return self.server.bridge.handle(self.command, admitted, body, headers,
                                         self.headers.get(CONTROL_TOKEN_HEADER))

    def _refused(self, admitted: Admitted, exc: Refused) -> Reply:
        """A request refused before its body was parsed, logged as the bridge logs every
        refusal (a `refused` line, under the sender's attempt)."""
        grant = admitted.grant if admitted.actor != "harness" else None
        return self.server.bridge._refuse(  # the bridge's one way of logging a refusal
            self.command, admitted.path, exc,
            grant if isinstance(grant, RunContext) else None, admitted)

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
