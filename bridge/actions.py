"""Classify an admitted WebDriverAgent request: a read (forwarded unlogged) or an action.

Pure: a function of the canonical request (`gate.Canonical`), so every route's classification
is a unit test. The rules that keep the log honest: a WDA route that can change the phone and is
not a named action is an `other` action (params {"route": path}), logged like any other; GET and
OPTIONS never act and are forwarded unlogged; `DELETE /session/:sid` is a `terminate` (real WDA
terminates the session's app when it closes a session, `shouldTerminateApp` being on by
default). Every body field an action is logged by is read with the type WDA reads it with, and
a field of another type (a number sent as a string, a list of characters holding a number, both
`value` and `text`) is refused (`gate.Refused`), never guessed: WDA would coerce it one way and
the log would say another. So is a touch the log could not name by what it touches: a tap with
neither a point nor an element (WDA touches the middle of the app), a point offset from an
element that lands outside its frame (`Aiming.placed`), a pinch or rotate of the whole app, a
swipe at a point; and a touch chain holding more than one gesture (`pointer.py`, `chains.py`).
Durations in params are seconds, whatever unit the route took. A request that would keep the
phone busy longer than a gesture or a task's typing needs (a hold, a drag at a crawl, a novel
typed) is refused too (`limits.py`), and so is a button named by a usage page or usage WDA
would read as another (12.0, 48.4). A new session's capabilities and WDA's settings are read in
`sessions.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import replace

from bridge.chains import chain_action, check_fingers
from bridge.classified import Aim, Classified
from bridge.classified import params as _params
from bridge.finds import check_find, check_predicate
from bridge.gate import Canonical, Refused, admit, json_type
from bridge.limits import (
    LONGEST_TRAVEL_PT,
    MAX_SCROLL_DISTANCE,
    MAX_TAPS,
    check_gesture,
    check_paced,
    check_typing,
    check_wait,
    travel_s,
)
from bridge.opened_urls import check_open_url
from bridge.pointer import summarise_legacy, summarise_w3c, unnamed
from bridge.sessions import check_launch_extras, session_action, settings_action
from phoneshell.presses import TAPS_GESTURE
from phoneshell.records import ActionKind
from phoneshell.wda_routes import NOTIFICATION_WAIT_S, is_input, match_parts
from phoneshell.xcui import ALERT_PRESSES, HOME_BUTTON_HID, SIDE_BUTTON_HID


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

    def whole(self, key: str) -> int:
        """A whole number WDA reads with unsignedIntValue (which drops a fraction and wraps a
        negative round), as the log must name it.

        Raises:
            Refused: missing (WDA reads 0), not a number, negative or not whole.
        """
        value = self.num(key)
        if value is None:
            raise Refused(f"{key!r} is missing: WDA reads a missing one as 0")
        if value < 0 or value != int(value):
            raise Refused(f"{key!r} must be a whole number of 0 or more: WDA reads it with "
                          "unsignedIntValue, so the log would name another one than it takes")
        return int(value)

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


Handler = Callable[[_Body, tuple[str, ...]], Classified]


def _app(kind: ActionKind, via: str | None = None) -> Handler:
    def handle(b: _Body, _: tuple[str, ...]) -> Classified:
        if kind == "launch" and via is None:  # WDA's launch reads them; the others do not
            check_launch_extras(b.data, "a launch")
        return Classified(kind, _params(bundle_id=b.text("bundleId"), via=via))
    return handle


def _expect_notification(b: _Body, _: tuple[str, ...]) -> Classified:
    """`expectNotification` waits on WDA's main thread for a notification no task sends, for
    `timeout` seconds (`NOTIFICATION_WAIT_S` when missing): refused past a gesture's limit."""
    timeout = b.num("timeout")
    check_wait("waiting for a notification",
               NOTIFICATION_WAIT_S if timeout is None else float(timeout))
    return Classified("other", _params(timeout=timeout))


def _keyboard_input(b: _Body, _: tuple[str, ...]) -> Classified:
    raise Refused("keyboardInput presses keys by name with modifier flags (⌘V pastes what the "
                  "phone's owner copied, ⌘Z undoes, a key name types a character other than "
                  "its text), which the log cannot read as the text typed; type with POST "
                  "/wda/keys or an element's value", 403, "unsupported operation")


def _tap(gesture: str, at_point: bool = True) -> Handler:
    """A tap-like gesture at (x, y), or on the element named in the path.

    `at_point`: the route reads x and y (WDA's click, twoFingerTap and tapWithNumberOfTaps
    read none). Refused when it names neither (WDA then touches the middle of the app, whatever
    is drawn there), and when it names one only (WDA answers "Both x and y coordinates must be
    provided"). With an element, x and y are an offset from the top-left corner of its frame
    (`targetWithXyCoordinatesFromRequest`): the action keeps them as `offset_x`/`offset_y`,
    and the recorder logs it as a tap at the point they name once it has read the frame
    (`Aiming.placed`).
    """
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        element = ids[0] if ids and ids[0] != "0" else None  # legacy /wda/tap/0: no element
        x, y = (b.num("x"), b.num("y")) if at_point else (None, None)
        if element and (x is None) != (y is None):
            raise Refused("Both x and y coordinates must be provided")
        if element and x is not None and y is not None:
            return Classified("tap", _params(element=element, offset_x=x, offset_y=y,
                                             gesture=gesture, duration=b.num("duration")),
                              "element")
        if not element and (x is None or y is None):
            raise unnamed("without an element" + (" or a point (x and y)" if at_point else "")
                           + " WDA touches the middle of the app",
                           "name the element" + (" or the point" if at_point else ""))
        params = _params(x=x, y=y, element=element, gesture=gesture, duration=b.num("duration"))
        if gesture == TAPS_GESTURE:  # the counts tell a press from none (`press_count`)
            params[TAPS_GESTURE], params["touches"] = _count_taps(b)
        points = ((x, y),) if x is not None and y is not None else ()
        return Classified("tap", params, "element" if element else "point", points=points)
    return handle


def _count_taps(b: _Body) -> tuple[int, int]:
    """The taps and fingers of a `tapWithNumberOfTaps`, as WDA reads them (integerValue) and
    the log names them, for the checks to count its presses by.

    Raises:
        Refused: a count missing (WDA answers an error and taps nothing), not a whole number of
            0 or more (integerValue drops a fraction: the log would name another count than it
            takes), more than `MAX_TAPS` taps (XCTest plays each tap in turn), or three fingers
            or more (iOS's three-finger tap brings the edit bar: undo, cut, copy, paste;
            `chains.check_fingers`).
    """
    counts: list[int] = []
    for key in ("numberOfTaps", "numberOfTouches"):
        value = b.num(key)
        if value is None:
            raise Refused(f"{key!r} is missing: WDA needs both numberOfTaps and numberOfTouches")
        if not math.isfinite(value) or value < 0 or value != int(value):
            raise Refused(f"{key!r} must be a whole number of 0 or more, not {value!r:.20}: WDA "
                          "reads it with integerValue, so the log would name another count "
                          "than it takes")
        counts.append(int(value))
    taps, touches = counts
    if taps > MAX_TAPS:
        raise Refused(f"numberOfTaps {taps}: the bridge allows up to {MAX_TAPS} taps (a "
                      "person's gesture holds at most three)", 403, "unsupported operation")
    check_fingers(touches, f"numberOfTouches {touches}: ")
    return taps, touches


def _alert(gesture: str) -> Handler:
    """WDA's alert routes press a button of the alert on screen, by name or by WDA's rule for
    the route: aimed at it (`Aim` "alert"), so the log and the refusals name what was pressed."""
    aim: Aim = "alert" if gesture in ALERT_PRESSES else "none"
    return lambda b, _: Classified("tap", _params(gesture=gesture, button=b.text("name")), aim)


def _typing(via: str) -> Handler:
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        if "value" in b.data and "text" in b.data:
            # WDA types `value` and ignores `text`; a reader taking `text` would log other keys.
            raise Refused("the body has both 'value' and 'text': send one")
        text = "" if via == "clear" else b.typed("value") or b.typed("text") or ""
        check_typing(text, b.num("frequency"))
        element = ids[0] if ids else None
        aim: Aim = "element" if element else "focus" if via in ("keys", "alert") else "none"
        return Classified("type", _params(text=text, element=element, via=via), aim)
    return handle


LASTING_BUTTONS = ("the volume buttons, the Action button or the Camera Control would change "
                   "what no WDA route reads and nothing sets back (the ringer's and alarms' "
                   "volume, silent mode, the owner's chosen action, a photo taken); no task "
                   "needs them")
"""Why a button other than home is refused: its effect outlasts the attempt, unread."""
HID_BUTTONS = frozenset({SIDE_BUTTON_HID, HOME_BUTTON_HID})
"""The IOHID (page, usage) pairs admitted here: Menu (home, as facebook-wda's `press_duration`
sends it), and the side button, which the recorder then refuses with its own reason
(`xcui.takes_rig_down`: Emergency SOS, the power-off slider)."""


def _press(button: str | None = None) -> Handler:
    def handle(b: _Body, _: tuple[str, ...]) -> Classified:
        name = button or b.text("name") or ""
        if button is None and name != "home":  # WDA's pressButton: home, volume, action...
            raise Refused(f"pressing {name[:40]!r}: {LASTING_BUTTONS}")
        return Classified("press", _params(button=name, duration=b.num("duration")))
    return handle


def _hid(b: _Body, _: tuple[str, ...]) -> Classified:
    """An IOHID event: a button named by its usage page and usage, as WDA reads them (12.0 and
    48.4 are the power button, 12 and 48, to WDA's unsignedIntValue: refused, not logged as
    another button than the phone presses). Only the side button and Menu are admitted: a
    keyboard page's usage types what the log would not read as typing, and the consumer page
    holds the volume, mute, brightness and media keys, whose effects nothing sets back."""
    page, usage = b.whole("page"), b.whole("usage")
    if (page, usage) not in HID_BUTTONS:
        raise Refused(f"the IOHID event {page}:{usage}: only the side button (12:48) and Menu "
                      f"(12:64) are admitted; {LASTING_BUTTONS}, and a key typed this way "
                      "would not be logged as typing")
    return Classified("press", _params(button=f"hid:{page}:{usage}", duration=b.num("duration")))


def _drag(gesture: str) -> Handler:
    """A drag by screen points, aimed at what lies where it starts (the slider it moves, the
    list it scrolls); `pressAndDragWithVelocity` on an element drags from that element to
    `toElement` (WDA reads no points then), aimed at the element.

    Refused: `dragfromtoforduration` on an element (its points are offsets from the element's
    corner, which may lie outside it), and a screen drag missing a point (WDA reads it as 0).
    """
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        duration = b.num("duration")
        duration = duration if duration is not None else b.num("pressDuration")
        if gesture == "press_and_drag":
            _check_press_and_drag(b, None if ids else ("fromX", "fromY", "toX", "toY"))
        if ids and gesture == "press_and_drag":
            return Classified("swipe", _params(duration=duration, element=ids[0],
                                               gesture=gesture), "element")
        if ids:
            raise unnamed("a drag on an element starts and ends at offsets from the element's "
                           "corner, which may lie outside it",
                           "drag by points on screen (/wda/dragfromtoforduration)")
        found = [b.num(key) for key in ("fromX", "fromY", "toX", "toY")]
        ends = [end for end in found if end is not None]
        if len(ends) < 4:
            raise Refused("a drag needs fromX, fromY, toX and toY: WDA reads a missing one as 0")
        from_x, from_y, to_x, to_y = ends
        return Classified("swipe", _params(from_x=from_x, from_y=from_y, to_x=to_x, to_y=to_y,
                                           duration=duration, gesture=gesture), "from",
                          points=((from_x, from_y), (to_x, to_y)))
    return handle


def _check_press_and_drag(b: _Body, ends: tuple[str, ...] | None) -> None:
    """Refuse a `pressAndDragWithVelocity` that plays longer than a gesture may: its press, its
    travel at `velocity` (between its points, or at most across the screen between elements)
    and its hold, one after another."""
    points = [b.num(key) or 0.0 for key in ends] if ends else None
    distance = math.dist(points[:2], points[2:]) if points else LONGEST_TRAVEL_PT
    check_gesture("its press, drag and hold", (b.num("pressDuration") or 0.0)
                  + travel_s(b.num("velocity"), distance) + (b.num("holdDuration") or 0.0))


def _swipe(gesture: str, needs_element: bool = False) -> Handler:
    """A swipe, scroll, pinch or rotate on the element in the path, or on the whole app.
    `needs_element`: refused without one (a pinch or rotate of the whole app puts two fingers
    at points the log cannot name)."""
    def handle(b: _Body, ids: tuple[str, ...]) -> Classified:
        if needs_element and not ids:
            raise unnamed(f"without an element WDA makes the {gesture} on the whole app, with "
                           "two fingers", "name the element")
        if gesture == "swipe" and ("x" in b.data or "y" in b.data):
            raise unnamed("a swipe at a point crosses a frame the size of the screen centred "
                          "there, starting and ending where the log could not name",
                          "drag between points on screen (/wda/dragfromtoforduration)")
        _check_pace(gesture, b)
        direction = b.text("direction")
        if direction is None and b.data.get("toVisible"):
            direction = "visible"
        distance = _distance(b) if gesture == "scroll" and direction in SCROLLED else None
        return Classified("swipe", _params(direction=direction, distance=distance,
                                           element=ids[0] if ids else None, gesture=gesture),
                          "element" if ids else "none")
    return handle


MAX_PICKER_ROWS = 60
"""The most rows one picker wheel select may turn (`maxAttempts`; WDA's default is 25): a
minute or second wheel's round. WDA taps a row at a time and waits for each to settle, and
looks for a value a wheel may never show until the attempts run out."""


def _picker_select(b: _Body, ids: tuple[str, ...]) -> Classified:
    """`pickerwheel/:id/select`: a swipe on the wheel, logged with every argument WDA reads
    (`order` as the direction, the `value` it turns to, `max_attempts` rows at most, the tap's
    `offset`), since one request may turn it many rows. Each row is a tap inside the wheel's
    frame (at most half its height from its centre), on the wheel only: not a press of
    anything else. Refused past `MAX_PICKER_ROWS` rows."""
    attempts = b.num("maxAttempts")
    if attempts is not None and attempts > MAX_PICKER_ROWS:
        raise Refused(f"maxAttempts {attempts:g}: WDA turns the wheel a row at a time until it "
                      f"shows the value, and the bridge allows up to {MAX_PICKER_ROWS} rows a "
                      "request", 403, "unsupported operation")
    return Classified("swipe", _params(direction=b.text("order"), value=b.text("value"),
                                       max_attempts=b.num("maxAttempts"),
                                       offset=b.num("offset"), element=ids[0],
                                       gesture="picker_select"), "element")


def _check_pace(gesture: str, b: _Body) -> None:
    """Refuse a swipe, pinch or rotation slower than a gesture may be (at most across the
    screen at `velocity`; a scale or an angle at its velocity), or a scroll further than
    `MAX_SCROLL_DISTANCE` list lengths."""
    if gesture == "swipe":
        check_gesture("a swipe at that velocity", travel_s(b.num("velocity")))
    elif gesture == "pinch":
        check_paced("a pinch", abs((b.num("scale") or 1.0) - 1.0), b.num("velocity"))
    elif gesture == "rotate":
        check_paced("a rotation", b.num("rotation"), b.num("velocity"))
    if gesture == "scroll":  # WDA finds the child to scroll to by it
        check_predicate(b.data.get("predicateString"), "scroll's predicateString")
    distance = b.data.get("distance")
    if gesture == "scroll" and not abs(_distance(b)) <= MAX_SCROLL_DISTANCE:
        raise Refused(f"a scroll {distance!s:.20} list lengths long: WDA scrolls it in "
                      "several drags, one after another, and the bridge allows up to "
                      f"{MAX_SCROLL_DISTANCE:g} a request", 403, "unsupported operation")


SCROLLED = frozenset({"up", "down", "left", "right"})
"""The directions WDA's scroll drags in (any other direction does nothing)."""


def _distance(b: _Body) -> float:
    """A scroll's `distance` as WDA reads it: 1.0 when absent, else its doubleValue.

    Raises:
        Refused: it is not a number (a string's doubleValue reads a leading number and ignores
            the rest, so "0.5 list" scrolls half a list: where its drags land would be guessed).
    """
    distance = b.data.get("distance", 1.0)
    if isinstance(distance, (int, float)):
        return float(distance)
    raise Refused(f"scroll's distance {distance!r:.30} is not a number: send one (WDA reads "
                  "it with doubleValue, which reads what a string begins with)")


def _open_url(b: _Body, _: tuple[str, ...]) -> Classified:
    """`/url`: an `open_url` of `url`, with the app `bundleId` names when present (WDA then
    opens the URL with that app), refused by what would open (`opened_urls.py`)."""
    url, bundle_id = b.text("url"), b.text("bundleId")
    check_open_url(url or "", bundle_id)
    return Classified("open_url", _params(url=url, bundle_id=bundle_id))


def _w3c(b: _Body, _: tuple[str, ...]) -> Classified:
    return chain_action(summarise_w3c(b.data), "actions")


def _touch_perform(multi: bool) -> Handler:
    return lambda b, _: chain_action(summarise_legacy(b.data, multi), "touch_perform")


ROUTES: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("wda", "apps", "launch"), _app("launch")),
    (("wda", "apps", "launchUnattached"), _app("launch", "launch_unattached")),
    (("wda", "apps", "activate"), _app("activate")),
    (("wda", "apps", "terminate"), _app("terminate")),
    (("wda", "tap"), _tap("tap")),
    (("wda", "tap", ":id"), _tap("tap")),  # facebook-wda's fallback (gate.LEGACY_TAP)
    (("wda", "element", ":id", "tap"), _tap("tap")),
    (("element", ":id", "click"), _tap("click", at_point=False)),  # handleClick reads no x, y
    (("wda", "doubleTap"), _tap("double_tap")),
    (("wda", "element", ":id", "doubleTap"), _tap("double_tap")),
    (("wda", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "element", ":id", "touchAndHold"), _tap("touch_and_hold")),
    (("wda", "twoFingerTap"), _tap("two_finger_tap", at_point=False)),
    (("wda", "element", ":id", "twoFingerTap"), _tap("two_finger_tap", at_point=False)),
    (("wda", "tapWithNumberOfTaps"), _tap("taps", at_point=False)),
    (("wda", "element", ":id", "tapWithNumberOfTaps"), _tap("taps", at_point=False)),
    (("wda", "forceTouch"), _tap("force_touch")),
    (("wda", "element", ":id", "forceTouch"), _tap("force_touch")),
    (("alert", "accept"), _alert("alert_accept")),
    (("alert", "dismiss"), _alert("alert_dismiss")),
    (("wda", "keyboard", "dismiss"), _alert("keyboard_dismiss")),
    (("wda", "keys"), _typing("keys")),
    (("element", ":id", "value"), _typing("element")),
    (("element", ":id", "clear"), _typing("clear")),
    (("alert", "text"), _typing("alert")),
    (("wda", "homescreen"), lambda b, _: Classified("home")),
    (("wda", "deactivateApp"), lambda b, _: Classified(
        "home", _params(via="deactivate_app", duration=b.num("duration")))),
    (("wda", "pressButton"), _press()),
    (("wda", "lock"), _press("lock")),
    (("wda", "unlock"), _press("unlock")),
    (("wda", "performIoHidEvent"), _hid),
    (("wda", "expectNotification"), _expect_notification),
    (("wda", "element", ":id", "keyboardInput"), _keyboard_input),
    (("wda", "dragfromtoforduration"), _drag("drag")),
    (("wda", "element", ":id", "dragfromtoforduration"), _drag("drag")),
    (("wda", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "element", ":id", "pressAndDragWithVelocity"), _drag("press_and_drag")),
    (("wda", "swipe"), _swipe("swipe")),
    (("wda", "element", ":id", "swipe"), _swipe("swipe")),
    (("wda", "scroll"), _swipe("scroll")),
    (("wda", "element", ":id", "scroll"), _swipe("scroll")),
    (("wda", "element", ":id", "scrollTo"), _swipe("scroll_to")),
    (("wda", "pinch"), _swipe("pinch", needs_element=True)),
    (("wda", "element", ":id", "pinch"), _swipe("pinch")),
    (("wda", "rotate"), _swipe("rotate", needs_element=True)),
    (("wda", "element", ":id", "rotate"), _swipe("rotate")),
    (("wda", "pickerwheel", ":id", "select"), _picker_select),
    (("actions",), _w3c),
    (("wda", "touch", "perform"), _touch_perform(False)),
    (("wda", "touch", "multi", "perform"), _touch_perform(True)),
    (("url",), _open_url),
    (("appium", "settings"), lambda b, _: settings_action(b.data)),
)


def _checked(action: Classified) -> Classified:
    """The action, once its duration (seconds) is found no longer than a gesture may be.

    Raises:
        Refused: it would keep the phone busy too long (`limits.check_gesture`).
    """
    duration = action.params.get("duration")
    if isinstance(duration, (int, float)) and not isinstance(duration, bool):
        check_gesture("its duration", float(duration))
    return action


def classify_request(request: Canonical) -> Classified | None:
    """Classify one admitted request; None means a read, forwarded without logging.

    Raises:
        Refused: a body field the action would be logged by has a type WDA would read otherwise,
            or a find whose query could keep the phone busy without end (`finds`).
    """
    found = request.route
    session_id = found.session_id
    check_find(found.pattern, request.body)
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
        return _checked(session_action(body.data))
    for pattern, handle in ROUTES:
        captured = match_parts(pattern, concrete)
        if captured is not None:
            action = _checked(handle(body, tuple(captured.values())))
            params = {"route": clean, **action.params} if action.kind == "other" \
                else action.params
            others = tuple(replace(o, session_id=session_id) for o in action.others)
            return replace(action, params=params, session_id=session_id, others=others)
    return Classified("other", {"route": clean}, session_id=session_id)


def classify(method: str, target: str, body: object = None) -> Classified | None:
    """Admit and classify one request given as decoded JSON (for tests and tools).

    Raises:
        Refused: the request is not one WDA route read one way only.
    """
    raw = b"" if body is None else json.dumps(body).encode()
    return classify_request(admit(method.upper(), target, {}, raw))
