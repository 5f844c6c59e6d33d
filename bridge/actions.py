"""Classify an admitted WebDriverAgent request: a read (forwarded unlogged) or an action.

Pure: a function of the canonical request (`gate.Canonical`), so every route's classification is a
unit test. The rules that keep the log honest: a WDA route that can change the phone and is not a
named action is an `other` action (params {"route": path}), logged like any other; a route is an
action by what WDA does on it, not by its method: GET and OPTIONS are reads, forwarded unlogged,
but for `GET /wda/healthcheck`, which presses Home (a `home` action, `wda_routes.GETS_THAT_ACT`);
`DELETE /session/:sid` is a `terminate` (real WDA terminates
the session's app when it closes a session, `shouldTerminateApp` being on by default). Every body
field an action is logged by is read with the type WDA reads it with, and a field of another type
(a number sent as a string, a list of characters holding a number, a `value` and a `text` spelling
different texts) is refused (`gate.Refused`), never guessed: WDA would coerce it one way and the
log would say another. So is a touch the log could not name by what it touches: a tap with neither
a point nor an element (WDA touches the middle of the app), a point offset from an element that
lands outside its frame (`Aiming.placed`), a pinch or rotate of the whole app, a swipe at a point;
and a touch chain holding more than one gesture (`pointer.py`, `chains.py`). Durations in params
are seconds, whatever unit the route took. A request that would keep the phone busy longer than a
gesture or a task's typing needs (a hold, a drag at a crawl, a novel typed) is refused too
(`limits.py`), and so is a button named by a usage page or usage WDA would read as another (12.0,
48.4). A new session's capabilities and WDA's settings are read in `sessions.py`. A keyboard
dismiss by key names is logged as the tap on the one key they press, or refused
(`dismissed_keys.py`).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

from bridge.chains import chain_action, check_fingers
from bridge.classified import Aim, Classified
from bridge.classified import params as _params
from bridge.finds import check_find
from bridge.gate import Canonical, Refused, admit
from bridge.gesture_actions import drag, picker_select, swipe
from bridge.limits import (
    MAX_TAPS,
    check_gesture,
    check_typing,
    check_wait,
)
from bridge.opened_urls import check_open_url
from bridge.pointer import summarise_legacy, unnamed
from bridge.request_body import Body, Handler
from bridge.sessions import check_launch_extras, session_action, settings_action
from bridge.w3c_chain import summarise_w3c
from phoneshell.holds import PRESS_FIELDS
from phoneshell.keyboard_dismiss import DISMISS_VIA
from phoneshell.presses import TAPS_GESTURE
from phoneshell.records import ActionKind
from phoneshell.wda_routes import NOTIFICATION_WAIT_S, is_input, match_parts, pressed_button
from phoneshell.xcui import HOME_BUTTON_HID, SIDE_BUTTON_HID


def _app(kind: ActionKind, via: str | None = None) -> Handler:
    def handle(b: Body, _: tuple[str, ...]) -> Classified:
        if kind == "launch" and via is None:  # WDA's launch reads them; the others do not
            check_launch_extras(b.data, "a launch")
        return Classified(kind, _params(bundle_id=b.text("bundleId"), via=via))
    return handle


def _expect_notification(b: Body, _: tuple[str, ...]) -> Classified:
    """`expectNotification` waits on WDA's main thread for a notification no task sends, for
    `timeout` seconds (`NOTIFICATION_WAIT_S` when missing): refused past a gesture's limit."""
    timeout = b.num("timeout")
    check_wait("waiting for a notification",
               NOTIFICATION_WAIT_S if timeout is None else float(timeout))
    return Classified("other", _params(timeout=timeout))


def _keyboard_input(b: Body, _: tuple[str, ...]) -> Classified:
    raise Refused("keyboardInput presses keys by name with modifier flags (⌘V pastes what the "
                  "phone's owner copied, ⌘Z undoes, a key name types a character other than "
                  "its text), which the log cannot read as the text typed; type with POST "
                  "/wda/keys or an element's value", 403, "unsupported operation")


def _tap(gesture: str, route: str, at_point: bool = True) -> Handler:
    """A tap-like gesture at (x, y), or on the element named in the path, by WDA's `route` (its
    path's last part). Its `duration` is logged from the one field WDA reads as the route's
    press (`holds.PRESS_FIELDS`: touchAndHold's and forceTouch's `duration`), and from none on
    a route that reads no press (a tap or a double tap with a `duration` is a quick tap).

    `at_point`: the route reads x and y (WDA's click, twoFingerTap and tapWithNumberOfTaps
    read none). Refused when it names neither (WDA then touches the middle of the app, whatever
    is drawn there), and when it names one only (WDA answers "Both x and y coordinates must be
    provided"). With an element, x and y are an offset from the top-left corner of its frame
    (`targetWithXyCoordinatesFromRequest`): the action keeps them as `offset_x`/`offset_y`,
    and the recorder logs it as a tap at the point they name once it has read the frame
    (`Aiming.placed`).
    """
    press = PRESS_FIELDS.get(route)

    def handle(b: Body, ids: tuple[str, ...]) -> Classified:
        element = ids[0] if ids and ids[0] != "0" else None  # legacy /wda/tap/0: no element
        x, y = (b.num("x"), b.num("y")) if at_point else (None, None)
        duration = b.num(press) if press else None
        if element and (x is None) != (y is None):
            raise Refused("Both x and y coordinates must be provided")
        if element and x is not None and y is not None:
            return Classified("tap", _params(element=element, offset_x=x, offset_y=y,
                                             gesture=gesture, duration=duration),
                              "element")
        if not element and (x is None or y is None):
            raise unnamed("without an element" + (" or a point (x and y)" if at_point else "")
                           + " WDA touches the middle of the app",
                           "name the element" + (" or the point" if at_point else ""))
        params = _params(x=x, y=y, element=element, gesture=gesture, duration=duration)
        if gesture == TAPS_GESTURE:  # the counts tell a press from none (`press_count`)
            params[TAPS_GESTURE], params["touches"] = _count_taps(b)
        points = ((x, y),) if x is not None and y is not None else ()
        return Classified("tap", params, "element" if element else "point", points=points)
    return handle


def _count_taps(b: Body) -> tuple[int, int]:
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
    return lambda b, _: Classified("tap", _params(gesture=gesture, button=b.text("name")), "alert")


def _dismiss_keyboard(b: Body, _: tuple[str, ...]) -> Classified:
    """`/wda/keyboard/dismiss` presses the keyboard's keys `keyNames` names until it goes
    (`phoneshell.keyboard_dismiss`), and reads nothing else (no `name`). The names travel with
    the action, unlogged (a letter may be one of a password's), for the recorder to find the key
    they press on the screen known (`Aiming.placed`) and log the press as a tap on it; without
    names an iPhone's WDA presses nothing. So it is classified as touching nothing (`taps` 0,
    `presses.NO_FINGER_GESTURES`: the fail-closed readers pass over it), which the recorder
    replaces by the tap on the key the names press, or refuses, wherever they press one."""
    return Classified("tap", _params(gesture=DISMISS_VIA, taps=0),
                      key_names=tuple(b.strings("keyNames") or ()))


def _typing(via: str) -> Handler:
    def handle(b: Body, ids: tuple[str, ...]) -> Classified:
        text = "" if via == "clear" else b.typed_text(via)
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
LASTING_BUTTON_NAMES = frozenset({"volumeup", "volumedown", "action", "camera"})
"""The `pressButton` names of buttons whose effect outlasts the attempt (lower-cased, as WDA
compares them): refused for `LASTING_BUTTONS`; any other name but home is no button at all."""
NO_SUCH_BUTTON = ("it is no button WDA's pressButton knows (it compares the name lower-cased, "
                  "but spelled exactly: 'home ' is none); press {'name': 'home'} to go home, "
                  "and lock the phone with /wda/lock")
"""Why a `pressButton` name that is no button is refused (not as a lasting button)."""
HID_BUTTONS = frozenset({SIDE_BUTTON_HID, HOME_BUTTON_HID})
"""The IOHID (page, usage) pairs admitted here: Menu (home, as facebook-wda's `press_duration`
sends it), and the side button, which the recorder then refuses with its own reason
(`rig_down.takes_rig_down`: Emergency SOS, the power-off slider)."""


def _press(button: str | None = None) -> Handler:
    def handle(b: Body, _: tuple[str, ...]) -> Classified:
        name = button or b.text("name") or ""
        if button is None:  # WDA's pressButton: home, volume, action..., named in any case
            if name.lower() in LASTING_BUTTON_NAMES:
                raise Refused(f"pressing {name[:40]!r}: {LASTING_BUTTONS}")
            if pressed_button(name) != "home":
                raise Refused(f"pressing {name[:40]!r}: {NO_SUCH_BUTTON}")
            name = "home"  # logged as the button the phone pressed ("Home" presses it too)
        return Classified("press", _params(button=name, duration=b.num("duration")))
    return handle


def _hid(b: Body, _: tuple[str, ...]) -> Classified:
    """An IOHID event: a button named by its usage page and usage, as WDA reads them (12.0 and
    48.4 are the power button, 12 and 48, to WDA's unsignedIntValue: refused, not logged as
    another button than the phone presses). Only the side button and Menu pass here, and the
    side button is refused next, by the recorder (`HID_BUTTONS`), so a refusal here names Menu
    alone as admitted (red team 139: it named both, then refused the side button). A
    keyboard page's usage types what the log would not read as typing, and the consumer page
    holds the volume, mute, brightness and media keys, whose effects nothing sets back."""
    page, usage = b.whole("page"), b.whole("usage")
    if (page, usage) not in HID_BUTTONS:
        raise Refused(f"the IOHID event {page}:{usage}: only Menu (12:64, home) is admitted "
                      "(the side button, 12:48, is refused too: pressed five times quickly it "
                      "calls emergency services; /wda/lock locks the phone); "
                      f"{LASTING_BUTTONS}, and a key typed "
                      "this way would not be logged as typing")
    return Classified("press", _params(button=f"hid:{page}:{usage}", duration=b.num("duration")))


def _open_url(b: Body, _: tuple[str, ...]) -> Classified:
    """`/url`: an `open_url` of `url`, with the app `bundleId` names when present (WDA then
    opens the URL with that app), refused by what would open (`opened_urls.py`)."""
    url, bundle_id = b.text("url"), b.text("bundleId")
    check_open_url(url or "", bundle_id)
    return Classified("open_url", _params(url=url, bundle_id=bundle_id))


def _w3c(b: Body, _: tuple[str, ...]) -> Classified:
    return chain_action(summarise_w3c(b.data), "actions")


def _touch_perform(multi: bool) -> Handler:
    return lambda b, _: chain_action(summarise_legacy(b.data, multi), "touch_perform")


ROUTES: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("wda", "apps", "launch"), _app("launch")),
    (("wda", "apps", "launchUnattached"), _app("launch", "launch_unattached")),
    (("wda", "apps", "activate"), _app("activate")),
    (("wda", "apps", "terminate"), _app("terminate")),
    (("wda", "tap"), _tap("tap", "tap")),
    (("wda", "tap", ":id"), _tap("tap", "tap")),  # facebook-wda's fallback (gate.LEGACY_TAP)
    (("wda", "element", ":id", "tap"), _tap("tap", "tap")),
    # handleClick reads no x, y
    (("element", ":id", "click"), _tap("click", "click", at_point=False)),
    (("wda", "doubleTap"), _tap("double_tap", "doubleTap")),
    (("wda", "element", ":id", "doubleTap"), _tap("double_tap", "doubleTap")),
    (("wda", "touchAndHold"), _tap("touch_and_hold", "touchAndHold")),
    (("wda", "element", ":id", "touchAndHold"),
     _tap("touch_and_hold", "touchAndHold")),
    (("wda", "twoFingerTap"), _tap("two_finger_tap", "twoFingerTap", at_point=False)),
    (("wda", "element", ":id", "twoFingerTap"),
     _tap("two_finger_tap", "twoFingerTap", at_point=False)),
    (("wda", "tapWithNumberOfTaps"), _tap("taps", "tapWithNumberOfTaps", at_point=False)),
    (("wda", "element", ":id", "tapWithNumberOfTaps"),
     _tap("taps", "tapWithNumberOfTaps", at_point=False)),
    (("wda", "forceTouch"), _tap("force_touch", "forceTouch")),
    (("wda", "element", ":id", "forceTouch"), _tap("force_touch", "forceTouch")),
    (("alert", "accept"), _alert("alert_accept")),
    (("alert", "dismiss"), _alert("alert_dismiss")),
    (("wda", "keyboard", "dismiss"), _dismiss_keyboard),
    (("wda", "keys"), _typing("keys")),
    (("element", ":id", "value"), _typing("element")),
    (("element", ":id", "clear"), _typing("clear")),
    (("alert", "text"), _typing("alert")),
    (("wda", "homescreen"), lambda b, _: Classified("home")),
    # GET: WDA's health check presses Home (`wda_routes.GETS_THAT_ACT`)
    (("wda", "healthcheck"), lambda b, _: Classified("home", _params(via="healthcheck"))),
    (("wda", "deactivateApp"), lambda b, _: Classified(
        "home", _params(via="deactivate_app", duration=b.num("duration")))),
    (("wda", "pressButton"), _press()),
    (("wda", "lock"), _press("lock")),
    (("wda", "unlock"), _press("unlock")),
    (("wda", "performIoHidEvent"), _hid),
    (("wda", "expectNotification"), _expect_notification),
    (("wda", "element", ":id", "keyboardInput"), _keyboard_input),
    (("wda", "dragfromtoforduration"), drag("drag", "dragfromtoforduration")),
    (("wda", "element", ":id", "dragfromtoforduration"), drag("drag", "dragfromtoforduration")),
    (("wda", "pressAndDragWithVelocity"), drag("press_and_drag", "pressAndDragWithVelocity")),
    (("wda", "element", ":id", "pressAndDragWithVelocity"),
     drag("press_and_drag", "pressAndDragWithVelocity")),
    (("wda", "swipe"), swipe("swipe")),
    (("wda", "element", ":id", "swipe"), swipe("swipe")),
    (("wda", "scroll"), swipe("scroll")),
    (("wda", "element", ":id", "scroll"), swipe("scroll")),
    (("wda", "element", ":id", "scrollTo"), swipe("scroll_to")),
    (("wda", "pinch"), swipe("pinch", needs_element=True)),
    (("wda", "element", ":id", "pinch"), swipe("pinch")),
    (("wda", "rotate"), swipe("rotate", needs_element=True)),
    (("wda", "element", ":id", "rotate"), swipe("rotate")),
    (("wda", "pickerwheel", ":id", "select"), picker_select),
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
    body = Body(request.body)
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
