"""The WebDriverAgent service over one simulated phone: routing, the session, fault effects.

Routing follows real WDA (notes/wda-stack.md §4.1): a path under /session/:sid reaches the
session form of a route, any other path its session-free form; what matches no route answers
WDA's catch-all 404 `unknown command` (`unknown_command`); a route found under a session id
that is not the active one answers 404 `invalid session id`. The routes live by room in
`session_routes`, `device_routes`, `gesture_routes`, `element_routes`, `wheel_routes` and
`alert_routes`;
`wda_routes` lists all of WDA's. One session at a time: `POST /session` replaces it. The active
id goes at the top level of every response. Ending a session (deleting or replacing it)
terminates its app under test when it was created with `shouldTerminateApp` (WDA's default),
as FBSession's `kill` does. Transport (HTTP, slowness, closing the socket) is the server's
business; this module maps a request to a reply and never blocks.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from phoneshell.sim import (
    alert_routes,
    device_routes,
    element_routes,
    gesture_routes,
    session_routes,
    settings,
    wheel_routes,
)
from phoneshell.sim.elements import ElementRegistry
from phoneshell.sim.faults import Faults
from phoneshell.sim.phone import SPRINGBOARD, Phone
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import Node
from phoneshell.sim.wire import Reply, Request, Route, WdaError
from phoneshell.wda_routes import Scope


@dataclass(frozen=True)
class Session:
    """The WDA session: its id, what it reports, and the app it was created for."""

    id: str
    bundle_id: str | None
    """The app under test (the `bundleId` capability); None for a session without one."""
    terminate_app: bool
    """WDA's `shouldTerminateApp` (default true): ending the session terminates the app."""


class Endpoints:
    """WDA's command set over a phone (see the module docstring). Callers hold the phone lock.

    Args:
        phone: the simulated phone the commands act on.
        faults: returns the faults currently switched on.
        instance_id: this simulator's id (default: a new random one).
    """

    def __init__(self, phone: Phone, faults: Callable[[], Faults], instance_id: str = "") -> None:
        self.phone = phone
        self.instance_id = instance_id or uuid.uuid4().hex
        """Names this simulated phone (in `/status`): two URLs that reach the same simulator
        report the same id, so a device lock can tell one phone spelled two ways."""
        self._faults = faults
        self.session: Session | None = None
        self.elements = ElementRegistry()
        self.settings: dict[str, JSON] = dict(settings.DEFAULTS)
        self._routes: tuple[Route, ...] = (*session_routes.ROUTES, *device_routes.ROUTES,
                                           *gesture_routes.ROUTES, *element_routes.ROUTES,
                                           *wheel_routes.ROUTES, *alert_routes.ROUTES)

    def implemented(self) -> set[tuple[str, str, Scope]]:
        """(method, path, scope) of every WDA route the simulator serves, as `wda_routes` has
        them: the routes here, WDA's CORS ping, and /health (which the server answers)."""
        served = {(r.method, "/".join(("", *r.parts)), r.scope) for r in self._routes}
        return served | {("OPTIONS", "/*", "free"), ("GET", "/health", "free")}

    @property
    def session_id(self) -> str | None:
        """The active session's id (None when there is none)."""
        return None if self.session is None else self.session.id

    @property
    def faults(self) -> Faults:
        """The faults switched on right now."""
        return self._faults()

    def reported_session(self) -> str | None:
        """The session id responses carry (none while the stale-session fault is on)."""
        return None if self.faults.on("stale-session") else self.session_id

    def handle(self, method: str, path: str, query: dict[str, str],
               body: dict[str, JSON]) -> Reply:
        """Answer one request (path already stripped of its query string)."""
        if method == "OPTIONS":
            return Reply.envelope(None, self.reported_session())  # WDA's CORS ping, any path
        parts = tuple(p for p in path.split("/") if p)
        sid: str | None = None
        if len(parts) >= 2 and parts[0] == "session":
            sid, rest, scopes = parts[1], parts[2:], ("session", "both")
        else:
            rest, scopes = parts, ("free", "both")
        for route in self._routes:
            params = route.match(method, rest) if route.scope in scopes else None
            if params is not None:
                break
        else:
            return Reply.error(unknown_command(path, query), self.reported_session())
        try:
            if sid is not None and (sid != self.session_id or self.faults.on("stale-session")):
                raise WdaError("invalid session id", "Session does not exist")
            if route.write and self.faults.on("drop-writes"):
                value: JSON = None
            else:
                value = route.handler(self, Request(method, "/" + "/".join(rest), params,
                                                    query, body, sid is not None))
        except WdaError as exc:
            return Reply.error(exc, self.reported_session())
        return Reply.envelope(value, self.reported_session())

    def element(self, request: Request) -> Node:
        """The node the request's :uuid names.

        Raises:
            WdaError: stale element reference when it is not on screen (or never was).
        """
        element_id = request.params.get("uuid", "")
        node = self.elements.resolve(self.phone.screen(), element_id)
        if node is None:
            raise self.elements.missing(element_id)
        return node

    def new_session(self, bundle_id: str | None, terminate_app: bool) -> Session:
        """Make a session active, with fresh element ids and settings.

        End the old one first (`end_session`), before launching the new session's app, as WDA
        does: ending it afterwards would terminate an app the new session just launched.
        """
        self.session = Session(str(uuid.uuid4()).upper(), bundle_id, terminate_app)
        self.elements = ElementRegistry()
        self.settings = dict(settings.DEFAULTS)
        return self.session

    def end_session(self) -> None:
        """End the active session, terminating its app if it asked for that (WDA's `kill`).

        Terminating works on a locked phone and under drop-writes, as `apps/terminate` does;
        SpringBoard is never terminated, and an app that is not running is left alone.
        """
        session, self.session = self.session, None
        if (session is not None and session.terminate_app and session.bundle_id is not None
                and session.bundle_id != SPRINGBOARD
                and session.bundle_id in self.phone.running):
            self.phone.terminate(session.bundle_id)


def unknown_command(path: str, query: dict[str, str]) -> WdaError:
    """What WDA's catch-all (`FBUnknownCommands`) answers for a route it does not serve.

    Its message prints the request URL as NSURL describes a relative URL ("path -- base") and
    the route's parameters as NSDictionary describes them: the catch-all's one wildcard.
    """
    shown = path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    wildcard = path.lstrip("/").replace("\\", "\\\\").replace('"', '\\"')
    return WdaError("unknown command",
                    f"Unhandled endpoint: {shown} -- http://127.0.0.1:8100/ with parameters {{\n"
                    f"    wildcards =     (\n        \"{wildcard}\"\n    );\n}}")
