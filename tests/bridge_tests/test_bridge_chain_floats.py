"""A touch chain's point is read as WDA reads it, a 32-bit float (`x.floatValue`), by the bridge
and the simulator alike (red team 139, RT139-5): a point a millionth above a row's edge is the
edge itself to a phone, so it is logged as the row below, and the simulator opens that row; a
refused control reached that way is refused. Other routes read points as doubles (doubleValue),
so there the millionth still counts."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import wda
from bridge_rig import TOUCH, Rig, post, refused_unsent, request

from phoneshell.audit import actions
from phoneshell.chain_points import chain_coordinate
from phoneshell.xcui import SETTINGS

MILLIONTH = 1e-6


def _w3c(x: float, y: float) -> dict[str, Any]:
    return {"actions": [{"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": [
        {"type": "pointerMove", "duration": 0, "x": x, "y": y}, {"type": "pointerDown"},
        {"type": "pause", "duration": 80}, {"type": "pointerUp"}]}]}


def _legacy(x: float, y: float) -> dict[str, Any]:
    return {"actions": [{"action": "tap", "options": {"x": x, "y": y}}]}


def _frame(session: wda.Client, label: str) -> tuple[float, float, float, float]:
    rect = session(className="Cell", label=label).get(timeout=5).bounds
    return rect.x, rect.y, rect.width, rect.height


def _edge(session: wda.Client, above: str, below: str) -> tuple[float, float]:
    """The edge between two rows that touch: x mid-row, and y where the lower row starts (a
    millionth above it is the upper row to a double, the edge itself to a 32-bit float)."""
    x, top, width, height = _frame(session, above)
    edge = top + height
    assert _frame(session, below)[1] == edge, "the rows do not touch"
    assert chain_coordinate(edge - MILLIONTH) == edge
    return x + width / 2, edge


def _general(url: str) -> wda.Client:
    session = wda.Client(url).session(SETTINGS)
    session(name="com.apple.settings.general").get(timeout=5).tap()
    session(className="NavigationBar", name="General").get(timeout=5)
    return session


def _on(session: wda.Client, page: str) -> bool:
    """Whether the page in front is `page` (its navigation bar's name)."""
    return bool(session(className="NavigationBar", name=page).exists)


def _short_of(distance: float) -> float:
    """A number a double puts just short of `distance` and a 32-bit float right on it."""
    _, exponent = math.frexp(distance)
    return distance - 2.0 ** (exponent - 26)  # a quarter of a float32's step below it


def _placed(origin: str, session: wda.Client, x: float, edge: float) -> dict[str, Any]:
    """A W3C tap placed from `origin` that a double puts just above the row edge at y=`edge`
    and a 32-bit float on it: the offset sent is what WDA rounds (from the viewport, or from
    the centre of the row above). (A move from the pointer's last point is a move while down
    in a tap, which a tap never makes: a finger may not move while up but right before its
    press.)"""
    move: dict[str, Any] = {"type": "pointerMove", "duration": 0, "x": x,
                            "y": edge - MILLIONTH}
    if origin == "element":
        row = session(className="Cell", label="About").get(timeout=5)
        _, top, _, height = _frame(session, "About")
        move.update(x=0, y=_short_of(edge - (top + height / 2)),
                    origin={"element-6066-11e4-a52e-4f735466cecf": row.id})
    assert chain_coordinate(move["y"]) != move["y"]  # WDA's float rounds it up to the edge
    return {"actions": [{"type": "pointer", "id": "f1", "parameters": TOUCH, "actions": [
        move, {"type": "pointerDown"}, {"type": "pause", "duration": 80},
        {"type": "pointerUp"}]}]}


@pytest.mark.parametrize("origin", ["viewport", "element"])
def test_a_w3c_tap_a_millionth_above_an_edge_opens_and_is_logged_as_the_row_below(
        rig: Rig, origin: str) -> None:
    # the simulator alone, as a phone: the row below the edge opens
    bare = _general(rig.sim.url)
    x, edge = _edge(bare, "About", "Software Update")
    status, _, reply = request(rig.sim.url, "POST", f"/session/{bare.session_id}/actions",
                               json.dumps(_placed(origin, bare, x, edge)).encode())
    assert status == 200, reply
    assert _on(bare, "Software Update")
    # through the bridge: logged as the row the phone touches, at the point it touches
    session = _general(rig.bridge.url)
    body = _placed(origin, session, x, edge)
    assert post(rig, f"/session/{session.session_id}/actions", body) == (200, "")
    assert _on(session, "Software Update")
    last = actions(rig.events())[-1]
    assert last.target is not None and last.target.label == "Software Update", last
    assert last.params.get("y") == edge, last.params  # where it landed


def test_a_refused_row_a_millionth_below_an_allowed_one_is_refused(rig: Rig) -> None:
    session = _general(rig.sim.url)  # set up on the phone itself, then act through the bridge
    for _ in range(4):
        if session(className="Cell", label="Shut Down").exists:
            break
        session.swipe(200, 700, 200, 200, 0.3)
    x, edge = _edge(session, "Transfer or Reset iPhone", "Shut Down")
    y = edge - MILLIONTH
    for path, body in (("/actions", _w3c(x, y)), ("/wda/touch/perform", _legacy(x, y))):
        message = refused_unsent(rig, f"/session/{session.session_id}{path}", body)
        assert "Shut Down" in message, message
        assert _on(session, "General")


def test_a_route_read_with_doublevalue_still_counts_the_millionth(rig: Rig) -> None:
    # /wda/tap reads x and y with doubleValue: a millionth above the edge is the row above
    session = _general(rig.bridge.url)
    x, edge = _edge(session, "About", "Software Update")
    body = {"x": x, "y": edge - MILLIONTH}
    assert post(rig, f"/session/{session.session_id}/wda/tap", body) == (200, "")
    assert _on(session, "About")
    last = actions(rig.events())[-1]
    assert last.target is not None and last.target.label == "About", last


def test_a_chain_coordinate_past_a_float32_is_refused(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    message = refused_unsent(rig, f"/session/{session.session_id}/actions", _w3c(200, 1e39))
    assert "32-bit float" in message, message
