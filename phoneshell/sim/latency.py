"""How long a real iPhone takes to answer each WDA route: the delay table, and the tally of asks.

`Latency("iphone")` holds a real phone's per-route figures (`IPHONE`, each with where it comes
from); the server asks `charge` once per WDA request, sleeps what it answers, and the tally
keeps, per phase and route, how many requests came and the seconds a real phone would have
spent on them. `Latency("none")` delays nothing and still counts (the seconds are then priced
at the iPhone figures, so a fast run can still say what it would cost on a phone). The phase is
a label whoever runs the simulator in-process sets (`tally.phase`); the simulator never learns
it from a request. Control routes are neither delayed nor counted.

A real phone answers slower as its screen grows (upstream's 640 leftover alarms took `/source`
from 154 ms to 2.6 s); these figures are for screens of a usual size (sources about 20 deep).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from phoneshell.errors import PhoneshellError
from phoneshell.holds import PRESS_FIELDS
from phoneshell.sim.store import JSON
from phoneshell.wda_routes import NOTIFICATION_WAIT_S

LONGEST_S = 86_400.0
"""The longest a request is held back, however long the gesture it asks for."""
KEYS_PER_S = 60.0
"""WDA's default `maxTypingFrequency`: characters typed per second."""


@dataclass(frozen=True)
class RouteCost:
    """One row of the table: a WDA route and what it costs on a real phone."""

    method: str
    pattern: str
    """The path without /session/:sid, `:x` matching one segment, e.g. /element/:uuid/click."""
    seconds: float
    source: str
    """Where the figure comes from (shown in docs/simulator.md)."""

    def matches(self, method: str, parts: tuple[str, ...]) -> bool:
        """Whether this row prices a request with these path parts."""
        want = tuple(p for p in self.pattern.split("/") if p)
        return method == self.method and len(want) == len(parts) and all(
            w.startswith(":") or w == p for w, p in zip(want, parts, strict=True))


MEASURED = "measured, iPhone 14 Pro, iOS 26"
FINDINGS = "upstream phoneshell FINDINGS §2 (iPhone, iOS 26)"
ESTIMATE = "estimate"

IPHONE: tuple[RouteCost, ...] = (
    RouteCost("GET", "/wda/activeAppInfo", 0.043, f"{MEASURED}: 43 ms; {FINDINGS}: 43 ms"),
    RouteCost("GET", "/source", 0.185, f"{MEASURED}: 160-210 ms; {FINDINGS}: 159-210 ms at "
                                       "depth 20 (1.27 s at depth 25)"),
    RouteCost("GET", "/wda/accessibleSource", 0.185, f"{ESTIMATE}: as /source"),
    RouteCost("GET", "/screenshot", 0.2, f"{MEASURED}: 100-300 ms; {FINDINGS}: 72 ms"),
    RouteCost("POST", "/wda/tap", 0.5, f"{MEASURED}: about 0.5 s; {FINDINGS}: W3C tap 0.5 s, "
                                       "native tap 550 ms"),
    RouteCost("POST", "/wda/element/:uuid/tap", 0.5, f"{ESTIMATE}: as /wda/tap"),
    RouteCost("POST", "/element/:uuid/click", 0.5, f"{ESTIMATE}: as /wda/tap"),
    RouteCost("POST", "/actions", 0.5, f"{FINDINGS}: W3C tap 0.5 s (a drag by W3C actions "
                                       "takes far longer: 19 s)"),
    RouteCost("POST", "/wda/doubleTap", 0.6, f"{ESTIMATE}: a tap and a bit"),
    RouteCost("POST", "/wda/touchAndHold", 0.5, f"{ESTIMATE}: a tap, plus the hold asked for"),
    RouteCost("POST", "/wda/dragfromtoforduration", 1.4, f"{FINDINGS}: native drag 1.4 s"),
    RouteCost("POST", "/wda/swipe", 1.0, f"{FINDINGS}: /wda/swipe 1 s"),
    RouteCost("POST", "/wda/scroll", 7.35, f"{FINDINGS}: /wda/scroll 7.35 s"),
    RouteCost("POST", "/wda/keys", 0.36, "appium/appium#19245: 360 ms a keystroke once WDA's "
                                         "1 s keyboard wait is gone; plus 1/60 s a character"),
    RouteCost("POST", "/element/:uuid/value", 0.36, f"{ESTIMATE}: as /wda/keys"),
    RouteCost("GET", "/alert/text", 1.36, f"{FINDINGS}: alert_text 1.36 s"),
    RouteCost("POST", "/wda/apps/launch", 1.5, f"{ESTIMATE}: an app coming to the front "
                                               "(launch animation and accessibility load)"),
    RouteCost("POST", "/wda/apps/activate", 1.0, f"{ESTIMATE}: an app already running, "
                                                 "brought forward"),
    RouteCost("POST", "/url", 1.5, f"{ESTIMATE}: as a launch (Safari opens the page)"),
    RouteCost("POST", "/wda/apps/terminate", 0.5, f"{ESTIMATE}: the app's exit animation"),
    RouteCost("POST", "/wda/homescreen", 1.0, f"{ESTIMATE}: WDA waits for SpringBoard to show"),
    RouteCost("POST", "/wda/pressButton", 0.5, f"{ESTIMATE}: as a tap"),
    RouteCost("POST", "/session", 0.3, f"{ESTIMATE}: a session without an app to launch"),
    RouteCost("POST", "/element", 0.185, f"{ESTIMATE}: a find walks a snapshot, as /source"),
    RouteCost("POST", "/elements", 0.185, f"{ESTIMATE}: as /element"),
    RouteCost("POST", "/element/:uuid/element", 0.185, f"{ESTIMATE}: as /element"),
    RouteCost("POST", "/element/:uuid/elements", 0.185, f"{ESTIMATE}: as /element"),
)
"""A real iPhone's figures. Everything not listed costs `OTHER_S` (a small query)."""

OTHER_S = 0.043
OTHER_SOURCE = f"{ESTIMATE}: any other route, as cheap as /wda/activeAppInfo"
PROFILES: Mapping[str, tuple[RouteCost, ...]] = {"iphone": IPHONE}
"""Tables by profile name. "none" (no delay) prices what it counts by the iPhone's."""


def route_of(method: str, path: str, query: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """The route a request is tallied under, e.g. "GET /source (json)", "POST
    /element/:uuid/click", and its path parts without the session prefix."""
    parts = tuple(p for p in path.split("/") if p)
    if len(parts) >= 2 and parts[0] == "session":
        parts = parts[2:]
    shown = tuple(":uuid" if i > 0 and parts[i - 1] in ("element", "screenshot") and
                  p != "active" else p for i, p in enumerate(parts))
    name = f"{method} /{'/'.join(shown)}"
    if shown == ("source",) and query.get("format") == "json":
        name += " (json)"
    return name, parts


def cost_s(table: tuple[RouteCost, ...], method: str, parts: tuple[str, ...],
           body: Mapping[str, JSON]) -> float:
    """What a request costs a real phone by `table` (gestures add the time they ask for)."""
    row = next((r for r in table if r.matches(method, parts)), None)
    seconds = row.seconds if row is not None else OTHER_S
    # a gesture takes the time its press (the field WDA reads as it: `PRESS_FIELDS`) and, for a
    # press and drag, its hold at the end ask for
    timed = (PRESS_FIELDS.get(parts[-1]) if parts else None,
             "holdDuration" if parts[-1:] == ("pressAndDragWithVelocity",) else None)
    for field in filter(None, timed):
        held = body.get(field)
        if isinstance(held, (int, float)) and not isinstance(held, bool) \
                and math.isfinite(held):
            seconds += max(0.0, float(held))
    if parts[-1:] == ("expectNotification",):  # waits its timeout
        waited = body.get("timeout", NOTIFICATION_WAIT_S)
        if isinstance(waited, (int, float)) and not isinstance(waited, bool):
            seconds += max(0.0, float(waited))
    if parts[-1:] in (("keys",), ("value",)):
        typed = body.get("value") or body.get("text") or ""
        text = "".join(map(str, typed)) if isinstance(typed, list) else str(typed)
        seconds += len(text) / KEYS_PER_S
    return seconds


READS = frozenset({("POST", "wda/apps/state"), ("POST", "element"), ("POST", "elements")})
"""POST routes that only read (the rest of the reads are GETs)."""


@dataclass
class RouteCount:
    """Requests to one route in one phase, and what a real phone would have spent on them."""

    count: int = 0
    seconds: float = 0.0
    repeats: int = 0
    """Reads answered exactly as the read of this route before, with no other request between
    that could have changed the phone (a read the asker could have kept)."""


class Tally:
    """Requests by phase and route (thread-safe: the server answers on many threads)."""

    def __init__(self) -> None:
        self.phase = ""
        """The label new requests are counted under (set by whoever runs the simulator)."""
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, RouteCount]] = {}
        self._last: dict[str, int] = {}
        """The hash of the last answer of each read route since the last write."""
        self._pending: tuple[str, RouteCount] | None = None

    def add(self, route: str, seconds: float, read: bool) -> None:
        """Count one request to `route` under the current phase; `answered` then sees its
        answer, for a read."""
        with self._lock:
            row = self._counts.setdefault(self.phase, {}).setdefault(route, RouteCount())
            row.count += 1
            row.seconds += seconds
            self._pending = (route, row) if read else None
            if not read:
                self._last.clear()

    def answered(self, body: bytes) -> None:
        """The answer to the request counted last (callers serialise request and answer)."""
        with self._lock:
            if self._pending is None:
                return
            (route, row), self._pending = self._pending, None
            digest = hash(body)
            if self._last.get(route) == digest:
                row.repeats += 1
            self._last[route] = digest

    def take(self) -> dict[str, dict[str, RouteCount]]:
        """What was counted since the last take, by phase and route; starts a new count."""
        with self._lock:
            counts, self._counts = self._counts, {}
            return counts


class Latency:
    """A latency profile, and the tally of the requests it priced.

    Args:
        profile: "iphone" (a real phone's delays) or "none" (no delay; still counted).

    Raises:
        PhoneshellError: an unknown profile.
    """

    def __init__(self, profile: str = "none") -> None:
        if profile != "none" and profile not in PROFILES:
            raise PhoneshellError(f"unknown latency profile {profile!r}",
                                  hint=f"profiles are: none, {', '.join(PROFILES)}")
        self.profile = profile
        self.table = PROFILES.get(profile, IPHONE)
        self.tally = Tally()

    def charge(self, method: str, path: str, query: Mapping[str, str],
               body: Mapping[str, JSON]) -> float:
        """Count one WDA request; return how long to hold its answer back (seconds)."""
        route, parts = route_of(method, path, query)
        seconds = cost_s(self.table, method, parts, body)
        read = method in ("GET", "HEAD") or (method, "/".join(parts)) in READS
        self.tally.add(route, seconds, read)
        # A hold of 1e300 s would overflow time.sleep; a day is as long as forever to a caller.
        return 0.0 if self.profile == "none" else min(seconds, LONGEST_S)


__all__ = ["IPHONE", "Latency", "PROFILES", "RouteCost", "RouteCount", "Tally", "cost_s",
           "route_of"]
