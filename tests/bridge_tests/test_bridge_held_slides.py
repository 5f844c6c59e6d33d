"""A touch chain's swipe logs how long its finger held still before it slid (`hold`, red team
83): held long enough, iOS opened the context menu of what it held, and the item it lifted on
was chosen, which the log cannot name, so its readers take it as such a press
(`Action.unnamed_press`). Timed as WDA plays the chain: a pause, then the move that takes the
finger past the slop, part way along it. Classified alone, and through a bridge on loopback in
front of the simulator (which plays the hold: tests/sim/test_sim_held_slides.py)."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, post

from bridge.actions import classify
from phoneshell.audit import actions
from phoneshell.holds import MENU_SLIDE

S = "/session/CA43AE24-8138-490F-9898-B8BF4D60C5AF"
NOTES = "com.apple.mobilenotes"


def held(pause_ms: float, move_ms: float = 300, start: tuple[float, float] = (100, 500),
         end: tuple[float, float] = (100, 400)) -> dict[str, object]:
    """A W3C touch: down at `start`, still `pause_ms`, a `move_ms` move to `end`, up."""
    return {"actions": [{"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
                         "actions": [{"type": "pointerMove", "duration": 0, "x": start[0],
                                      "y": start[1]},
                                     {"type": "pointerDown"},
                                     {"type": "pause", "duration": pause_ms},
                                     {"type": "pointerMove", "duration": move_ms, "x": end[0],
                                      "y": end[1]},
                                     {"type": "pointerUp"}]}]}


@pytest.mark.parametrize(("pause_ms", "move_ms", "hold"), [
    (900, 300, 0.93),  # 10 pt of a 100 pt move: 30 ms into it
    (0, 300, 0.03),
    (0, 5000, 0.5),  # a crawl: still within the slop half a second in
])
def test_a_chain_logs_how_long_it_held_still(pause_ms: float, move_ms: float,
                                             hold: float) -> None:
    found = classify("POST", f"{S}/actions", held(pause_ms, move_ms))
    assert found is not None and found.kind == "swipe"
    assert found.params["hold"] == hold and found.params["duration"] == \
        round((pause_ms + move_ms) / 1000, 3)


def test_a_legacy_chain_holds_for_its_wait() -> None:
    found = classify("POST", f"{S}/wda/touch/perform", {"actions": [
        {"action": "press", "options": {"x": 10, "y": 500}},
        {"action": "wait", "options": {"ms": 800}},
        {"action": "moveTo", "options": {"x": 10, "y": 100}},
        {"action": "release", "options": {}}]})
    assert found is not None and found.kind == "swipe" and found.params["hold"] == 0.8


def test_a_held_slide_is_read_as_a_press_the_log_cannot_name(rig: Rig) -> None:
    """Held on a row, whose hold opens its menu, the slide is refused (red team 96:
    test_bridge_held_menu_slides.py); held on the list's title, it is logged, and read as a
    press the log cannot name, as a quick one is not."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    x, y = session(className="Cell").get(timeout=5).bounds.center
    route = f"/session/{session.session_id}/actions"
    status, message = post(rig, route, held(900, start=(x, y), end=(x, y - 100)))
    assert status == 403 and MENU_SLIDE in message
    x, y = session(className="StaticText", label="Notes").get(timeout=5).bounds.center
    for pause_ms in (900, 0):  # each a slide down from the title
        status, _ = post(rig, route, held(pause_ms, start=(x, y), end=(x, y + 100)))
        assert status == 200
    slow, quick = [a for a in actions(rig.events()) if a.kind == "swipe"][-2:]
    assert slow.target is not None and quick.target is not None
    assert slow.target.label == quick.target.label
    assert slow.unnamed_press().startswith("held still 0.93 s before it slid")
    assert quick.unnamed_press() == ""
