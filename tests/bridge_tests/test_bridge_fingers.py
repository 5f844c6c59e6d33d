"""Several fingers in one W3C actions request: one gesture the log names by its target, or refused.

Fingers that are not all down at one moment are several gestures in one request: WDA and the
simulator play them one after another, each landing on what the one before left on screen, so
the bridge refuses them (the adversarial study powered the phone off and left switches flipped
with them). Fingers down together are one gesture, aimed finger by finger: each is checked
against the rig's refusals, all must touch one element, and the gesture is logged with it, so
the set-back finds a switch under it. Driven over real HTTP against the simulated iPhone, as an
agent would send them.
"""

from __future__ import annotations

import wda
from bridge_rig import Rig, perform, touch

from phoneshell.audit import actions, refusals
from phoneshell.changes import changed_settings
from phoneshell.sim import SimServer
from phoneshell.xcui import SETTINGS, SPRINGBOARD, SWITCH

SEVERAL = "send each gesture in its own request"
MAPS = "com.apple.Maps"


def _centre(session: wda.Client, **query: str) -> tuple[int, int]:
    x, y = session(**query).get(timeout=5).bounds.center
    return x, y


def _general_end(session: wda.Client) -> None:
    """Settings > General, scrolled to its end (Shut Down is the last row)."""
    session(label="General", className="Button").click()
    session.swipe_up()


def test_two_fingers_one_after_the_other_cannot_power_the_phone_off(rig: Rig,
                                                                    sim: SimServer) -> None:
    """The study's power-off: finger 1 taps Shut Down, finger 2 then slides the power-off
    slider that opened, in one request."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    _general_end(session)
    x, y = _centre(session, name="Shut Down", className="Cell")
    inputs, _ = sim.ledger()
    status, message = perform(rig, session.session_id, touch(x, y, hold_ms=50),
                              touch(30, 132, after_ms=400, to=(376, 132), name="finger2"))
    assert status == 403 and SEVERAL in message, message
    assert "not all down at one moment" in refusals(rig.events())[-1].error
    assert sim.ledger()[0] == inputs, "the phone got the request"
    assert sim.state()["powered_off"] is False and sim.state()["foreground"] == SETTINGS
    assert not session(label="slide to power off").exists


def test_two_fingers_one_after_the_other_cannot_flip_a_switch_unlogged(rig: Rig,
                                                                       sim: SimServer) -> None:
    """The study's switches: finger 1 taps Airplane Mode's knob, finger 2 the navigation bar."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    knob = _centre(session, xpath='//XCUIElementTypeSwitch[@label="Airplane Mode"]'
                                  '/XCUIElementTypeSwitch')
    status, message = perform(rig, session.session_id, touch(*knob, hold_ms=50),
                              touch(200, 110, after_ms=300, name="finger2"))
    assert status == 403 and SEVERAL in message, message
    assert session(label="Airplane Mode", className="Switch").get().value == "0"
    assert SETTINGS not in sim.state()["stores"] or not sim.state()["stores"][SETTINGS]


def test_each_finger_down_together_is_checked(rig: Rig, sim: SimServer) -> None:
    """A second finger on Shut Down, with the first on a harmless row, is refused for Shut
    Down; two harmless fingers on different rows are refused too (one line, one target)."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    _general_end(session)
    shut = _centre(session, name="Shut Down", className="Cell")
    inputs, _ = sim.ledger()
    status, message = perform(rig, session.session_id, touch(200, 300, hold_ms=100),
                              touch(*shut, hold_ms=100, name="finger2"))
    assert status == 403 and "power-off screen" in message, message
    refused = refusals(rig.events())[-1]
    assert refused.target is not None and refused.target.label == "Shut Down"
    status, message = perform(rig, session.session_id, touch(100, 300, hold_ms=100),
                              touch(100, 500, hold_ms=100, name="finger2"))
    assert status == 403 and "touch different elements" in message, message
    assert sim.ledger()[0] == inputs, "the phone got a refused request"
    assert not session(label="slide to power off").exists


def test_fingers_down_together_on_a_switch_are_logged_with_it_and_set_back(
        rig: Rig, sim: SimServer) -> None:
    """Two fingers on Airplane Mode's knob, then on Control Center's Wi-Fi toggle: each is one
    tap on the switch (a real phone may flip it), which the runner sets back."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    rig.bridge.set_context("R1", "t", 1, "agent")
    x, y = _centre(session, xpath='//XCUIElementTypeSwitch[@label="Airplane Mode"]'
                                  '/XCUIElementTypeSwitch')
    assert perform(rig, session.session_id, touch(x - 8, y, hold_ms=100),
                   touch(x + 8, y, hold_ms=100, name="finger2"))[0] == 200
    with sim.lock:
        sim.phone.open_control_center()
    wifi = _centre(session, label="Wi-Fi, HomeNet", className="Switch")
    assert perform(rig, session.session_id, touch(*wifi, hold_ms=100),
                   touch(wifi[0] + 10, wifi[1] + 10, hold_ms=120, name="finger2"))[0] == 200
    switch, toggle = actions(rig.events("R1"))[-2:]
    assert (switch.kind, switch.app_before, switch.params["fingers"]) == ("tap", SETTINGS, 2)
    assert switch.target is not None and switch.target.type == SWITCH
    assert switch.target.label == "Airplane Mode"
    assert (toggle.kind, toggle.app_before) == ("tap", SPRINGBOARD)
    assert toggle.target is not None and toggle.target.name == "wifi-button"
    changed = changed_settings(rig.events("R1"))
    assert [(c.kind, c.label, c.was) for c in changed] == [
        ("switch", "Airplane Mode", "0"), ("control", "wifi-button", "1")]


def test_legitimate_gestures_pass_and_are_logged_with_their_targets(rig: Rig) -> None:
    """facebook-wda's own tap and swipe, a one-finger W3C tap and drag, and a real pinch (two
    fingers down together on Maps' map, moving apart)."""
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)
    rig.bridge.set_context("R2", "t", 1, "agent")
    general = _centre(session, label="General", className="Button")
    session.swipe(200, 700, 200, 400, 0.2)
    session.swipe(200, 400, 200, 700, 0.2)
    assert perform(rig, session.session_id, touch(200, 700, hold_ms=200, to=(200, 400)))[0] \
        == 200
    assert perform(rig, session.session_id, touch(200, 400, hold_ms=200, to=(200, 700)))[0] \
        == 200
    session.tap(*general)
    session(name="BackButton").tap()  # by its id: no point
    assert perform(rig, session.session_id, touch(*general))[0] == 200
    maps = client.session(MAPS)
    assert perform(rig, maps.session_id,
                   touch(150, 400, hold_ms=300, to=(100, 350)),
                   touch(250, 500, hold_ms=300, to=(300, 550), name="finger2"))[0] == 200
    assert perform(rig, maps.session_id, touch(250, 500))[0] == 200  # where finger 2 went down
    *logged, pinch, one = actions(rig.events("R2"))
    drags = [a for a in logged if a.kind == "swipe" and a.params["gesture"] != "multi_touch"]
    assert [a.params["gesture"] for a in drags] == ["drag", "drag", "actions", "actions"]
    assert all(a.target is not None and a.ok for a in drags), drags
    taps = [a for a in logged if a.kind == "tap" and "x" in a.params]
    assert [a.params["gesture"] for a in taps] == ["tap", "actions"]
    assert all(a.target is not None and a.target.label == "General" for a in taps), taps
    assert (pinch.kind, pinch.params["gesture"], pinch.params["fingers"]) == (
        "swipe", "multi_touch", 2)
    assert pinch.ok and pinch.app_before == MAPS
    assert pinch.target is not None and pinch.target == one.target  # both fingers on the map
