"""Every route of WebDriverAgent 16.x, as its command handlers register them: WDA's map, shared.

Read from appium/WebDriverAgent's `routes` arrays (FBSessionCommands, FBCustomCommands,
FBElementCommands, FBFindElementCommands, FBAlertViewCommands, FBOrientationCommands,
FBDebugCommands, FBScreenshotCommands, FBTouchActionCommands, FBVideoCommands and the server's
own /health, /calibrate and /wda/shutdown). A route registered plainly lives only under
`/session/:sessionID`; `.withoutSession` registers the plain path only; WDA lists a route twice
where it serves both. Anything else, and any of these the simulator does not implement, falls
to WDA's catch-all `FBUnknownCommands`: 404 `unknown command`. `docs/simulator.md` lists this
table with what is implemented, and a test keeps the two in step. The bridge forwards only what
`find_route` finds here. Pure data and matching: imports nothing of phoneshell, so the simulator
(a device) and the bridge both read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Scope = Literal["free", "session", "both"]
"""Where a route exists: without a session prefix, only under /session/:sid, or both."""

_SESSION: tuple[tuple[str, str], ...] = (
    # FBSessionCommands
    ("POST", "/url"), ("POST", "/wda/apps/launch"), ("POST", "/wda/apps/activate"),
    ("POST", "/wda/apps/terminate"), ("POST", "/wda/apps/state"), ("GET", "/wda/apps/list"),
    ("GET", ""), ("DELETE", ""), ("GET", "/appium/settings"), ("POST", "/appium/settings"),
    # FBCustomCommands
    ("POST", "/timeouts"), ("POST", "/wda/deactivateApp"), ("POST", "/wda/keyboard/dismiss"),
    ("GET", "/wda/batteryInfo"), ("POST", "/wda/pressButton"),
    ("POST", "/wda/performAccessibilityAudit"), ("POST", "/wda/performIoHidEvent"),
    ("POST", "/wda/expectNotification"), ("POST", "/wda/siri/activate"),
    ("POST", "/wda/resetAppAuth"), ("POST", "/wda/element/:uuid/keyboardInput"),
    # FBElementCommands
    ("GET", "/window/rect"), ("GET", "/element/:uuid/enabled"), ("GET", "/element/:uuid/rect"),
    ("GET", "/element/:uuid/attribute/:name"), ("GET", "/element/:uuid/text"),
    ("GET", "/element/:uuid/displayed"), ("GET", "/element/:uuid/selected"),
    ("GET", "/element/:uuid/name"), ("POST", "/element/:uuid/value"),
    ("POST", "/element/:uuid/click"), ("POST", "/element/:uuid/clear"),
    ("GET", "/element/:uuid/screenshot"), ("GET", "/screenshot/:uuid"),
    ("GET", "/wda/element/:uuid/accessible"), ("GET", "/wda/element/:uuid/accessibilityContainer"),
    ("POST", "/wda/element/:uuid/swipe"), ("POST", "/wda/swipe"),
    ("POST", "/wda/element/:uuid/pinch"), ("POST", "/wda/pinch"),
    ("POST", "/wda/element/:uuid/rotate"), ("POST", "/wda/rotate"),
    ("POST", "/wda/element/:uuid/doubleTap"), ("POST", "/wda/doubleTap"),
    ("POST", "/wda/element/:uuid/twoFingerTap"), ("POST", "/wda/twoFingerTap"),
    ("POST", "/wda/element/:uuid/tapWithNumberOfTaps"), ("POST", "/wda/tapWithNumberOfTaps"),
    ("POST", "/wda/element/:uuid/touchAndHold"), ("POST", "/wda/touchAndHold"),
    ("POST", "/wda/element/:uuid/scroll"), ("POST", "/wda/scroll"),
    ("POST", "/wda/element/:uuid/scrollTo"),
    ("POST", "/wda/element/:uuid/dragfromtoforduration"), ("POST", "/wda/dragfromtoforduration"),
    ("POST", "/wda/element/:uuid/pressAndDragWithVelocity"),
    ("POST", "/wda/pressAndDragWithVelocity"),
    ("POST", "/wda/element/:uuid/forceTouch"), ("POST", "/wda/forceTouch"),
    ("POST", "/wda/element/:uuid/tap"), ("POST", "/wda/tap"),
    ("POST", "/wda/pickerwheel/:uuid/select"), ("POST", "/wda/keys"),
    # FBFindElementCommands
    ("POST", "/element"), ("POST", "/elements"), ("POST", "/element/:uuid/element"),
    ("POST", "/element/:uuid/elements"), ("GET", "/wda/element/:uuid/getVisibleCells"),
    ("GET", "/element/active"),
    # FBAlertViewCommands
    ("POST", "/alert/text"), ("GET", "/wda/alert/buttons"),
)

_FREE: tuple[tuple[str, str], ...] = (
    ("POST", "/session"), ("GET", "/status"), ("GET", "/wda/healthcheck"),
    ("POST", "/wda/homescreen"), ("POST", "/wda/apps/launchUnattached"),
    ("POST", "/wda/device/appearance"), ("OPTIONS", "/*"),
    ("GET", "/health"), ("GET", "/calibrate"), ("GET", "/wda/shutdown"),
)

_BOTH: tuple[tuple[str, str], ...] = (
    ("POST", "/wda/lock"), ("POST", "/wda/unlock"), ("GET", "/wda/locked"),
    ("GET", "/wda/screen"), ("GET", "/wda/activeAppInfo"), ("POST", "/wda/setPasteboard"),
    ("POST", "/wda/getPasteboard"), ("GET", "/wda/device/info"), ("GET", "/wda/device/location"),
    ("GET", "/wda/simulatedLocation"), ("POST", "/wda/simulatedLocation"),
    ("DELETE", "/wda/simulatedLocation"),
    ("GET", "/window/size"),
    ("GET", "/alert/text"), ("POST", "/alert/accept"), ("POST", "/alert/dismiss"),
    ("GET", "/orientation"), ("POST", "/orientation"), ("GET", "/rotation"), ("POST", "/rotation"),
    ("GET", "/wda/deviceOrientation"),
    ("GET", "/source"), ("GET", "/wda/accessibleSource"), ("GET", "/screenshot"),
    ("POST", "/actions"), ("POST", "/wda/touch/perform"), ("POST", "/wda/touch/multi/perform"),
    ("POST", "/wda/video/start"), ("POST", "/wda/video/stop"), ("GET", "/wda/video"),
)

WDA_ROUTES: tuple[tuple[str, str, Scope], ...] = (
    *((m, p, "session") for m, p in _SESSION),
    *((m, p, "free") for m, p in _FREE),
    *((m, p, "both") for m, p in _BOTH),
)
"""(method, path pattern, scope) of every WDA 16.x route; paths are relative to the session."""

NOTIFICATION_WAIT_S = 60
"""How long `/wda/expectNotification` waits on WDA's main thread when its body names no
`timeout` (FBCustomCommands)."""

PRESS_BUTTONS = {"home": "home", "volumeup": "volumeUp", "volumedown": "volumeDown"}
"""The buttons `/wda/pressButton` presses, by the name lower-cased: WDA compares the name it is
given lower-cased (XCUIDevice+FBHelpers `fb_pressButton:error:`), so "Home" presses home."""


def pressed_button(name: str) -> str | None:
    """The button WDA's `/wda/pressButton` presses for `name` ("home", "volumeUp",
    "volumeDown"), or None for a name it refuses."""
    return PRESS_BUTTONS.get(name.lower())


TYPES_A_STRING = frozenset({"/element/:uuid/value", "/alert/text"})
"""The typing routes whose `value` may be a string as well as a list of characters: WDA's
handleSetValue and handleAlertSetTextCommand join it only when it is an array. `/wda/keys`
(handleKeys) joins it whatever it is (`componentsJoinedByString:`), and an NSString has no such
method: WDA raises, answers 500 `unknown error`, and types nothing."""


def typed_value(pattern: str, value: object) -> str | None:
    """What WDA types for the `value` of the typing route `pattern`: a list's strings joined,
    a string as it is where the route takes one (`TYPES_A_STRING`); None where WDA types
    nothing of it (a string on `/wda/keys`, a number, an object). The simulator types by this,
    and the bridge logs by it."""
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    if isinstance(value, str) and pattern in TYPES_A_STRING:
        return value
    return None


DEVICE_STATES = {"/orientation": "orientation", "/rotation": "orientation",
                 "/wda/device/appearance": "appearance", "/wda/simulatedLocation": "location"}
"""The routes that change the phone's own state rather than an app's, by the state they change:
how it is held, light or dark, a simulated location (`device.device_state` sets them back)."""

NOT_JSON = frozenset({("GET", "/health"), ("GET", "/calibrate"), ("GET", "/wda/shutdown")})
"""Routes the server answers with plain text or HTML rather than WDA's JSON envelope."""


def forms(method: str, path: str, scope: Scope) -> list[str]:
    """The request lines a route answers, e.g. ["GET /source", "GET /session/:sid/source"]."""
    shown = path or ""
    out = []
    if scope in ("free", "both"):
        out.append(f"{method} {shown or '/'}")
    if scope in ("session", "both"):
        out.append(f"{method} /session/:sid{shown}")
    return out


@dataclass(frozen=True)
class RouteMatch:
    """A request line matched to one of WDA's routes."""

    method: str
    pattern: str
    """The route's path pattern relative to the session, e.g. "/element/:uuid/click"."""
    session_id: str
    """The :sessionID of the path ("" for a session-free form)."""
    params: dict[str, str]
    """The pattern's captured segments, e.g. {"uuid": "..."}."""


def match_parts(pattern: tuple[str, ...], segments: tuple[str, ...]) -> dict[str, str] | None:
    """The segments a pattern's `:name` parts capture, or None when the path does not fit."""
    if len(pattern) != len(segments):
        return None
    captured = {}
    for want, got in zip(pattern, segments, strict=True):
        if want.startswith(":"):
            captured[want[1:]] = got
        elif want != got:
            return None
    return captured


def find_route(method: str, segments: tuple[str, ...]) -> RouteMatch | None:
    """The WDA route a request line takes (its path split into segments), or None.

    A path under `/session/:sid` matches the session forms, any other path the session-free
    ones, as WDA's router does; `OPTIONS` is WDA's CORS ping on any path.
    """
    if method == "OPTIONS":
        return RouteMatch(method, "/*", "", {})
    sid = ""
    rest = segments
    scopes: tuple[Scope, ...] = ("free", "both")
    if len(segments) >= 2 and segments[0] == "session":
        sid, rest, scopes = segments[1], segments[2:], ("session", "both")
    for want, pattern, scope in WDA_ROUTES:
        if want != method or scope not in scopes:
            continue
        params = match_parts(tuple(p for p in pattern.split("/") if p), rest)
        if params is not None:
            return RouteMatch(method, pattern, sid, params)
    return None


def route_name(method: str, found: RouteMatch | None) -> str:
    """A request named by its route ("GET /source", "POST /element" for a session's find too;
    "GET ?" where WDA has none): how phoneshell's simulator counts the requests it receives and
    the bridge those it sends, so the two can be held against each other (`runner.around`)."""
    if found is None:
        return f"{method} ?"
    return f"{method} {found.pattern or '/session/:sid'}"


POST_READS = frozenset({"/element", "/elements", "/element/:uuid/element",
                        "/element/:uuid/elements", "/wda/apps/state", "/wda/getPasteboard",
                        "/timeouts"})
"""POST routes that only read (finds, an app's state, the pasteboard) or set how long the
client's own finds wait: nothing reaches the phone's screen or its apps."""


GETS_THAT_ACT = frozenset({"/wda/shutdown", "/wda/healthcheck"})
"""The GET routes that change the phone, found by reading every GET handler of WDA 16.x once
(appium/WebDriverAgent's FB*Commands.m and FBWebServer): `/wda/shutdown` ends WDA itself, and
`/wda/healthcheck` presses Home (handleGetHealthCheck -> XCUIDevice+FBHealthCheck
`fb_deviceInteractionCheck`: `pressButton:XCUIDeviceButtonHome`; facebook-wda's innocent
`Client.healthcheck()`). Every other GET reads: the session, status, settings, apps list,
window size and rect, element attributes and rects, screenshots, sources, orientation, alert
text and buttons, the lock state, screen, device info, active app, simulated location and video
state, /health and /calibrate (a fixed page). `/wda/batteryInfo` turns battery monitoring on and
`/wda/device/location` starts location updates, both inside WDA's own process: nothing the phone
shows or keeps."""


def is_input(method: str, pattern: str) -> bool:
    """Whether a request on a WDA route can change the phone: by what WDA does on the route, not
    by its method (`GETS_THAT_ACT`, and every route but a GET, HEAD, OPTIONS or `POST_READS`).
    """
    if method == "GET" and pattern in GETS_THAT_ACT:
        return True
    return method not in ("GET", "HEAD", "OPTIONS") and pattern not in POST_READS
