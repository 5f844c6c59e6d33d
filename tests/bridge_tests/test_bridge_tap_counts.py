"""WDA's tapWithNumberOfTaps is logged with the counts it forwards (`taps`, `touches`), so the
checks can tell a press from none (`presses.press_count`): red team 48 tapped About with one tap
of two fingers and with no tap at all, and `tapped` took both as a tap of About. A count WDA
would read otherwise (integerValue drops a fraction) or could not read (a count missing, which
WDA answers with an error) is refused. Through facebook-wda and the bridge against the simulated
iPhone."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, refused_unsent, sent

from phoneshell.audit import actions

SETTINGS = "com.apple.Preferences"


def _about(rig: Rig) -> tuple[str, str]:
    """Settings > General: the session id and About's element id."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(label="General").click()
    return session.session_id, session(label="About").get(timeout=2).id


@pytest.mark.parametrize(("taps", "touches", "presses"), [(1, 1, 1), (2, 1, 2), (0, 1, 0),
                                                          (1, 2, None), (0, 2, 0)])
def test_the_counts_forwarded_are_logged_and_read_as_presses(
        rig: Rig, taps: int, touches: int, presses: int | None) -> None:
    sid, about = _about(rig)
    sent(rig, f"/session/{sid}/wda/element/{about}/tapWithNumberOfTaps",
         {"numberOfTaps": taps, "numberOfTouches": touches})
    last = actions(rig.events())[-1]
    assert (last.params["gesture"], last.params["taps"], last.params["touches"]) == \
        ("taps", taps, touches)
    assert last.presses == presses
    # only a press of one finger moved the phone: About's page opened
    assert (last.screen_after != last.screen_before) == bool(presses), last


def test_a_two_finger_tap_is_logged_as_a_touch_that_may_be_no_press(rig: Rig) -> None:
    sid, about = _about(rig)
    sent(rig, f"/session/{sid}/wda/element/{about}/twoFingerTap", {})
    last = actions(rig.events())[-1]
    assert last.params["gesture"] == "two_finger_tap" and last.presses is None
    assert last.target is not None and last.target.label == "About"


@pytest.mark.parametrize(("body", "said"), [
    ({"numberOfTaps": 1.5, "numberOfTouches": 1}, "'numberOfTaps' must be a whole number"),
    ({"numberOfTaps": 1, "numberOfTouches": 1.9}, "'numberOfTouches' must be a whole number"),
    ({"numberOfTaps": -1, "numberOfTouches": 1}, "'numberOfTaps' must be a whole number"),
    ({"numberOfTaps": 1}, "'numberOfTouches' is missing"),
    ({"numberOfTouches": 1}, "'numberOfTaps' is missing"),
    ({"numberOfTaps": "2", "numberOfTouches": 1}, "'numberOfTaps' must be a number"),
])
def test_a_count_wda_would_read_otherwise_is_refused(rig: Rig, body: dict[str, object],
                                                      said: str) -> None:
    sid, about = _about(rig)
    message = refused_unsent(rig, f"/session/{sid}/wda/element/{about}/tapWithNumberOfTaps",
                             body)
    assert said in message, message
