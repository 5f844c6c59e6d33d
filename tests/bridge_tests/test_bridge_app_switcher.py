"""The App Switcher through the bridge (red team 115, RT115-4): the W3C swipe up that pauses
reaches the phone and shows the switcher, a card's tap is logged as its app coming to the
front (what the path checks read as "opened"), and a card swiped up is logged as a swipe in
SpringBoard that leaves its app not running, as a terminate does."""

from __future__ import annotations

import wda
from bridge_rig import Rig, perform

from phoneshell.audit import actions

CALC, NOTES, SPRINGBOARD = "com.apple.calculator", "com.apple.mobilenotes", "com.apple.springboard"


def _paused_swipe_up(height: int) -> dict[str, object]:
    return {"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": 201, "y": height - 5},
                        {"type": "pointerDown"},
                        {"type": "pointerMove", "duration": 300, "x": 201, "y": height // 2},
                        {"type": "pause", "duration": 500}, {"type": "pointerUp"}]}


def test_a_card_tap_is_logged_as_its_app_coming_to_the_front(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session()
    session.app_activate(NOTES)
    session.app_activate(CALC)
    height = rig.sim.phone.facts.height
    status, message = perform(rig, session.session_id, _paused_swipe_up(height))
    assert status == 200, message
    swipe = actions(rig.events())[-1]
    assert (swipe.kind, swipe.app_before, swipe.app_after) == ("swipe", CALC, SPRINGBOARD)
    session(nameContains=f"card:{NOTES}:", visible=True).click()
    tap = actions(rig.events())[-1]
    assert (tap.kind, tap.app_before, tap.app_after) == ("tap", SPRINGBOARD, NOTES)
    assert tap.target is not None and tap.target.label == "Notes"


def test_a_card_swiped_up_leaves_its_app_not_running(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session()
    session.app_activate(CALC)
    height = rig.sim.phone.facts.height
    assert perform(rig, session.session_id, _paused_swipe_up(height))[0] == 200
    x, y = session(nameContains=f"card:{CALC}:", visible=True).bounds.center
    session.swipe(x, y, x, 60)
    swipe = actions(rig.events())[-1]
    assert (swipe.kind, swipe.app_before, swipe.app_after) == ("swipe", SPRINGBOARD,
                                                               SPRINGBOARD)
    assert session.app_state(CALC)["value"] == 1
