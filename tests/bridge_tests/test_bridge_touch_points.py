"""The point the log names is the point the phone acts on, fractions and all.

A phone hit-tests a touch at the float point it was sent (UIKit's CGRectContainsPoint: left and
top edges in, right and bottom out), and so does the bridge when it logs what a touch lands on.
The simulator used to snap a point to whole points with Python's round() (half to even), so a
tap at x=381.5, half a point inside the About row's right edge (382), was logged as About while
the phone touched nothing, and a tap half a point outside a left edge pressed what the log said
it missed. Each touch below goes through the bridge on loopback to the simulated iPhone over
real HTTP, and the row the log names must be the row that opened.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, sent, touch

from phoneshell.xcui import SETTINGS

ABOUT = (20, 133, 362, 53)
"""The About row of Settings > General on the simulated iPhone 17 (x, y, width, height)."""
LEFT, TOP, WIDTH, HEIGHT = ABOUT
RIGHT, BOTTOM = LEFT + WIDTH, TOP + HEIGHT
MIDDLE_Y = TOP + HEIGHT // 2
POINTS = [(RIGHT - 0.5, MIDDLE_Y), (RIGHT + 0.5, MIDDLE_Y), (LEFT - 0.5, MIDDLE_Y),
          (LEFT + 0.5, MIDDLE_Y), (200, TOP - 0.5), (200, TOP + 0.5), (200, BOTTOM - 0.5),
          (200, BOTTOM + 0.5)]
"""Half a point either side of each edge of the row: banker's rounding snapped the ones
beside an even edge across it."""


def _route(kind: str, x: float, y: float) -> tuple[str, dict[str, object]]:
    if kind == "tap":
        return "/wda/tap", {"x": x, "y": y}
    if kind == "hold":  # shorter than a long press: a tap
        return "/wda/touchAndHold", {"x": x, "y": y, "duration": 0.1}
    if kind == "drag":  # one that never moves: a tap where it went down
        return "/wda/dragfromtoforduration", {"fromX": x, "fromY": y, "toX": x, "toY": y,
                                              "duration": 0.1}
    return "/actions", {"actions": [touch(x, y)]}


@pytest.mark.slow  # 2.9 s measured: the README's command stays quick
@pytest.mark.parametrize("kind", ["tap", "hold", "drag", "w3c"])
def test_a_touch_half_a_point_from_an_edge_is_logged_where_it_lands(rig: Rig,
                                                                     kind: str) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    wrong = []
    for x, y in POINTS:
        session(label="General").get(timeout=3).click()
        logged = len(rig.intents())
        route, body = _route(kind, x, y)
        sent(rig, f"/session/{session.session_id}{route}", body)
        target = rig.intents()[logged].target
        named = target.label if target is not None else ""
        opened = "Model Number" in session.source()
        if (named == "About") != opened:
            wrong.append(f"({x:g}, {y:g}): logged {named!r}, About opened: {opened}")
        while session(name="BackButton").exists:
            session(name="BackButton").get(timeout=3).click()  # back to the root
    assert wrong == []
