"""The simulator holds each drag route's press from the one field WDA reads as it
(`holds.PRESS_FIELDS`, red team 94): `pressDuration` on `pressAndDragWithVelocity`'s point form
(it read `duration` first, so a phone's 1 s hold played as a quick drag), `duration` on
`dragfromtoforduration` (it fell back to `pressDuration`, so a phone's quick drag played as a
hold). Weather's home-screen icon, held 1 s and slid 60 pt down, opens its context menu and
lifts on Edit Home Screen. facebook-wda against the simulator, no bridge."""

from __future__ import annotations

import pytest
import wda

from phoneshell.sim import SimServer


@pytest.mark.parametrize(("route", "press", "held"), [
    ("pressAndDragWithVelocity", {"pressDuration": 1.0, "duration": 0}, True),
    ("pressAndDragWithVelocity", {"duration": 1.0}, False),
    ("dragfromtoforduration", {"pressDuration": 1.0}, False),
    ("dragfromtoforduration", {"duration": 1.0, "pressDuration": 0}, True),
])
def test_a_drag_holds_the_press_wda_reads(sim: SimServer, route: str,
                                          press: dict[str, float], held: bool) -> None:
    session = wda.Client(sim.url).session()
    x, y = session(label="Weather", className="Icon").get(timeout=5).bounds.center
    session.http.post(f"/session/{session.session_id}/wda/{route}",
                      {"fromX": x, "fromY": y, "toX": x + 3, "toY": y + 60, "velocity": 600,
                       **press})
    assert session(label="Remove App").exists is held
