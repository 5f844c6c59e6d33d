"""Routes whose arguments the bridge must read as WDA does: an element tap at an offset, and a
picker wheel turned to a value.

WDA takes `/wda/element/:id/tap {"x", "y"}` as a point that far from the top-left corner of the
element's frame (`targetWithXyCoordinatesFromRequest`); the bridge used to refuse it. It now
logs it as a tap at the point on screen it lands on, with what a hit test finds there, as a tap
at that point would be logged, and refuses it only when that point lies outside the element. A
picker wheel's select may turn the wheel many rows for one request: the log keeps every
argument WDA reads (the value above all, which path checks read), counts no press of anything
but the wheel, and refuses more rows than a wheel's round. Each request goes through the bridge
on loopback to the simulated iPhone over real HTTP.
"""

from __future__ import annotations

import wda
from bridge_rig import Rig, refused_unsent, sent

from phoneshell.xcui import SETTINGS

TIMER = "com.apple.mobiletimer"


def test_an_element_tap_at_an_offset_is_logged_at_its_point_on_screen(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    general = session(label="General").get(timeout=3)
    frame = general.bounds
    logged = len(rig.intents())
    sent(rig, f"/session/{session.session_id}/wda/element/{general.id}/tap", {"x": 30, "y": 10})
    tap = rig.intents()[logged]
    assert tap.kind == "tap" and (tap.params["x"], tap.params["y"]) == (frame.x + 30,
                                                                        frame.y + 10)
    assert "element" not in tap.params  # aimed as a point: what lies there is what it names
    assert tap.target is not None and tap.target.label == "General"
    assert session(label="About").exists  # the phone opened General: the tap landed there


def test_an_element_tap_at_an_offset_outside_it_is_refused(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    general = session(label="General").get(timeout=3)
    frame = general.bounds
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/element/{general.id}/tap",
                             {"x": 30, "y": frame.height + 5})
    assert "outside it" in message and "/wda/tap" in message
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/element/{general.id}/tap",
                             {"x": 30})
    assert "Both x and y coordinates must be provided" in message


def test_a_picker_select_is_logged_with_its_value_and_presses_nothing_else(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(TIMER)
    session(label="Timers").get(timeout=3).click()
    minute = session(className="PickerWheel").find_elements()[1]
    logged = len(rig.intents())
    sent(rig, f"/session/{session.session_id}/wda/pickerwheel/{minute.id}/select",
         {"order": "next", "offset": 0.15, "value": "30 min", "maxAttempts": 40})
    assert minute.value == "30 min"  # turned row by row until it showed the value
    turns = rig.intents()[logged:]
    assert [t.kind for t in turns] == ["swipe"]  # one action, on the wheel: no tap to count
    assert turns[0].params == {"direction": "next", "value": "30 min", "max_attempts": 40,
                               "offset": 0.15, "element": minute.id,
                               "gesture": "picker_select"}
    assert turns[0].target is not None and turns[0].target.type.endswith("PickerWheel")
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/pickerwheel/{minute.id}/"
                             "select", {"order": "next", "value": "nowhere",
                                        "maxAttempts": 1e9})
    assert "maxAttempts" in message
