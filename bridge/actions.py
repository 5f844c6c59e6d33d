"""Classify a WebDriverAgent request: a read (forwarded unlogged) or an action with kind and params.

Pure: a function of (method, path, JSON body) only, so every route's classification is a unit
test. The rule that keeps the log honest: a POST that is neither a known read nor a named action
is an `other` action (params {"route": path}), logged like any other. GET, HEAD and OPTIONS
never act on the phone and are forwarded unlogged, and so is DELETE, except `DELETE /session/:sid`:
real WDA terminates the session's app when it closes a session (`shouldTerminateApp`, on by
default), so that is a `terminate`. Durations in params are seconds, whatever unit the route took.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from bridge.pointer import Chain, summarise_legacy, summarise_w3c
from phoneshell.records import ActionKind, Scalar

Aim = Literal["none", "point", "element", "focus"]
"""What the action's target is: nothing, the element under (x, y), the element with id
`element`, or the focused text field."""

SessionChange = Literal["none", "open", "close"]
"""What an action does to the WDA session: nothing, create (or replace) it, or delete it."""

UNLOGGED_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# POST routes (after the /session/<sid> prefix) that only read; `*` matches one segment.
# Not `appium/settings`: settings such as snapshotMaxDepth change what later reads return.
KNOWN_READS: tuple[tuple[str, ...], ...] = (
    ("element",), ("elements",), ("element", "*", "element"), ("element", "*", "elements"),
    ("wda", "apps", "state"), ("timeouts",), ("wda", "getPasteboard"),
)


@dataclass(frozen=True)
class Classified:
    """An action request: what to log and what to resolve as its target."""

    kind: ActionKind
    params: Mapping[str, Scalar] = field(default_factory=dict)
    aim: Aim = "none"
    session_id: str = ""
    """The session in the path ("" for sessionless routes): elements are read under it."""
    session: SessionChange = "none"
    """Whether the request creates or deletes the WDA session (which app it names is known
    only to the bridge, from the request that created it)."""


class _Body:
    """Typed reads from a JSON request body that may be anything (or nothing)."""

    def __init__(self, data: object) -> None:
        self.data: Mapping[str, object] = data if isinstance(data, Mapping) else {}

    def num(self, key: str) -> int | float | None:
        value = self.data.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return value

    def text(self, key: str) -> str | None:
        value = self.data.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "".join(value)  # WDA joins a list of characters the same way
        return value if isinstance(value, str) else None


def _params(**values: Scalar) -> dict[str, Scalar]:
    """Keyword params without the ones the request did not carry."""
    return {k: v for k, v in values.items() if v is not None}


def _bundle_id(data: Mapping[str, object]) -> str | None:
    """The bundle id a new session asks for (W3C alwaysMatch/firstMatch or JSONWP desired)."""
    caps = data.get("capabilities")
    candidates: list[object] = []
    if isinstance(caps, Mapping):
        candidates.append(caps.get("alwaysMatch"))
        first = caps.get("firstMatch")
        candidates.extend(first if isinstance(first, list) else [])
    candidates.append(data.get("desiredCapabilities"))
    for cap in candidates:
        if isinstance(cap, Mapping):
            for key in ("bundleId", "appium:bundleId"):
                value = cap.get(key)
                if isinstance(value, str) and value:
                    return value
    return None


Handler = Callable[[_Body, tuple[str, ...]], Classified]


def _app(kind: ActionKind, via: str | None = None) -> Handler:
    return lambda b, _: Classified(kind, _params(bundle_id=b.text("bundleId"), via=via))


def _tap(gesture: str) -> Handler:
    """A tap-like gesture at (x, y), or on the element named in the path (x, y then relative)."""
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        element = ids[0] if ids and ids[0] != "0" else None  # legacy /wda/tap/0: no element
        params = _params(x=b.num("x"), y=b.num("y"), element=element, gesture=gesture,
                         duration=b.num("duration"))
        aim: Aim = "element" if element else "point" if "x" in params and "y" in params else "none"
        return Classified("tap", params, aim)
    return handle


def _alert(gesture: str) -> Handler:
    return lambda b, _: Classified("tap", _params(gesture=gesture, button=b.text("name")))


def _typing(via: str) -> Handler:
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        text = "" if via == "clear" else b.text("value") or b.text("text") or ""
        element = ids[0] if ids else None
        aim: Aim = "element" if element else "focus" if via in ("keys", "alert") else "none"
        return Classified("type", _params(text=text, element=element, via=via), aim)
    return handle


def _press(button: str | None = None) -> Handler:
    def handle(b: _Body, _: tuple[str, ...]) -> Classified:
        return Classified("press", _params(button=button or b.text("name") or "",
                                           duration=b.num("duration")))
    return handle


def _hid(b: _Body, _: tuple[str, ...]) -> Classified:
    page, usage = b.num("page"), b.num("usage")
    return Classified("press", _params(button=f"hid:{page}:{usage}", duration=b.num("duration")))


def _drag(gesture: str) -> Handler:
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        duration = b.num("duration")
        return Classified("swipe", _params(
            from_x=b.num("fromX"), from_y=b.num("fromY"), to_x=b.num("toX"), to_y=b.num("toY"),
            duration=duration if duration is not None else b.num("pressDuration"),
            element=ids[0] if ids else None, gesture=gesture))
    return handle


def _swipe(gesture: str) -> Handler:
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        direction = b.text("direction")
        if direction is None and b.data.get("toVisible"):
            direction = "visible"
        return Classified("swipe", _params(direction=direction, element=ids[0] if ids else None,
                                           gesture=gesture))
    return handle


def _pt(value: float) -> int | float:
    """A chain coordinate as the client wrote it: 100, not 100.0."""
    return int(value) if value.is_integer() else value


def _chain_action(chain: Chain, gesture: str) -> Classified:
    """One kind for a whole touch chain: typing wins (it must be masked), then swipe, then tap."""
    if chain.text:
        return Classified("type", _params(text=chain.text, via=gesture), "focus")
    if not chain.touches:
        return Classified("other")  # moves without a touch: nothing to name, still logged
    moved = [t for t in chain.touches if t.moved]
    first = moved[0] if moved else chain.touches[0]
    element = first.down.element or None
    if chain.fingers > 1 or moved:
        return Classified("swipe", _params(
            from_x=_pt(first.down.x), from_y=_pt(first.down.y), to_x=_pt(first.up.x),
            to_y=_pt(first.up.y), duration=round(first.held_s, 3), element=element,
            gesture="multi_touch" if chain.fingers > 1 else gesture))
    aim: Aim = "element" if element else "point"
    return Classified("tap", _params(x=_pt(first.down.x), y=_pt(first.down.y), element=element,
                                     duration=round(first.held_s, 3), gesture=gesture), aim)


def _w3c(b: _Body, _: tuple[str, ...]) -> Classified:
    return _chain_action(summarise_w3c(b.data), "actions")


def _touch_perform(multi: bool) -> Handler:
    return lambda b, _: _chain_action(summarise_legacy(b.data, multi), "touch_perform")


def _session(b: _Body, _: tuple[str, ...]) -> Classified:
    # A session with a bundle launches that app. A bare one launches nothing (FBSession leaves
    # the phone as it is), but it still replaces the session, whose app WDA may terminate.
    bundle = _bundle_id(b.data)
    if bundle:
        return Classified("launch", {"bundle_id": bundle, "via": "session"}, session="open")
    return Classified("other", {"route": "/session"}, session="open")


def _settings(b: _Body, _: tuple[str, ...]) -> Classified:
    """`appium/settings`: an `other` naming the settings changed (their values are not kept)."""
    settings = b.data.get("settings")
    names = ",".join(settings) if isinstance(settings, Mapping) else None
    return Classified("other", _params(settings=names))


ROUTES: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("wda", "apps", "launch"), _app("launch")),
    (("wda", "apps", "launchUnattached"), _app("launch", "launch_unattached")),
    (("wda", "apps", "activate"), _app("activate")),
    (("wda", "apps", "terminate"), _app("terminate")),
    (("wda", "tap"), _tap("tap")),
    (("wda", "tap", "*"), _tap("tap")),
    (("wda", "element", "*", "tap"), _tap("tap")),
    (("element", "*", "click"), _tap("click")),
    (("wda", "doubleTap"), _tap("double_tap")),
    (("wda", "element", "*", "doubleTap"), _tap("double_tap")),
    (("wda", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "element", "*", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "twoFingerTap"), _tap("two_finger_tap")),
    (("wda", "element", "*", "twoFingerTap"), _tap("two_finger_tap")),
    (("wda", "tapWithNumberOfTaps"), _tap("taps")),
    (("wda", "element", "*", "tapWithNumberOfTaps"), _tap("taps")),
    (("wda", "forceTouch"), _tap("force_touch")),
    (("wda", "element", "*", "forceTouch"), _tap("force_touch")),
    (("alert", "accept"), _alert("alert_accept")),
    (("alert", "dismiss"), _alert("alert_dismiss")),
    (("wda", "keyboard", "dismiss"), _alert("keyboard_dismiss")),
    (("wda", "keys"), _typing("keys")),
    (("element", "*", "value"), _typing("element")),
    (("element", "*", "clear"), _typing("clear")),
    (("alert", "text"), _typing("alert")),
    (("wda", "siri", "activate"), _typing("siri")),
    (("wda", "homescreen"), lambda b, _: Classified("home")),
    (("wda", "deactivateApp"), lambda b, _: Classified(
        "home", _params(via="deactivate_app", duration=b.num("duration")))),
    (("wda", "pressButton"), _press()),
    (("wda", "lock"), _press("lock")),
    (("wda", "unlock"), _press("unlock")),
    (("wda", "performIoHidEvent"), _hid),
    (("wda", "dragfromtoforduration"), _drag("drag")),
    (("wda", "element", "*", "dragfromtoforduration"), _drag("drag")),
    (("wda", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "element", "*", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "swipe"), _swipe("swipe")),
    (("wda", "element", "*", "swipe"), _swipe("swipe")),
    (("wda", "scroll"), _swipe("scroll")),
    (("wda", "element", "*", "scroll"), _swipe("scroll")),
    (("wda", "element", "*", "scrollTo"), _swipe("scroll_to")),
    (("wda", "pinch"), _swipe("pinch")),
    (("wda", "element", "*", "pinch"), _swipe("pinch")),
    (("wda", "rotate"), _swipe("rotate")),
    (("wda", "element", "*", "rotate"), _swipe("rotate")),
    (("wda", "pickerwheel", "*", "select"), _swipe("picker_select")),
    (("actions",), _w3c),
    (("wda", "touch", "perform"), _touch_perform(False)),
    (("wda", "touch", "multi", "perform"), _touch_perform(True)),
    (("url",), lambda b, _: Classified("open_url", _params(url=b.text("url")))),
    (("appium", "settings"), _settings),
)


def split_path(path: str) -> tuple[str, tuple[str, ...]]:
    """Split a request path into (session id or "", route segments), ignoring query and slashes.

    `/session/<SID>/wda/tap/` gives ("<SID>", ("wda", "tap")); `/session` gives ("", ("session",)).
    """
    segments = tuple(s for s in path.split("?", 1)[0].split("/") if s)
    if len(segments) >= 2 and segments[0] == "session":
        return segments[1], segments[2:]
    return "", segments


def _match(pattern: tuple[str, ...], route: tuple[str, ...]) -> tuple[str, ...] | None:
    """The segments `*` matched, or None when the route does not fit the pattern."""
    if len(pattern) != len(route):
        return None
    wild = []
    for want, got in zip(pattern, route, strict=True):
        if want == "*":
            wild.append(got)
        elif want != got:
            return None
    return tuple(wild)


def classify(method: str, path: str, body: object) -> Classified | None:
    """Classify one request; None means a read, forwarded without logging.

    Args:
        method: the HTTP method as sent.
        path: the request path, with or without the /session/<sid> prefix and query.
        body: the decoded JSON body (None when there is none or it is not JSON).
    """
    method = method.upper()
    if method in UNLOGGED_METHODS:
        return None
    session_id, route = split_path(path)
    clean = "/" + "/".join(route)
    if method == "DELETE":
        # Closing the session terminates its app on a real phone; other DELETEs (release held
        # keys and buttons) end what an earlier, logged action began.
        if session_id and not route:
            return Classified("terminate", {"via": "delete_session"}, session_id=session_id,
                              session="close")
        return None
    if method != "POST":  # WDA serves no PUT or PATCH: whatever it is, it is not a known read
        return Classified("other", {"route": clean}, session_id=session_id)
    if route == ("session",):
        return _session(_Body(body), ())
    if any(_match(pattern, route) is not None for pattern in KNOWN_READS):
        return None
    for pattern, handle in ROUTES:
        ids = _match(pattern, route)
        if ids is not None:
            found = handle(_Body(body), ids)
            params = {"route": clean, **found.params} if found.kind == "other" else found.params
            return Classified(found.kind, params, found.aim, session_id, found.session)
    return Classified("other", {"route": clean}, session_id=session_id)
