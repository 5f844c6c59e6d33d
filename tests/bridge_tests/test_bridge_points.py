"""The log and the phone read every point, number and button of a request one way.

A point off the screen is clamped by the phone its own way (the simulator to the edge): the
study dragged the Wi-Fi switch's knob to (-4664, -5840), which the phone read as a slide to
the left (the switch turned off) and the log as a scroll (nothing set back). A number no double
holds (`1e400`) was logged as null and crashed the simulator's handler. An IOHID page and usage
sent as 12.0 and 48.4 are the power button to WDA, which reads them as whole numbers, and were
logged as a button nobody knew. Each is refused and never reaches the phone, or logged as WDA
reads it; points on the screen, facebook-wda's own swipes from its edge and a landscape screen
pass. Sent over real HTTP to the simulated iPhone behind the bridge.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import TOUCH, Rig, post, refused_unsent, sent, touch

from phoneshell.audit import actions
from phoneshell.xcui import SETTINGS, SPRINGBOARD

CALCULATOR = "com.apple.calculator"
KNOB = '//XCUIElementTypeSwitch[@label="{}"]/XCUIElementTypeSwitch'
OFF = "off the 402 x 874 pt screen"


def _knob(session: wda.Client, label: str) -> tuple[int, int]:
    x, y = session(xpath=KNOB.format(label)).get(timeout=5).bounds.center
    return x, y


def test_the_studys_drag_of_a_knob_off_the_screen_is_refused(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(label="Wi-Fi", className="Button").click()
    x, y = _knob(session, "Wi-Fi")
    path = f"/session/{session.session_id}/wda/dragfromtoforduration"
    drag = {"fromX": x, "fromY": y, "toX": x - 5000, "toY": y - 6000, "duration": 0.2}
    message = refused_unsent(rig, path, drag)
    assert f"({x - 5000:g}, {y - 6000:g}), {OFF}" in message, message
    refused = rig.events()[-1]
    assert dict(refused.params) == {"from_x": x, "from_y": y, "to_x": x - 5000,
                                    "to_y": y - 6000, "duration": 0.2, "gesture": "drag"}
    assert session(label="Wi-Fi", className="Switch").get().value == "1"
    sent(rig, path, {**drag, "toX": x - 60, "toY": y})  # on the screen: slid, and logged so
    assert session(label="Wi-Fi", className="Switch").get().value == "0"


@pytest.mark.parametrize(("name", "route", "body"), [
    ("a tap left of the screen", "/wda/tap", {"x": -10, "y": 300}),
    ("a tap below it", "/wda/tap", {"x": 200, "y": 900}),
    ("a hold above it", "/wda/touchAndHold", {"x": 200, "y": -3, "duration": 1}),
    ("a double tap right of it", "/wda/doubleTap", {"x": 405, "y": 300}),
    ("a W3C finger down off it", "/actions", {"actions": [touch(500, 300)]}),
    ("a W3C finger that slides off it and back", "/actions", {"actions": [
        {"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": [
            {"type": "pointerMove", "x": 200, "y": 400}, {"type": "pointerDown"},
            {"type": "pointerMove", "x": 200, "y": -4000, "duration": 100},
            {"type": "pointerMove", "x": 200, "y": 400, "duration": 100},
            {"type": "pointerUp"}]}]}),
    ("a second finger off it", "/actions", {"actions": [
        touch(100, 400, hold_ms=200), touch(-50, 400, hold_ms=200, name="f2")]}),
    ("a legacy press off it", "/wda/touch/perform", {"actions": [
        {"action": "press", "options": {"x": 200, "y": 400}},
        {"action": "moveTo", "options": {"x": 200, "y": 9000}},
        {"action": "release", "options": {}}]}),
])
def test_a_point_off_the_screen_is_refused(rig: Rig, name: str, route: str,
                                           body: dict[str, object]) -> None:
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    message = refused_unsent(rig, f"/session/{session.session_id}{route}", body)
    assert OFF in message, (name, message)
    assert rig.events()[-1].params.get("gesture")  # logged with the action's own params


def test_points_on_the_screen_and_its_edge_pass(rig: Rig) -> None:
    """facebook-wda's swipes start or end at x == width and y == 1; a point two points past
    the edge is still taken as on it."""
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    logged = len(actions(rig.events()))
    session.swipe_left()
    session.swipe_right()
    session.swipe_up()
    sent(rig, f"/session/{session.session_id}/wda/tap", {"x": 403.5, "y": -2})
    sent(rig, f"/session/{session.session_id}/actions", {"actions": [touch(0, 873.9)]})
    assert len(actions(rig.events())) == logged + 5
    assert not [e for e in rig.events() if e.stage == "refused"]


def test_a_landscape_screen_is_measured_turned(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    session.orientation = "LANDSCAPE"
    path = f"/session/{session.session_id}/wda/tap"
    sent(rig, path, {"x": 800, "y": 300})  # off a portrait screen, on this one
    assert "off the 874 x 402 pt screen" in refused_unsent(rig, path, {"x": 300, "y": 600})


def test_a_finger_that_goes_down_on_an_element_and_moves_is_refused(rig: Rig) -> None:
    """Where it goes could be told only from the element's frame: it may leave the screen."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    cell = session(className="Cell").get(timeout=5).id
    origin = {"element-6066-11e4-a52e-4f735466cecf": cell}
    finger = {"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": [
        {"type": "pointerMove", "x": 0, "y": 0, "origin": origin}, {"type": "pointerDown"},
        {"type": "pointerMove", "x": -300, "y": -9000, "origin": "pointer", "duration": 100},
        {"type": "pointerUp"}]}
    message = refused_unsent(rig, f"/session/{session.session_id}/actions",
                             {"actions": [finger]})
    assert "goes down on an element and moves" in message


@pytest.mark.parametrize(("name", "body"), [
    ("a coordinate of 1e400", b'{"x": 1e400, "y": 300}'),
    ("a negative one", b'{"x": 200, "y": -1e999}'),
    ("an integer no double holds", b'{"x": 1' + b"0" * 400 + b', "y": 300}'),
    ("infinity in a field the action does not read", b'{"x": 200, "y": 300, "z": 2e308}'),
])
def test_a_number_no_double_holds_is_refused(rig: Rig, name: str, body: bytes) -> None:
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/tap", body)
    assert "too large for a double" in message, (name, message)
    assert rig.sim.state()["foreground"] == CALCULATOR
    sent(rig, f"/session/{session.session_id}/wda/tap", b'{"x": 2e2, "y": 3e2, "z": 1e308}')


def test_a_button_is_read_as_wda_reads_it_and_the_side_button_is_refused(rig: Rig) -> None:
    """12.0 and 48.0 are the side button to WDA, as 12 and 48 are: refused (five quick presses
    call emergency services); 48.4 and a missing or negative page are refused as WDA would
    read them otherwise; Menu (home) is logged as WDA reads it."""
    rig.bridge.set_context("R", "t", 1, "agent")
    sid = wda.Client(rig.bridge.url).session(CALCULATOR).session_id
    path = f"/session/{sid}/wda/performIoHidEvent"
    for body in ({"page": 12, "usage": 48.4, "duration": 0.05}, {"usage": 48},
                 {"page": -12, "usage": 48}):
        assert "WDA reads" in refused_unsent(rig, path, body, "R")
    for body in ({"page": 12.0, "usage": 48.0, "duration": 0.05}, {"page": 12, "usage": 48}):
        assert "Emergency SOS" in refused_unsent(rig, path, body, "R")
    status, _ = post(rig, path, {"page": 12.0, "usage": 64.0, "duration": 0.05})  # Menu: home
    assert status == 200 and rig.sim.state()["foreground"] == SPRINGBOARD
    pressed = actions(rig.events("R"))[-1]
    assert (pressed.kind, pressed.params["button"]) == ("press", "hid:12:64")


@pytest.mark.parametrize(("route", "body"), [
    ("/wda/pressButton", {"name": "volumeUp"}),
    ("/wda/pressButton", {"name": "volumeDown", "duration": 0.1}),
    ("/wda/pressButton", {"name": "action"}),
    ("/wda/pressButton", {"name": "camera"}),
    ("/wda/pressButton", {"name": "VolumeUp"}),  # WDA reads the name lower-cased
    ("/wda/performIoHidEvent", {"page": 12, "usage": 233, "duration": 0.05}),  # volume up
    ("/wda/performIoHidEvent", {"page": 12, "usage": 226, "duration": 0.05}),  # mute
    ("/wda/performIoHidEvent", {"page": 12, "usage": 111, "duration": 0.05}),  # brightness
    ("/wda/performIoHidEvent", {"page": 7, "usage": 4, "duration": 0.05}),  # the key A
])
def test_buttons_whose_effect_nothing_reads_or_sets_back_are_refused(
        rig: Rig, route: str, body: dict[str, object]) -> None:
    """A volume step, silent mode, the Action button's chosen action, the screen's brightness
    outlast the attempt, and no WDA route reads them back; a keyboard usage types unlogged."""
    rig.bridge.set_context("R", "t", 1, "agent")
    sid = wda.Client(rig.bridge.url).session(CALCULATOR).session_id
    volume = rig.sim.state()["volume"]
    assert "nothing sets back" in refused_unsent(rig, f"/session/{sid}{route}", body, "R")
    assert rig.sim.state()["volume"] == volume


def test_home_named_in_any_case_goes_home_and_is_logged_as_home(rig: Rig) -> None:
    """WDA looks a button's name up lower-cased (XCUIDevice+FBHelpers `fb_pressButton:error:`):
    "Home" presses home on a phone, so it does here, logged as the home button; it was refused
    as a volume or Action button."""
    rig.bridge.set_context("R", "t", 1, "agent")
    sid = wda.Client(rig.bridge.url).session(CALCULATOR).session_id
    status, _ = post(rig, f"/session/{sid}/wda/pressButton", {"name": "HOME"})
    assert status == 200 and rig.sim.state()["foreground"] == SPRINGBOARD
    pressed = actions(rig.events("R"))[-1]
    assert (pressed.kind, pressed.params["button"]) == ("press", "home")
