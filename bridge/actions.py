"""Classify an admitted WebDriverAgent request: a read (forwarded unlogged) or an action.

Pure: a function of the canonical request (`gate.Canonical`), so every route's classification
is a unit test. The rules that keep the log honest: a WDA route that can change the phone and is
not a named action is an `other` action (params {"route": path}), logged like any other; GET and
OPTIONS never act and are forwarded unlogged; `DELETE /session/:sid` is a `terminate` (real WDA
terminates the session's app when it closes a session, `shouldTerminateApp` being on by
default). Every body field an action is logged by is read with the type WDA reads it with, and
a field of another type (a number sent as a string, a list of characters holding a number, both
`value` and `text`) is refused (`gate.Refused`), never guessed: WDA would coerce it one way and
the log would say another. Durations in params are seconds, whatever unit the route took.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from bridge.gate import Canonical, Refused, admit, json_type
from bridge.pointer import Chain, summarise_legacy, summarise_w3c
from phoneshell.records import ActionKind, Scalar
from phoneshell.wda_routes import is_input, match_parts
from phoneshell.xcui import HARMLESS_SETTINGS, WDA_SETTINGS

Aim = Literal["none", "point", "from", "element", "focus"]
"""What the action's target is: nothing, the element under (x, y), the element under where a
drag starts (from_x, from_y: a slider it moves), the element with id `element`, or the focused
text field."""

SessionChange = Literal["none", "open", "close"]
"""What an action does to the WDA session: nothing, create (or replace) it, or delete it."""



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
    """Typed reads from a request body: absent is None, present with another type is refused."""

    def __init__(self, data: object) -> None:
        self.data: Mapping[str, object] = data if isinstance(data, Mapping) else {}

    def num(self, key: str) -> int | float | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            # WDA reads numbers with doubleValue, which turns "100" and true into numbers too.
            raise Refused(f"{key!r} must be a number, not {json_type(value)}")
        return value

    def text(self, key: str) -> str | None:
        """A string field (a bundle id, a URL, a button name)."""
        value = self.data.get(key)
        if value is None or isinstance(value, str):
            return value
        raise Refused(f"{key!r} must be a string, not {json_type(value)}")

    def typed(self, key: str) -> str | None:
        """Text to type: a string, or a list of strings WDA joins."""
        value = self.data.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "".join(value)  # WDA joins a list of characters the same way
        if value is None or isinstance(value, str):
            return value
        # WDA joins a list's items by their descriptions, so [1, "a"] types "1a".
        what = "a list holding " + ", ".join(sorted({json_type(v) for v in value})) \
            if isinstance(value, list) else json_type(value)
        raise Refused(f"{key!r} must be a string or a list of strings, not {what}")


def _params(**values: Scalar) -> dict[str, Scalar]:
    """Keyword params without the ones the request did not carry."""
    return {k: v for k, v in values.items() if v is not None}


def _bundle_id(data: Mapping[str, object]) -> str | None:
    """The bundle id a new session asks for (W3C alwaysMatch/firstMatch or JSONWP desired).

    Raises:
        Refused: a bundle id that is not a string (WDA would not launch what the log names).
    """
    caps = data.get("capabilities")
    candidates: list[object] = []
    if isinstance(caps, Mapping):
        candidates.append(caps.get("alwaysMatch"))
        first = caps.get("firstMatch")
        candidates.extend(first if isinstance(first, list) else [])
    candidates.append(data.get("desiredCapabilities"))
    named: list[str] = []
    for cap in candidates:
        if isinstance(cap, Mapping):
            for key in ("bundleId", "appium:bundleId"):
                value = cap.get(key)
                if value is not None and not isinstance(value, str):
                    raise Refused(f"the capability {key!r} must be a string")
                if isinstance(value, str) and value and value not in named:
                    named.append(value)
    if len(named) > 1:
        # Which one WDA takes depends on how it merges capability sets: the log cannot know.
        raise Refused(f"the capabilities name {len(named)} apps ({', '.join(named[:3])}): "
                      "name one")
    return named[0] if named else None


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
        if "value" in b.data and "text" in b.data:
            # WDA types `value` and ignores `text`; a reader taking `text` would log other keys.
            raise Refused("the body has both 'value' and 'text': send one")
        text = "" if via == "clear" else b.typed("value") or b.typed("text") or ""
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
        params = _params(
            from_x=b.num("fromX"), from_y=b.num("fromY"), to_x=b.num("toX"), to_y=b.num("toY"),
            duration=duration if duration is not None else b.num("pressDuration"),
            element=ids[0] if ids else None, gesture=gesture)
        # an element's drag moves that element (its points are inside it); a screen drag, what
        # lies where it starts
        aim: Aim = "element" if ids else "from" if "from_x" in params and "from_y" in params \
            else "none"
        return Classified("swipe", params, aim)
    return handle


def _swipe(gesture: str) -> Handler:
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        direction = b.text("direction")
        if direction is None and b.data.get("toVisible"):
            direction = "visible"
        return Classified("swipe", _params(direction=direction, element=ids[0] if ids else None,
                                           gesture=gesture), "element" if ids else "none")
    return handle


def _pt(value: float) -> int | float:
    """A chain coordinate as the client wrote it: 100, not 100.0."""
    return int(value) if value.is_integer() else value


def _chain_action(chain: Chain, gesture: str) -> Classified:
    """One action for a whole touch chain: keys, a swipe (a move or two fingers) or a tap.

    A chain one line cannot describe is refused: keys with touches (the touches could move the
    focus to a password field before the keys are typed), or a finger that touches twice.
    """
    if chain.text and chain.touches:
        raise Refused("the actions both touch and type: send the touches and the keys as two "
                      "requests, so each is logged as what it is")
    if chain.repeated:
        raise Refused("a finger touches the screen more than once in one actions request: send "
                      "each touch as its own request (or use /wda/doubleTap)")
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
            gesture="multi_touch" if chain.fingers > 1 else gesture),
            "none" if chain.fingers > 1 else "element" if element else "from")
    aim: Aim = "element" if element else "point"
    return Classified("tap", _params(x=_pt(first.down.x), y=_pt(first.down.y), element=element,
                                     duration=round(first.held_s, 3), gesture=gesture), aim)


def _w3c(b: _Body, _: tuple[str, ...]) -> Classified:
    return _chain_action(summarise_w3c(b.data), "actions")


def _touch_perform(multi: bool) -> Handler:
    return lambda b, _: _chain_action(summarise_legacy(b.data, multi), "touch_perform")


def _session_settings(data: Mapping[str, object]) -> list[str]:
    """The WDA settings a new session's capabilities set that only `HARMLESS_SETTINGS` may be
    (WDA takes several settings as capabilities too, `appium:` prefixed or not)."""
    caps = data.get("capabilities")
    sets: list[object] = [data.get("desiredCapabilities")]
    if isinstance(caps, Mapping):
        first = caps.get("firstMatch")
        sets += [caps.get("alwaysMatch"), *(first if isinstance(first, list) else [])]
    named = {str(key).removeprefix("appium:") for cap in sets if isinstance(cap, Mapping)
             for key in cap}
    return sorted((named & WDA_SETTINGS) - HARMLESS_SETTINGS)


def _refuse_settings(names: list[str], how: str) -> Refused:
    return Refused(f"the WDA settings {', '.join(names)} change what the phone's reads show, "
                   "how WDA answers, or the phone's own settings, which the harness grades and "
                   f"logs by; only these may be {how} through the bridge: "
                   f"{', '.join(sorted(HARMLESS_SETTINGS))}", 403, "unsupported operation")


def _session(b: _Body, _: tuple[str, ...]) -> Classified:
    # A session with a bundle launches that app. A bare one launches nothing (FBSession leaves
    # the phone as it is), but it still replaces the session, whose app WDA may terminate.
    kept = _session_settings(b.data)
    if kept:
        raise _refuse_settings(kept, "given as a session's capabilities")
    bundle = _bundle_id(b.data)
    if bundle:
        return Classified("launch", {"bundle_id": bundle, "via": "session"}, session="open")
    return Classified("other", {"route": "/session"}, session="open")


def _settings(b: _Body, _: tuple[str, ...]) -> Classified:
    """`appium/settings`: an `other` naming the settings changed (their values are not kept).

    Raises:
        Refused: it changes a setting other than the harmless ones (`HARMLESS_SETTINGS`).
    """
    settings = b.data.get("settings")
    names = ",".join(settings) if isinstance(settings, Mapping) else None
    kept = sorted(set(settings) - HARMLESS_SETTINGS) if isinstance(settings, Mapping) else []
    if kept:
        raise _refuse_settings(kept, "changed")
    return Classified("other", _params(settings=names))


ROUTES: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("wda", "apps", "launch"), _app("launch")),
    (("wda", "apps", "launchUnattached"), _app("launch", "launch_unattached")),
    (("wda", "apps", "activate"), _app("activate")),
    (("wda", "apps", "terminate"), _app("terminate")),
    (("wda", "tap"), _tap("tap")),
    (("wda", "tap", ":id"), _tap("tap")),  # facebook-wda's fallback (gate.LEGACY_TAP)
    (("wda", "element", ":id", "tap"), _tap("tap")),
    (("element", ":id", "click"), _tap("click")),
    (("wda", "doubleTap"), _tap("double_tap")),
    (("wda", "element", ":id", "doubleTap"), _tap("double_tap")),
    (("wda", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "element", ":id", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "twoFingerTap"), _tap("two_finger_tap")),
    (("wda", "element", ":id", "twoFingerTap"), _tap("two_finger_tap")),
    (("wda", "tapWithNumberOfTaps"), _tap("taps")),
    (("wda", "element", ":id", "tapWithNumberOfTaps"), _tap("taps")),
    (("wda", "forceTouch"), _tap("force_touch")),
    (("wda", "element", ":id", "forceTouch"), _tap("force_touch")),
    (("alert", "accept"), _alert("alert_accept")),
    (("alert", "dismiss"), _alert("alert_dismiss")),
    (("wda", "keyboard", "dismiss"), _alert("keyboard_dismiss")),
    (("wda", "keys"), _typing("keys")),
    (("element", ":id", "value"), _typing("element")),
    (("element", ":id", "clear"), _typing("clear")),
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
    (("wda", "element", ":id", "dragfromtoforduration"), _drag("drag")),
    (("wda", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "element", ":id", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "swipe"), _swipe("swipe")),
    (("wda", "element", ":id", "swipe"), _swipe("swipe")),
    (("wda", "scroll"), _swipe("scroll")),
    (("wda", "element", ":id", "scroll"), _swipe("scroll")),
    (("wda", "element", ":id", "scrollTo"), _swipe("scroll_to")),
    (("wda", "pinch"), _swipe("pinch")),
    (("wda", "element", ":id", "pinch"), _swipe("pinch")),
    (("wda", "rotate"), _swipe("rotate")),
    (("wda", "element", ":id", "rotate"), _swipe("rotate")),
    (("wda", "pickerwheel", ":id", "select"), _swipe("picker_select")),
    (("actions",), _w3c),
    (("wda", "touch", "perform"), _touch_perform(False)),
    (("wda", "touch", "multi", "perform"), _touch_perform(True)),
    (("url",), lambda b, _: Classified("open_url", _params(url=b.text("url")))),
    (("appium", "settings"), _settings),
)


def classify_request(request: Canonical) -> Classified | None:
    """Classify one admitted request; None means a read, forwarded without logging.

    Raises:
        Refused: a body field the action would be logged by has a type WDA would read otherwise.
    """
    found = request.route
    session_id = found.session_id
    if not is_input(request.method, found.pattern):
        return None
    route = tuple(p for p in found.pattern.split("/") if p)
    clean = found.pattern
    for name, value in found.params.items():  # ":uuid" -> the id, as the patterns below want
        clean = clean.replace(f":{name}", value)
    concrete = tuple(p for p in clean.split("/") if p)
    if request.method == "DELETE":
        if not route:  # closing the session terminates its app on a real phone
            return Classified("terminate", {"via": "delete_session"}, session_id=session_id,
                              session="close")
        return Classified("other", {"route": clean}, session_id=session_id)
    body = _Body(request.body)
    if route == ("session",):
        return _session(body, ())
    for pattern, handle in ROUTES:
        captured = match_parts(pattern, concrete)
        if captured is not None:
            action = handle(body, tuple(captured.values()))
            params = {"route": clean, **action.params} if action.kind == "other" \
                else action.params
            return Classified(action.kind, params, action.aim, session_id, action.session)
    return Classified("other", {"route": clean}, session_id=session_id)


def classify(method: str, target: str, body: object = None) -> Classified | None:
    """Admit and classify one request given as decoded JSON (for tests and tools).

    Raises:
        Refused: the request is not one WDA route read one way only.
    """
    raw = b"" if body is None else json.dumps(body).encode()
    return classify_request(admit(method.upper(), target, {}, raw))
