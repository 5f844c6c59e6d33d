"""A point sent as strings ({"x": "201", "y": "400"}) is read as WDA reads it, with doubleValue
(red team 103, RT103-4): the simulator plays it where a phone would, and the bridge forwards and
logs it as the numbers it spells, on every route that takes a point; a string that is no plain
number ("201px", which doubleValue reads as 201, "abc" as 0) the bridge refuses unsent."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import wda
from bridge_rig import TOUCH, Rig, post, refused_unsent, request

from phoneshell.audit import actions
from phoneshell.xcui import SETTINGS

ROW = "com.apple.settings.accessibility"
OPENED = ("NavigationBar", "Accessibility")
Body = Callable[[str, str], tuple[str, dict[str, Any]]]
"""Given a point's x and y as sent: the route (after the session) and the body."""


def _w3c(x: Any, y: Any) -> dict[str, Any]:
    return {"actions": [{"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": [
        {"type": "pointerMove", "duration": 0, "x": x, "y": y}, {"type": "pointerDown"},
        {"type": "pause", "duration": 80}, {"type": "pointerUp"}]}]}


ROUTES: dict[str, Body] = {
    "tap": lambda x, y: ("/wda/tap", {"x": x, "y": y}),
    "doubleTap": lambda x, y: ("/wda/doubleTap", {"x": x, "y": y}),
    "pressAndDragWithVelocity": lambda x, y: ("/wda/pressAndDragWithVelocity", {
        "fromX": x, "fromY": y, "toX": x, "toY": y, "pressDuration": 0, "holdDuration": 0,
        "velocity": 500}),
    "touchAndHold": lambda x, y: ("/wda/touchAndHold", {"x": x, "y": y, "duration": 0.2}),
    "dragfromtoforduration": lambda x, y: ("/wda/dragfromtoforduration", {
        "fromX": x, "fromY": y, "toX": x, "toY": y, "duration": 0}),
    "W3C actions": lambda x, y: ("/actions", _w3c(x, y)),
}
"""Routes that press the row at the point they are given (a drag that goes nowhere taps)."""


def _row(session: wda.Client) -> tuple[int, int]:
    x, y = session(name=ROW).get(timeout=5).bounds.center
    return int(x), int(y)


def _opened(session: wda.Client) -> bool:
    return bool(session(className=OPENED[0], name=OPENED[1]).exists)


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_a_point_spelled_in_strings_plays_where_its_numbers_would(rig: Rig, route: str) -> None:
    # the simulator alone, as WDA: "201" is 201
    bare = wda.Client(rig.sim.url).session(SETTINGS)
    x, y = _row(bare)
    path, body = ROUTES[route](str(x), str(y))
    status, _, reply = request(rig.sim.url, "POST", f"/session/{bare.session_id}{path}",
                               json.dumps(body).encode())
    assert status == 200, reply
    assert _opened(bare)
    # through the bridge: forwarded, played, and logged as the same numbers a number logs
    logged = []
    for point in ((str(x), str(y)), (x, y)):
        session = wda.Client(rig.bridge.url).session(SETTINGS)
        path, body = ROUTES[route](*point)
        assert post(rig, f"/session/{session.session_id}{path}", body) == (200, "")
        assert _opened(session)
        last = actions(rig.events())[-1]
        assert last.target is not None and last.target.name == ROW, last
        logged.append((last.kind, {k: v for k, v in last.params.items() if k != "element"}))
    assert logged[0] == logged[1], logged
    assert str(x) in json.dumps(logged[0][1])  # the point itself, as a number


@pytest.mark.parametrize("x", ["201px", "abc", " 201", "1e2", "", True])
def test_a_string_that_is_no_plain_number_is_refused_unsent(rig: Rig, x: Any) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    for route in sorted(ROUTES):
        path, body = ROUTES[route](x, "400")
        message = refused_unsent(rig, f"/session/{session.session_id}{path}", body)
        assert "must be a number" in message, message
    assert not _opened(session)


def test_the_simulator_reads_any_string_as_doublevalue_does(rig: Rig) -> None:
    """Straight to the simulator, as to WDA: "201px" is 201, "abc" 0 (a tap at the screen's
    left edge); a list has no doubleValue: WDA's exception handler answers 500 `unknown
    error` ("-[__NSSingleObjectArrayI doubleValue]: unrecognized selector")."""
    session = wda.Client(rig.sim.url).session(SETTINGS)
    x, y = _row(session)
    for sent, answered, opens in ((["1"], 500, False), ("abc", 200, False),
                                  (f"{x}px", 200, True)):
        status, _, reply = request(rig.sim.url, "POST", f"/session/{session.session_id}/wda/tap",
                                   json.dumps({"x": sent, "y": str(y)}).encode())
        assert status == answered, (sent, reply)
        assert _opened(session) == opens, sent  # the row starts right of x = 0


def test_an_offset_from_an_element_spelled_in_strings_too(rig: Rig) -> None:
    """`/wda/element/:id/tap` reads x and y (from the element's corner) as `/wda/tap` does."""
    logged = []
    for offset in (("20", "10"), (20, 10)):
        session = wda.Client(rig.bridge.url).session(SETTINGS)
        row = session(name=ROW).get(timeout=5).id
        path = f"/session/{session.session_id}/wda/element/{row}/tap"
        assert post(rig, path, {"x": offset[0], "y": offset[1]}) == (200, "")
        assert _opened(session)
        last = actions(rig.events())[-1]
        assert last.target is not None and last.target.name == ROW, last
        logged.append({k: v for k, v in last.params.items() if k != "element"})
    assert logged[0] == logged[1], logged
