"""Gestures on an element that cannot show answer WDA's not-visible error, as XCTest's do.

XCTest puts a gesture's fingers at the element's hit point; an element with none (an icon on
another home-screen page: zero frame, not visible) fails the gesture instead of touching the
screen's corner. Taps by id were already refused; swipes, pinches, rotations and two-finger
taps on such an element answered 200, and a swipe became a tap at (0, 0).
"""

from __future__ import annotations

import wda

from tests.sim.conftest import Raw

GESTURES = (("swipe", {"direction": "left"}), ("pinch", {"scale": 2, "velocity": 1}),
            ("rotate", {"rotation": 1, "velocity": 1}), ("twoFingerTap", {}))


def _page(app: wda.Client) -> str:
    return str(app(className="XCUIElementTypePageIndicator").get(timeout=2).value)


def test_gestures_on_an_icon_of_another_page_are_refused(app: wda.Client, raw) -> None:  # type: ignore[no-untyped-def]
    app.press("home")
    hidden = app(label="Fitness", className="XCUIElementTypeIcon").get(timeout=2)
    assert not hidden.visible and hidden.bounds.width == 0
    page = _page(app)
    for gesture, body in GESTURES:
        answer: Raw = raw("POST", f"/session/{app.session_id}/wda/element/{hidden.id}/{gesture}",
                          body)
        assert answer.status == 400, (gesture, answer.text)
        assert answer.value["error"] == "invalid element state"
        assert "'\"Fitness\" Icon' is not visible on the screen" in answer.value["message"]
    assert _page(app) == page
    assert app.app_current()["bundleId"] == "com.apple.springboard"


def test_a_swipe_on_a_shown_element_still_swipes(app: wda.Client, raw) -> None:  # type: ignore[no-untyped-def]
    app.press("home")
    page = _page(app)
    shown = app(name="Home screen icons").get(timeout=2)
    answer: Raw = raw("POST", f"/session/{app.session_id}/wda/element/{shown.id}/swipe",
                      {"direction": "left"})
    assert answer.status == 200, answer.text
    assert _page(app) != page  # the home screen paged
