"""Touch chains (W3C actions, Appium's legacy touch actions) classified: one gesture, or refused.

Each finger is timed on its own clock from the request's start, as WDA times each source: a
W3C finger goes down after its first move's duration, a legacy one at 0 (a `tap` holds 100 ms,
a `longPress` 600 ms unless told). Fingers all down at one moment are one gesture, logged as the
finger a control under them takes as a change (one that taps, else one that slides sideways);
fingers one after another are several gestures, refused.
"""

from __future__ import annotations

import pytest
from bridge_rig import touch

from bridge.actions import classify
from bridge.classified import Classified
from bridge.gate import Refused

S = "/session/S1"
SEVERAL = "more than one gesture in one request"


def _w3c(*fingers: dict[str, object]) -> Classified:
    named = [{**finger, "id": f"finger{i}"} for i, finger in enumerate(fingers)]
    found = classify("POST", f"{S}/actions", {"actions": named})
    assert found is not None
    return found


def _legacy(*fingers: list[dict[str, object]]) -> Classified:
    found = classify("POST", f"{S}/wda/touch/multi/perform", {"actions": list(fingers)})
    assert found is not None
    return found


def test_a_finger_that_taps_leads_then_one_that_slides_sideways() -> None:
    scroll, tap = touch(100, 600, 200, to=(100, 300)), touch(300, 400, 100)
    found = _w3c(scroll, tap)
    assert (found.kind, found.aim, found.params["x"], found.params["fingers"]) == (
        "tap", "point", 300, 2)
    assert [(o.kind, o.aim, o.params["from_y"]) for o in found.others] == [
        ("swipe", "from", 600)]
    sideways = _w3c(scroll, touch(100, 400, 200, to=(300, 410)))
    assert (sideways.kind, sideways.params["from_y"], sideways.params["to_x"]) == (
        "swipe", 400, 300)
    both_scroll = _w3c(scroll, touch(300, 600, 200, to=(300, 300)))
    assert (both_scroll.params["from_x"], both_scroll.params["gesture"]) == (100, "multi_touch")


def test_fingers_one_after_another_are_refused_however_little_apart() -> None:
    first = touch(100, 100, hold_ms=100)
    assert _w3c(first, touch(300, 300, after_ms=99)).params["fingers"] == 2
    with pytest.raises(Refused, match=SEVERAL) as refused:
        _w3c(first, touch(300, 300, after_ms=100))  # the first lifts as the second goes down
    assert refused.value.status == 403
    with pytest.raises(Refused, match="not all down at one moment"):
        _w3c(touch(1, 1, hold_ms=500), touch(2, 2, hold_ms=500, after_ms=400),
             touch(3, 3, hold_ms=500, after_ms=800))  # each overlaps the next, not all three


def test_a_finger_on_an_element_is_aimed_at_it_and_others_keep_the_session() -> None:
    on_element = {**touch(0, 0, hold_ms=100), "actions": [
        {"type": "pointerMove", "x": 0, "y": 0,
         "origin": {"element-6066-11e4-a52e-4f735466cecf": "E7"}},
        {"type": "pointerDown"}, {"type": "pause", "duration": 100}, {"type": "pointerUp"}]}
    found = _w3c(touch(10, 20, hold_ms=100), on_element)
    assert [(o.aim, o.params["element"], o.session_id) for o in found.others] == [
        ("origin", "E7", "S1")]


def test_legacy_fingers_start_together_and_are_timed_as_wda_times_them() -> None:
    tap = {"action": "tap", "options": {"x": 10, "y": 20}}
    found = _legacy([tap], [{"action": "longPress", "options": {"x": 50, "y": 60}},
                            {"action": "release"}])
    assert (found.kind, found.params["duration"], found.others[0].params["duration"]) == (
        "tap", 0.1, 0.6)
    with pytest.raises(Refused, match=SEVERAL):  # a press lifted at once: no moment together
        _legacy([{"action": "press", "options": {"x": 1, "y": 1}}, {"action": "release"}],
                [tap])
    with pytest.raises(Refused, match="moveTo while no finger is down"):
        _legacy([{"action": "moveTo", "options": {"x": 1, "y": 1}}, tap])
