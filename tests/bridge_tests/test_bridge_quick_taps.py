"""A W3C finger's quick double or triple tap at one point is one gesture (red team 107, F3).

Selenium's and Appium's `double_click` send move, down, up, down, up (pauses between) as one
W3C request; WDA plays it as a double tap, which selects the word in a note being edited. The
bridge refused it as two gestures, so notes.text_select's honest double tap failed. Now such a
run is logged as WDA's own route for it is (a double tap as `doubleTap`, three taps as
`tapWithNumberOfTaps`), and any other finger that touches more than once (taps at different
points, a tap then a slide, a long pause, a long press) is still refused, never reaching the
phone. facebook-wda and raw HTTP to the bridge on loopback, the simulator behind it.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import TOUCH, Rig, perform, refused_unsent
from quick_taps import quick_taps

from phoneshell.audit import Action, actions

NOTES, CALCULATOR = "com.apple.mobilenotes", "com.apple.calculator"
SETTINGS = "com.apple.Preferences"
WORD = (30, 143)
"""Where a new note's first word shows."""
EDIT_MENU = ["Cut", "Copy", "Select All", "Look Up"]


def _note(rig: Rig) -> wda.Session:
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(label="New Note", className="XCUIElementTypeButton").get(timeout=5).click()
    session.send_keys("anchor")
    return session


def _menu(session: wda.Session) -> list[str]:
    return [str(e.label) for e in session(xpath="//XCUIElementTypeMenu/*").find_elements()]


def _last(rig: Rig) -> Action:
    return actions(rig.events())[-1]


def test_a_w3c_double_tap_selects_the_word_and_is_logged_as_wda_double_tap_is(rig: Rig) -> None:
    session = _note(rig)
    assert perform(rig, session.session_id, quick_taps(*WORD)) == (200, "")
    assert _menu(session) == EDIT_MENU  # the phone took one double tap: the word selected
    w3c = _last(rig)
    assert (w3c.kind, w3c.ok, dict(w3c.params)) == (
        "tap", True, {"x": WORD[0], "y": WORD[1], "gesture": "double_tap"})
    assert w3c.presses == 2
    assert w3c.target is not None and w3c.target.type == "XCUIElementTypeTextView"
    session.double_tap(*WORD)  # WDA's own route, at the same point: the same line
    route = _last(rig)
    assert (route.kind, dict(route.params), route.target) == ("tap", dict(w3c.params), w3c.target)


def test_a_client_that_moves_back_before_its_second_tap_double_taps_too(rig: Rig) -> None:
    session = _note(rig)
    assert perform(rig, session.session_id, quick_taps(*WORD, back=WORD))[0] == 200
    assert _menu(session) == EDIT_MENU
    assert _last(rig).params["gesture"] == "double_tap"


def test_a_double_tap_placed_from_an_element_is_logged_at_the_point_it_lands(rig: Rig) -> None:
    session = _note(rig)
    view = session(className="XCUIElementTypeTextView").get(timeout=5)
    frame = view.bounds
    dx, dy = WORD[0] - frame.center.x, WORD[1] - frame.center.y
    finger = quick_taps(dx, dy)
    moves = finger["actions"]
    assert isinstance(moves, list)
    moves[0] = {"type": "pointerMove", "duration": 0, "x": dx, "y": dy,
                "origin": {"element-6066-11e4-a52e-4f735466cecf": view.id}}
    assert perform(rig, session.session_id, finger)[0] == 200
    assert _menu(session) == EDIT_MENU
    last = _last(rig)
    assert (last.params["gesture"], last.params["x"], last.params["y"]) == (
        "double_tap", WORD[0], WORD[1])
    assert "element" not in last.params


def test_a_w3c_triple_tap_is_logged_as_three_taps_of_one_finger(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(CALCULATOR)
    seven = session(label="7", className="XCUIElementTypeButton").get(timeout=5)
    x, y = seven.bounds.center
    assert perform(rig, session.session_id, quick_taps(x, y, count=3))[0] == 200
    assert session(label="777").exists  # three presses of the key, as iOS takes them
    last = _last(rig)
    assert {k: last.params[k] for k in ("gesture", "taps", "touches")} == {
        "gesture": "taps", "taps": 3, "touches": 1}
    assert last.presses == 3 and last.target is not None and last.target.label == "7"


def test_a_double_tap_on_a_row_that_opens_a_page_ends_there_as_wda_double_tap_does(
        rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    general = session(label="General").get(timeout=5)
    assert perform(rig, session.session_id, quick_taps(*general.bounds.center))[0] == 200
    # the second tap lands while the page slides in, and a phone drops it: General shows, not
    # the row of General's page that lies under the finger (iPhone Storage)
    assert session(label="About").exists and not session(label="Offload Unused Apps").exists
    assert _last(rig).target is not None and _last(rig).target.label == "General"


@pytest.mark.parametrize(("finger", "said"), [
    (quick_taps(*WORD, back=(WORD[0] + 150, WORD[1] + 200)), "again after it lifted"),
    (quick_taps(*WORD, back=(WORD[0] + 3, WORD[1])), "again after it lifted"),  # within the slop
    (quick_taps(*WORD, gap_ms=400), "400 ms before it goes down again"),
    (quick_taps(*WORD, held_ms=600), "is a long press"),
    (quick_taps(*WORD, count=4), "it taps 4 times"),
    ({"type": "pointer", "id": "finger1", "parameters": TOUCH, "actions": [
        {"type": "pointerMove", "duration": 0, "x": WORD[0], "y": WORD[1]},
        {"type": "pointerDown"}, {"type": "pointerUp"}, {"type": "pause", "duration": 50},
        {"type": "pointerDown"},
        {"type": "pointerMove", "duration": 100, "x": WORD[0], "y": WORD[1] + 300},
        {"type": "pointerUp"}]}, "it moves while down"),  # a tap, then a slide
], ids=["apart", "beside", "slow", "held", "four", "tap-then-slide"])
def test_any_other_finger_that_touches_twice_is_refused_unsent(
        rig: Rig, finger: dict[str, object], said: str) -> None:
    sid = _note(rig).session_id
    message = refused_unsent(rig, f"/session/{sid}/actions", {"actions": [finger]})
    assert "more than one gesture in one request" in message and said in message, message


def test_a_double_tap_beside_another_finger_is_refused_unsent(rig: Rig) -> None:
    sid = _note(rig).session_id
    other = {"type": "pointer", "id": "finger2", "parameters": TOUCH, "actions": [
        {"type": "pointerMove", "duration": 0, "x": 300, "y": 500}, {"type": "pointerDown"},
        {"type": "pause", "duration": 300}, {"type": "pointerUp"}]}
    message = refused_unsent(rig, f"/session/{sid}/actions",
                             {"actions": [quick_taps(*WORD), other]})
    assert "while another finger touches too" in message, message
