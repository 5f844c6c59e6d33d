"""A page sheet pulled down through the bridge: the phone dismisses it (as iOS does), and the log
has the swipe it was, on the sheet, never a tap of a control on it or beneath it, even when the
finger goes down on the sheet's Cancel (its target then, as every drag's is what the finger went
down on: `tapped` bans and refusals read taps) (Clock's Add Alarm; red team 44)."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

from phoneshell.sim import SimServer
from phoneshell.sim.apps.clock_alarms import alarms

CLOCK = "com.apple.mobiletimer"


@pytest.mark.parametrize("start", [(200, 96), (50, 96), (200, 560)])
def test_a_sheet_pulled_down_is_logged_as_a_swipe_and_dismissed(
        rig: Rig, sim: SimServer, start: tuple[int, int]) -> None:
    app = wda.Client(rig.bridge.url).session(CLOCK)
    app(label="Alarms", className="Button").get(timeout=5).click()
    app(label="Add", className="Button").get(timeout=5).click()
    x, y = start
    opened = len([e for e in rig.events() if e.stage == "intent"])
    app.swipe(x, y, x, 840, 0.3)
    assert not app(name="Add Alarm", className="NavigationBar").exists
    assert app(label="Add", className="Button").get(timeout=5).visible  # usable again
    logged = [e for e in rig.events() if e.stage == "intent"][opened:]
    assert logged[0].kind == "swipe" and logged[0].target is not None
    assert logged[0].target.page == "Add Alarm"  # on the sheet
    assert len(logged) == 1  # one swipe, no tap of what it went down on
    with sim.lock:
        assert not alarms(sim.phone.store(CLOCK))  # closed as Cancel: nothing saved
