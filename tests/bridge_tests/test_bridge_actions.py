"""Classifying WDA routes: a read forwarded unlogged, or an action with a kind and params."""

from __future__ import annotations

import pytest

from bridge.actions import classify
from bridge.gate import Refused
from phoneshell.records import ACTION_KINDS
from phoneshell.wda_routes import WDA_ROUTES, is_input

S = "/session/CA43AE24-8138-490F-9898-B8BF4D60C5AF"
W3C = "element-6066-11e4-a52e-4f735466cecf"

READS = [
    ("GET", "/status", None),
    ("GET", "/source?format=json", None),
    ("GET", "/screenshot", None),
    ("GET", "/wda/activeAppInfo", None),
    ("GET", f"{S}/window/size", None),
    ("GET", f"{S}/element/E1/rect", None),
    ("GET", f"{S}/alert/text", None),
    ("OPTIONS", "/status", None),
    ("POST", f"{S}/elements", {"using": "class chain", "value": "**/XCUIElementTypeAny"}),
    ("POST", f"{S}/element", {"using": "id", "value": "x"}),
    ("POST", f"{S}/element/E1/elements", {"using": "id", "value": "x"}),
    ("POST", f"{S}/wda/apps/state", {"bundleId": "com.apple.Preferences"}),
    ("POST", f"{S}/timeouts", {"implicit": 0}),
]


@pytest.mark.parametrize(("method", "path", "body"), READS)
def test_reads_are_not_logged(method: str, path: str, body: object) -> None:
    assert classify(method, path, body) is None


def test_a_get_is_a_read_unless_wda_acts_on_it() -> None:
    """Whether a request is logged follows what WDA does on its route, not its method: of every
    GET route WDA has, the health check (a Home press) and shutdown act, the rest read."""
    acting = sorted(p for m, p, _ in WDA_ROUTES if m == "GET" and is_input(m, p))
    assert acting == ["/wda/healthcheck", "/wda/shutdown"]


LAUNCH = {"bundleId": "com.apple.calculator", "arguments": [], "environment": {},
          "shouldWaitForQuiescence": False}
SESSION_CAPS = {"capabilities": {"alwaysMatch": LAUNCH}, "desiredCapabilities": LAUNCH}

ACTIONS = [
    ("POST", f"{S}/wda/apps/launch", LAUNCH, "launch",
     {"bundle_id": "com.apple.calculator"}),
    ("POST", "/session", SESSION_CAPS, "launch",
     {"bundle_id": "com.apple.calculator", "via": "session"}),
    ("POST", "/session", {"capabilities": {"firstMatch": [{"appium:bundleId": "com.x"}]}},
     "launch", {"bundle_id": "com.x", "via": "session"}),
    ("POST", "/session", {"capabilities": {}, "desiredCapabilities": {}}, "other",
     {"route": "/session"}),
    ("POST", "/wda/apps/launchUnattached", {"bundleId": "com.x"}, "launch",
     {"bundle_id": "com.x", "via": "launch_unattached"}),
    ("POST", f"{S}/wda/apps/activate", {"bundleId": "com.x"}, "activate", {"bundle_id": "com.x"}),
    ("POST", f"{S}/wda/apps/terminate", {"bundleId": "com.x"}, "terminate",
     {"bundle_id": "com.x"}),
    ("DELETE", f"{S}/", None, "terminate", {"via": "delete_session"}),
    ("DELETE", S, None, "terminate", {"via": "delete_session"}),
    ("POST", f"{S}/wda/tap", {"x": 100, "y": 200}, "tap",
     {"x": 100, "y": 200, "gesture": "tap"}),
    ("POST", f"{S}/wda/element/E1/tap", {}, "tap", {"element": "E1", "gesture": "tap"}),
    # an offset from the element's corner: the recorder logs its point (`Aiming.placed`)
    ("POST", f"{S}/wda/element/E1/tap", {"x": 20, "y": 8}, "tap",
     {"element": "E1", "offset_x": 20, "offset_y": 8, "gesture": "tap"}),
    ("POST", f"{S}/element/E1/click", {"x": 20, "y": 8}, "tap",  # handleClick reads no x, y
     {"element": "E1", "gesture": "click"}),
    ("POST", f"{S}/element/E1/click", None, "tap", {"element": "E1", "gesture": "click"}),
    ("POST", f"{S}/wda/tap/0", {"x": 100, "y": 200}, "tap",  # facebook-wda's fallback
     {"x": 100, "y": 200, "gesture": "tap"}),
    ("POST", f"{S}/wda/doubleTap", {"x": 1, "y": 2}, "tap",
     {"x": 1, "y": 2, "gesture": "double_tap"}),
    ("POST", f"{S}/wda/touchAndHold", {"x": 1, "y": 2, "duration": 1.5}, "tap",
     {"x": 1, "y": 2, "gesture": "touch_and_hold", "duration": 1.5}),
    ("POST", f"{S}/wda/element/E1/touchAndHold", {"duration": 1.0}, "tap",
     {"element": "E1", "gesture": "touch_and_hold", "duration": 1.0}),
    ("POST", f"{S}/alert/accept", {"name": "Allow"}, "tap",
     {"gesture": "alert_accept", "button": "Allow"}),
    ("POST", f"{S}/alert/dismiss", None, "tap", {"gesture": "alert_dismiss"}),
    ("POST", f"{S}/wda/keyboard/dismiss", None, "tap", {"gesture": "keyboard_dismiss", "taps": 0}),
    ("POST", f"{S}/wda/keys", {"value": ["h", "i", "!"]}, "type", {"text": "hi!", "via": "keys"}),
    ("POST", f"{S}/element/E1/value", {"value": "alice"}, "type",
     {"text": "alice", "element": "E1", "via": "element"}),
    ("POST", f"{S}/element/E1/value", {"text": "bob"}, "type",
     {"text": "bob", "element": "E1", "via": "element"}),
    ("POST", f"{S}/element/E1/clear", None, "type", {"text": "", "element": "E1", "via": "clear"}),
    ("POST", "/wda/homescreen", None, "home", {}),
    ("GET", "/wda/healthcheck", None, "home", {"via": "healthcheck"}),  # WDA presses Home
    ("POST", f"{S}/wda/deactivateApp", {"duration": 2}, "home",
     {"via": "deactivate_app", "duration": 2}),
    ("POST", f"{S}/wda/pressButton", {"name": "home"}, "press", {"button": "home"}),
    ("POST", "/wda/lock", None, "press", {"button": "lock"}),
    ("POST", "/wda/unlock", None, "press", {"button": "unlock"}),
    ("POST", f"{S}/wda/performIoHidEvent", {"page": 12, "usage": 64, "duration": 0.1}, "press",
     {"button": "hid:12:64", "duration": 0.1}),
    ("POST", f"{S}/wda/dragfromtoforduration",
     {"fromX": 200, "fromY": 700, "toX": 200, "toY": 100, "duration": 0.1}, "swipe",
     {"from_x": 200, "from_y": 700, "to_x": 200, "to_y": 100, "duration": 0.1,
      "gesture": "drag"}),
    ("POST", f"{S}/wda/pressAndDragWithVelocity",
     {"fromX": 1, "fromY": 2, "toX": 3, "toY": 400, "pressDuration": 0.5, "velocity": 500},
     "swipe", {"from_x": 1, "from_y": 2, "to_x": 3, "to_y": 400, "duration": 0.5,
               "gesture": "press_and_drag"}),
    ("POST", f"{S}/wda/swipe", {"direction": "up"}, "swipe",
     {"direction": "up", "gesture": "swipe"}),
    ("POST", f"{S}/wda/element/E1/swipe", {"direction": "left", "velocity": 1000}, "swipe",
     {"direction": "left", "element": "E1", "gesture": "swipe"}),
    ("POST", f"{S}/wda/element/E1/scroll", {"toVisible": True}, "swipe",
     {"direction": "visible", "element": "E1", "gesture": "scroll"}),
    ("POST", f"{S}/wda/scroll", {"direction": "down"}, "swipe",
     {"direction": "down", "distance": 1.0, "gesture": "scroll"}),
    ("POST", f"{S}/wda/element/E1/pinch", {"scale": 2, "velocity": 1}, "swipe",
     {"element": "E1", "gesture": "pinch"}),
    # WDA reads no point on these: x and y are not logged
    ("POST", f"{S}/wda/element/E1/tapWithNumberOfTaps",
     {"numberOfTaps": 2, "numberOfTouches": 1, "x": 5, "y": 6}, "tap",
     {"element": "E1", "gesture": "taps", "taps": 2, "touches": 1}),
    ("POST", f"{S}/wda/element/E1/twoFingerTap", {}, "tap",
     {"element": "E1", "gesture": "two_finger_tap"}),
    ("POST", f"{S}/wda/element/E1/pressAndDragWithVelocity",
     {"pressDuration": 0.5, "toElement": "E2", "velocity": 500, "fromX": 1, "fromY": 2},
     "swipe", {"element": "E1", "duration": 0.5, "to_element": "E2",
               "gesture": "press_and_drag"}),
    ("POST", f"{S}/url", {"url": "https://example.com"}, "open_url",
     {"url": "https://example.com"}),
    ("POST", f"{S}/appium/settings",
     {"settings": {"shouldUseCompactResponses": False, "elementResponseAttributes": "rect"}},
     "other", {"route": "/appium/settings",
               "settings": "shouldUseCompactResponses,elementResponseAttributes"}),
    ("POST", f"{S}/appium/settings", {"settings": "bad"}, "other",
     {"route": "/appium/settings"}),
    ("DELETE", "/wda/simulatedLocation", None, "other", {"route": "/wda/simulatedLocation"}),
]

REFUSED = [
    ("HEAD", "/status", None, "not a WebDriverAgent route"),
    ("DELETE", f"{S}/actions", None, "not a WebDriverAgent route"),
    ("PUT", "/wda/anything", {}, "not a WebDriverAgent route"),
    ("POST", "/wda/tap/0", {"x": 1, "y": 2}, "not a WebDriverAgent route"),  # session only
    ("GET", "/wda/shutdown", None, "would end WebDriverAgent"),
    ("POST", f"{S}/wda/resetAppAuth", {}, "privacy permissions"),  # nothing sets them back
    ("POST", f"{S}/wda/getPasteboard", {}, "what its owner copied last"),  # the owner's
    ("POST", f"{S}/wda/setPasteboard", {"content": "aGk="}, "nothing sets back"),
    ("POST", f"{S}/wda/video/start", {}, "filling the phone's storage"),  # left running
    ("POST", "/wda/video/start", {"fps": 24}, "filling the phone's storage"),  # session-free
    ("POST", f"{S}/wda/performAccessibilityAudit", {}, "no task needs an audit"),  # unbounded
    # facts a task may ask for, read off no screen: the answer without doing the task
    ("GET", f"{S}/wda/batteryInfo", None, "Settings > Battery"),
    ("GET", "/wda/device/location", None, "the owner's location"),
    ("GET", f"{S}/wda/device/location", None, "the owner's location"),
    ("POST", "/appium/settings", {}, "not a WebDriverAgent route"),  # session-only route
    # settings that change what the harness reads, how WDA answers, or the phone's own
    ("POST", f"{S}/appium/settings", {"settings": {"snapshotMaxDepth": 3}},
     "snapshotMaxDepth change what the phone's reads show"),
    ("POST", f"{S}/appium/settings",
     {"settings": {"screenshotQuality": 1, "defaultActiveApplication": "com.x",
                   "waitForIdleTimeout": 600, "reduceMotion": True}},
     "defaultActiveApplication, reduceMotion, screenshotQuality, waitForIdleTimeout change"),
    # JPEG screenshots for the rest of the run (WDA's settings are global); how finds bind and
    # scope, which the simulator does not model
    ("POST", f"{S}/appium/settings", {"settings": {"screenshotQuality": 1}},
     "screenshotQuality change"),
    ("POST", f"{S}/appium/settings", {"settings": {
        "useFirstMatch": True, "boundElementsByIndex": True, "limitXpathContextScope": False}},
     "boundElementsByIndex, limitXpathContextScope, useFirstMatch change"),
    ("POST", f"{S}/appium/settings", {"settings": {"pageSourceExcludedAttributes": "visible"}},
     "pageSourceExcludedAttributes"),  # unknown to WDA 16.x: may be read-shaping in a newer one
    ("POST", "/session", {"capabilities": {"alwaysMatch": {
        "bundleId": "com.apple.Preferences", "appium:defaultAlertAction": "accept"}}},
     "defaultAlertAction change"),  # WDA takes some settings as capabilities too
    ("POST", "/session", {"desiredCapabilities": {"waitForIdleTimeout": 600},
                          "capabilities": {"firstMatch": [{"snapshotMaxDepth": 2}]}},
     "snapshotMaxDepth, waitForIdleTimeout"),
    ("POST", f"{S}/wda/homescreen", None, "not a WebDriverAgent route"),  # session-free only
    # touches the log could not name: WDA would touch the middle of the app, or a point
    # measured from an element's corner, which may lie outside it
    ("POST", f"{S}/wda/tap", None, "WDA touches the middle of the app"),
    ("POST", f"{S}/wda/tap/0", {"x": 1}, "WDA touches the middle of the app"),
    ("POST", f"{S}/wda/doubleTap", {}, "WDA touches the middle of the app"),
    ("POST", f"{S}/wda/twoFingerTap", {}, "without an element WDA touches the middle"),
    ("POST", f"{S}/wda/tapWithNumberOfTaps", {"numberOfTaps": 1, "numberOfTouches": 1,
                                              "x": 200, "y": 400}, "the middle of the app"),
    ("POST", f"{S}/wda/pinch", {"scale": 2, "velocity": 1}, "the pinch on the whole app"),
    ("POST", f"{S}/wda/rotate", {"rotation": 1, "velocity": 1}, "the rotate on the whole app"),
    ("POST", f"{S}/wda/element/E1/tap", {"x": 20}, "Both x and y coordinates must be"),
    ("POST", f"{S}/wda/element/E1/touchAndHold", {"y": 0, "duration": 2}, "Both x and y"),
    ("POST", f"{S}/wda/element/E1/dragfromtoforduration",
     {"fromX": 30, "fromY": 132, "toX": 376, "toY": 132, "duration": 0}, "offsets from the"),
    ("POST", f"{S}/wda/dragfromtoforduration", {"fromX": 30, "toX": 376, "toY": 132},
     "WDA reads a missing one as 0"),
]


@pytest.mark.parametrize(("method", "path", "body", "why"), REFUSED)
def test_what_is_not_a_wda_route_is_refused(method: str, path: str, body: object,
                                            why: str) -> None:
    with pytest.raises(Refused, match=why):
        classify(method, path, body)


@pytest.mark.parametrize(("method", "path", "body", "kind", "params"), ACTIONS)
def test_actions_have_kind_and_stable_params(method: str, path: str, body: object, kind: str,
                                             params: dict[str, object]) -> None:
    found = classify(method, path, body)
    assert found is not None
    assert (found.kind, dict(found.params)) == (kind, params)


def test_every_kind_is_reachable_and_known() -> None:
    kinds = {a[3] for a in ACTIONS}
    assert kinds == set(ACTION_KINDS)


def test_session_id_and_aim_come_with_the_action() -> None:
    tap = classify("POST", f"{S}/wda/tap/", {"x": 1, "y": 2})
    click = classify("POST", f"{S}/element/E1/click", None)
    keys = classify("POST", f"{S}/wda/keys", {"value": ["a"]})
    home = classify("POST", "/wda/homescreen", None)
    assert tap is not None and click is not None and keys is not None and home is not None
    assert (tap.aim, tap.session_id) == ("point", S.split("/")[2])
    assert (click.aim, keys.aim, home.aim, home.session_id) == ("element", "focus", "none", "")


def test_a_drag_is_aimed_at_what_it_moves() -> None:
    """A screen drag at the element where the finger goes down (a slider it moves, the list it
    scrolls), an element's drag or swipe at that element; a direction alone names nothing."""
    drag = {"fromX": 60, "fromY": 300, "toX": 300, "toY": 300, "duration": 0}
    screen = classify("POST", f"{S}/wda/dragfromtoforduration", drag)
    on_element = classify("POST", f"{S}/wda/element/E2/pressAndDragWithVelocity",
                          {"pressDuration": 0, "toElement": "E4", "velocity": 1000})
    swiped = classify("POST", f"{S}/wda/element/E3/swipe", {"direction": "left"})
    anywhere = classify("POST", f"{S}/wda/swipe", {"direction": "left"})
    assert screen is not None and on_element is not None and swiped is not None
    assert anywhere is not None
    assert (screen.aim, on_element.aim, swiped.aim, anywhere.aim) == (
        "from", "element", "element", "none")


def test_creating_and_deleting_a_session_are_marked_as_such() -> None:
    opened = classify("POST", "/session", SESSION_CAPS)
    bare = classify("POST", "/session", {"capabilities": {}})
    closed = classify("DELETE", f"{S}/", None)
    tap = classify("POST", f"{S}/wda/tap", {"x": 1, "y": 2})
    assert opened is not None and bare is not None and closed is not None and tap is not None
    assert (opened.session, bare.session, tap.session) == ("open", "open", "none")
    assert (closed.session, closed.session_id) == ("close", S.split("/")[2])


def test_an_empty_body_classifies_by_route() -> None:
    found = classify("POST", f"{S}/element/E1/click", None)
    assert found is not None and found.kind == "tap"
    assert dict(found.params) == {"element": "E1", "gesture": "click"}


def pointer(*steps: dict[str, object], kind: str = "pointer") -> dict[str, object]:
    return {"type": kind, "id": "finger1", "parameters": {"pointerType": "touch"},
            "actions": list(steps)}


def test_w3c_pointer_without_a_significant_move_is_a_tap() -> None:
    body = {"actions": [pointer({"type": "pointerMove", "duration": 0, "x": 100, "y": 200},
                                {"type": "pointerDown", "button": 0},
                                {"type": "pause", "duration": 80},
                                {"type": "pointerMove", "duration": 10, "x": 104, "y": 203},
                                {"type": "pointerUp", "button": 0})]}
    found = classify("POST", f"{S}/actions", body)
    assert found is not None and found.kind == "tap" and found.aim == "point"
    assert dict(found.params) == {"x": 100, "y": 200, "duration": 0.09, "gesture": "actions"}


def test_w3c_pointer_that_moves_is_a_swipe_with_relative_moves_added_up() -> None:
    body = {"actions": [pointer({"type": "pointerMove", "x": 200, "y": 700},
                                {"type": "pointerDown"},
                                {"type": "pointerMove", "duration": 250, "origin": "pointer",
                                 "x": 0, "y": -600},
                                {"type": "pointerUp"})]}
    found = classify("POST", f"{S}/actions", body)
    assert found is not None and found.kind == "swipe" and found.aim == "from"
    assert dict(found.params) == {"from_x": 200, "from_y": 700, "to_x": 200, "to_y": 100,
                                  "first_x": 200, "first_y": 690,  # past the slop: its way
                                  "duration": 0.25, "gesture": "actions",
                                  "hold": 0.004}  # 10 of its 600 pt: it held still 4 ms


def test_w3c_element_origin_and_two_fingers() -> None:
    on_element = {"actions": [pointer({"type": "pointerMove", "x": 0, "y": 0,
                                       "origin": {W3C: "E7", "ELEMENT": "E7"}},
                                      {"type": "pointerDown"}, {"type": "pointerUp"})]}
    tap = classify("POST", f"{S}/actions", on_element)  # placed by the recorder (`origins`)
    assert tap is not None and tap.kind == "tap" and tap.aim == "origin" and not tap.points
    assert (tap.params["element"], tap.params["origin"]) == ("E7", "centre")
    finger = [{"type": "pointerMove", "x": 100, "y": 100}, {"type": "pointerDown"},
              {"type": "pause", "duration": 100}, {"type": "pointerUp"}]
    two = classify("POST", f"{S}/actions", {"actions": [pointer(*finger), pointer(*finger)]})
    assert two is not None and two.kind == "tap" and two.aim == "point"
    assert dict(two.params) == {"x": 100, "y": 100, "duration": 0.1, "gesture": "multi_touch",
                                "fingers": 2}
    assert [dict(other.params) for other in two.others] == [dict(two.params)]
    assert two.others[0].session_id == two.session_id == S.split("/")[2]


def test_w3c_key_actions_are_typing() -> None:
    # each key types when it comes up (WDA types the key ups' values), as a phone does
    keys = [{"type": t, "value": c} for c in "hi\ue007" for t in ("keyDown", "keyUp")]
    found = classify("POST", f"{S}/actions", {"actions": [pointer(*keys, kind="key")]})
    assert found is not None and found.kind == "type" and found.aim == "focus"
    assert dict(found.params) == {"text": "hi\n", "via": "actions"}


def test_w3c_pauses_alone_are_still_logged_and_a_move_alone_is_a_touch() -> None:
    found = classify("POST", f"{S}/actions",
                     {"actions": [pointer({"type": "pause", "duration": 10})]})
    assert found is not None and dict(found.params) == {"route": "/actions"}
    with pytest.raises(Refused, match="WDA starts a touch at a pointer's first move"):
        classify("POST", f"{S}/actions",
                 {"actions": [pointer({"type": "pointerMove", "x": 1, "y": 2})]})


def test_legacy_touch_perform() -> None:
    tap = classify("POST", f"{S}/wda/touch/perform",
                   {"actions": [{"action": "tap", "options": {"x": 10, "y": 20}}]})
    assert tap is not None and tap.kind == "tap" and tap.params["x"] == 10
    swipe = classify("POST", f"{S}/wda/touch/perform", {"actions": [
        {"action": "press", "options": {"x": 10, "y": 500}},
        {"action": "wait", "options": {"ms": 200}},
        {"action": "moveTo", "options": {"x": 10, "y": 100}},
        {"action": "release", "options": {}}]})
    assert swipe is not None and swipe.kind == "swipe"
    assert (swipe.params["from_y"], swipe.params["to_y"]) == (500, 100)
    multi = classify("POST", f"{S}/wda/touch/multi/perform", {"actions": [
        [{"action": "tap", "options": {"x": 1, "y": 1}}],
        [{"action": "tap", "options": {"x": 50, "y": 50}}]]})
    assert multi is not None and multi.params["gesture"] == "multi_touch"
