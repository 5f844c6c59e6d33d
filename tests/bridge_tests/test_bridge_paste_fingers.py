"""Three or more fingers down together make iOS's editing gestures (since iOS 13: a pinch copies,
twice cuts, a spread pastes, a swipe undoes or redoes, a tap shows the edit bar), which reach
the owner's pasteboard and the undo stack with no control under the fingers to name: every
touch chain of three fingers or more is refused, by W3C actions and by the legacy multi-touch
route, worded as the pasteboard's refusals are, logged as refused, and never reaches the phone
(red team 43 spread and pinched three fingers on a note, both answered OK). Two-finger gestures
keep their rules. Through facebook-wda and the bridge against the simulated iPhone."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, refused_unsent, sent, touch

from phoneshell.pasteboard import FINGERS
from phoneshell.xcui import NOTES


def _note(rig: Rig) -> tuple[str, tuple[int, int]]:
    """A note with text being edited: the session id, and a point on its text view."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(label="New Note", className="Button").click()
    session.send_keys("the owner's sentence")
    view = session(className="TextView").get(timeout=2).bounds
    return session.session_id, (view.x + view.width // 2, view.y + 60)


def _fingers(centre: tuple[int, int], count: int, spread: bool) -> list[dict[str, object]]:
    """`count` W3C fingers in a row about `centre`, spreading out (or pinching in)."""
    x, y = centre
    found = []
    for i in range(count):
        near, far = (x + (i - count // 2) * 10, y), (x + (i - count // 2) * 60, y)
        start, end = (near, far) if spread else (far, near)
        found.append(touch(*start, hold_ms=300, to=end, name=f"f{i}"))
    return found


@pytest.mark.parametrize("count", [3, 4, 5])
@pytest.mark.parametrize("spread", [True, False], ids=["spread (paste)", "pinch (copy)"])
def test_three_or_more_fingers_by_w3c_are_refused(rig: Rig, count: int, spread: bool) -> None:
    sid, centre = _note(rig)
    message = refused_unsent(rig, f"/session/{sid}/actions",
                             {"actions": _fingers(centre, count, spread)})
    assert f"{count} fingers down together" in message and FINGERS in message
    assert "copied last" in message


def test_a_three_finger_tap_by_the_legacy_multi_touch_route_is_refused(rig: Rig) -> None:
    sid, (x, y) = _note(rig)
    fingers = [[{"action": "tap", "options": {"x": x + dx, "y": y}}] for dx in (-40, 0, 40)]
    message = refused_unsent(rig, f"/session/{sid}/wda/touch/multi/perform",
                             {"actions": fingers})
    assert "3 fingers down together" in message and FINGERS in message


def test_two_fingers_keep_their_rules(rig: Rig) -> None:
    """A two-finger pinch on the note's text is no editing gesture: forwarded, as before."""
    sid, centre = _note(rig)
    sent(rig, f"/session/{sid}/actions", {"actions": _fingers(centre, 2, spread=True)})
    assert [e.params.get("fingers") for e in rig.intents()][-1] == 2


def _text_view(rig: Rig) -> tuple[str, str]:
    """A note being edited: the session id, and its text view's element id."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    session(label="New Note", className="Button").click()
    session.send_keys("the owner's sentence")
    return session.session_id, session(className="TextView").get(timeout=2).id


@pytest.mark.parametrize("touches", [3, 4, 5])
def test_a_tap_of_three_or_more_touches_by_tap_with_number_of_taps_is_refused(
        rig: Rig, touches: int) -> None:
    """WDA's tapWithNumberOfTaps taps with `numberOfTouches` fingers: three bring the edit bar."""
    sid, view = _text_view(rig)
    message = refused_unsent(rig, f"/session/{sid}/wda/element/{view}/tapWithNumberOfTaps",
                             {"numberOfTaps": 1, "numberOfTouches": touches})
    assert f"{touches} fingers down together" in message and FINGERS in message


def test_a_two_finger_tap_by_tap_with_number_of_taps_is_forwarded(rig: Rig) -> None:
    sid, view = _text_view(rig)
    sent(rig, f"/session/{sid}/wda/element/{view}/tapWithNumberOfTaps",
         {"numberOfTaps": 1, "numberOfTouches": 2})


@pytest.mark.parametrize("route", ["actions", "wda/touch/multi/perform", "tapWithNumberOfTaps"])
def test_three_fingers_are_refused_before_the_phone_is_asked_anything(rig: Rig,
                                                                      route: str) -> None:
    """The refusal reads the request alone: no screen read, no request of any kind reaches the
    phone (each would cost a round trip on a real one for a chain refused whatever it shows)."""
    sid, view = _text_view(rig)
    x, y = 200, 300
    path, body = {
        "actions": ("actions", {"actions": _fingers((x, y), 3, spread=True)}),
        "wda/touch/multi/perform": ("wda/touch/multi/perform", {"actions": [
            [{"action": "tap", "options": {"x": x + dx, "y": y}}] for dx in (-40, 0, 40)]}),
        "tapWithNumberOfTaps": (f"wda/element/{view}/tapWithNumberOfTaps",
                                {"numberOfTaps": 1, "numberOfTouches": 3}),
    }[route]
    before = rig.sim.request_counts()
    message = refused_unsent(rig, f"/session/{sid}/{path}", body)
    assert "3 fingers down together" in message and FINGERS in message
    assert rig.sim.request_counts() == before
