"""W3C actions on the simulator: what each touch does, what WDA refuses and how it says so."""

from __future__ import annotations

from typing import Any

import pytest

SETTINGS = "com.apple.Preferences"
TOUCH = {"pointerType": "touch"}


def finger(*steps: dict[str, Any], name: str = "f1") -> dict[str, Any]:
    return {"type": "pointer", "id": name, "parameters": TOUCH, "actions": list(steps)}


def move(x: float, y: float, duration: int = 0, origin: Any = "viewport") -> dict[str, Any]:
    return {"type": "pointerMove", "x": x, "y": y, "duration": duration, "origin": origin}


DOWN, UP = {"type": "pointerDown"}, {"type": "pointerUp"}


def pause(ms: int) -> dict[str, Any]:
    return {"type": "pause", "duration": ms}


@pytest.fixture
def settings(client):
    return client.session(SETTINGS)


def perform(raw, sid: str, *sources: dict[str, Any], session: bool = True):
    path = f"/session/{sid}/actions" if session else "/actions"
    return raw("POST", path, {"actions": list(sources)})


def test_a_tap_opens_what_it_touches(settings, raw):
    x, y = settings(label="General").get().bounds.center
    assert perform(raw, settings.session_id, finger(move(x, y), DOWN, pause(50), UP)).status == 200
    assert settings(name="About").exists


def test_an_element_origin_taps_the_element_centre_plus_the_offset(settings, raw):
    general = settings(label="General").get()
    origin = {"element-6066-11e4-a52e-4f735466cecf": general.id}
    assert perform(raw, settings.session_id, finger(move(0, 0, origin=origin), DOWN, UP)).status \
        == 200
    assert settings(name="About").exists


def test_an_element_origin_without_x_and_y_touches_its_hit_point(settings, raw):
    """WDA places a finger from an element by `hit_point.origin_point`: without x and y at its
    hit point (a switch row's knob, as a tap by id), with them at its frame's centre (beside
    the row's label, which flips nothing) (red team 84)."""
    switch = settings(label="Airplane Mode", className="Switch").get()
    origin = {"element-6066-11e4-a52e-4f735466cecf": switch.id}
    at_hit = {"type": "pointerMove", "origin": origin}
    for step, value in ((at_hit, "1"), (move(0, 0, origin=origin), "1"), (at_hit, "0")):
        assert perform(raw, settings.session_id, finger(step, DOWN, UP)).status == 200
        assert settings(label="Airplane Mode", className="Switch").get().value == value


def test_a_moving_finger_drags_and_a_still_one_held_long_presses(settings, raw, sim):
    general = settings(label="General").get()
    top = general.bounds.y
    perform(raw, settings.session_id, finger(move(200, 700), DOWN, move(200, 500, 200), UP))
    assert settings(label="General").get().bounds.y == top - 200  # content follows the finger
    perform(raw, settings.session_id, finger(move(200, 300), DOWN, move(200, 500, 200), UP))
    x, y = settings(label="General").get().bounds.center
    perform(raw, settings.session_id, finger(move(x, y), DOWN, pause(700), UP))
    assert settings(name="About").exists  # a row without a menu takes a long press as a tap


def test_a_relative_move_within_the_slop_still_taps(settings, raw):
    x, y = settings(label="General").get().bounds.center
    relative = {"type": "pointerMove", "x": 4, "y": 3, "origin": "pointer"}
    perform(raw, settings.session_id, finger(move(x, y), DOWN, relative, UP))
    assert settings(name="About").exists


def test_two_fingers_down_together_tap_nothing(settings, raw):
    x, y = settings(label="General").get().bounds.center
    pinch = [finger(move(x, y), DOWN, move(x - 80, y, 300), UP, name="a"),
             finger(move(x + 20, y), DOWN, move(x + 100, y, 300), UP, name="b")]
    assert perform(raw, settings.session_id, *pinch).status == 200
    assert not settings(name="About").exists and settings(label="General").exists


def test_key_actions_type_into_the_focused_field_in_time_order(settings, raw):
    x, y = settings(className="SearchField").get().bounds.center
    keys = {"type": "key", "id": "kb", "actions": [
        pause(100), {"type": "keyDown", "value": "B"}, {"type": "keyUp", "value": "B"},
        {"type": "keyDown", "value": "t"}, {"type": "keyUp", "value": "t"},
        {"type": "keyDown", "value": "\ue003"}, {"type": "keyUp", "value": "\ue003"},
        {"type": "keyDown", "value": "l"}, {"type": "keyUp", "value": "l"}]}
    # The tap comes first in time, so the field has focus when the keys arrive.
    assert perform(raw, settings.session_id, keys, finger(move(x, y), DOWN, UP)).status == 200
    assert settings(className="SearchField").get().value == "Bl"


def test_the_session_free_form_taps_too(settings, raw):
    x, y = settings(label="General").get().bounds.center
    assert perform(raw, "", finger(move(x, y), DOWN, UP), session=False).status == 200
    assert settings(name="About").exists


@pytest.mark.parametrize(("source", "words"), [
    ({"type": "pointer", "id": "m", "actions": [move(1, 1), DOWN, UP]},
     "Only pointer type 'touch' is supported. 'mouse' is given instead"),
    ({"type": "wheel", "id": "w", "actions": []}, "Only actions of '['pointer', 'key']' types"),
    (finger(DOWN, UP), "must be preceded by pointerMove item"),
    (finger(move(1, 1), DOWN, UP, UP), "Pointer Up must not be the first action"),
    (finger({"type": "pointerMove", "x": 1}), "Both 'x' and 'y' options should be set"),
    (finger({"type": "pointerMove", "x": 1, "y": 1, "origin": "pointer"}),
     "There is no previous item"),
    (finger(move(1, 1), {"type": "wiggle"}), "action item type 'wiggle' is not supported"),
    (finger(), "It is mandatory to have at least one gesture item"),
    ({"type": "key", "id": "k", "actions": [{"type": "keyDown", "value": "a"}]},
     "Key Down action 'a' must have a closing Key Up"),
    ({"type": "key", "id": "k", "actions": [{"type": "keyUp", "value": "a"}]},
     "Key Up action 'a' is not balanced"),
])
def test_what_wda_refuses_is_an_invalid_argument(settings, raw, source, words):
    reply = perform(raw, settings.session_id, source)
    assert (reply.status, reply.value["error"]) == (400, "invalid argument")
    assert words in reply.value["message"]
    assert settings(label="General").exists  # nothing happened


def test_element_origins_need_a_live_element_and_a_session(settings, raw):
    origin = {"ELEMENT": "F00D-0000"}
    stale = perform(raw, settings.session_id, finger(move(0, 0, origin=origin), DOWN, UP))
    assert (stale.status, stale.value["error"]) == (404, "stale element reference")
    free = perform(raw, "", finger(move(0, 0, origin=origin), DOWN, UP), session=False)
    assert (free.status, free.value["error"]) == (400, "invalid argument")


def test_drop_writes_ignores_actions(sim, settings, raw):
    sim.fault_on("drop-writes")
    x, y = settings(label="General").get().bounds.center
    assert perform(raw, settings.session_id, finger(move(x, y), DOWN, UP)).status == 200
    sim.fault_off("drop-writes")
    assert not settings(name="About").exists
