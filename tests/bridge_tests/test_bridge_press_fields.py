"""Each touch route's press is read from the one field WDA reads as it (`holds.PRESS_FIELDS`),
by the bridge's log and the simulator's play alike (red team 94, RT94-3): `pressDuration` on
`pressAndDragWithVelocity` (element and point forms), `duration` on `dragfromtoforduration`,
`duration` on touchAndHold, none on a tap or a double tap. The bridge read `duration` first on
both drag routes, so `{pressDuration: 1.0, duration: 0}` from Weather's icon opened its context
menu on the phone (and chose "Share App" where the finger lifted) while the log said a slide
held for no time; and a `dragfromtoforduration` given only `pressDuration`, a quick drag on a
phone, was logged and played as a held slide. A held one from the icon is now refused (red
team 96: the item chosen may be Remove App), so the phone's play is checked without the bridge.
Raw HTTP through a bridge on loopback in front of
the simulator, the home screen's icons found with facebook-wda."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import wda
from bridge_rig import Rig, post, request

from phoneshell.audit import actions
from phoneshell.holds import MENU_SLIDE, held_slide
from phoneshell.records import AuditEvent

Body = dict[str, object]
Route = Callable[[wda.Session], tuple[str, Body]]
"""The route (after the session) and the body's ends for a drag from Weather's icon."""

MENU_WORDS = ("Remove App", "Edit Home Screen", "Share App", "dismiss popup")
"""What shows once an icon's context menu opened, or an item of it was chosen where the finger
lifted (Edit Home Screen: the icons' Remove App; Share App: the share sheet's popup)."""


def _icon(session: wda.Session, label: str) -> wda.Element:
    return session(label=label, className="Icon").get(timeout=5)


def _points(route: str) -> Route:
    """A drag by screen points from Weather's icon, 60 pt down, on `route`."""
    def make(session: wda.Session) -> tuple[str, Body]:
        x, y = _icon(session, "Weather").bounds.center
        return f"/wda/{route}", {"fromX": x, "fromY": y, "toX": x + 3, "toY": y + 60,
                                 "velocity": 600, "holdDuration": 0}
    return make


def _to_books(session: wda.Session) -> tuple[str, Body]:
    """`pressAndDragWithVelocity` from Weather's icon onto Books' (WDA reads no points)."""
    weather, books = _icon(session, "Weather"), _icon(session, "Books")
    return (f"/wda/element/{weather.id}/pressAndDragWithVelocity",
            {"toElement": books.id, "velocity": 600, "holdDuration": 0})


ROUTES = {"press and drag": _points("pressAndDragWithVelocity"),
          "press and drag to an element": _to_books,
          "drag": _points("dragfromtoforduration")}


def _slide(rig: Rig, how: str, press: Body) -> tuple[AuditEvent, bool]:
    """Send the drag `how` with the press fields `press` through the bridge: the line logged
    (its intent, or its refusal), and whether it was refused as a held slide from what opens a
    menu (`holds.held_slide_away`, `holds.opens_menu`: Weather's icon, red team 96)."""
    session = wda.Client(rig.bridge.url).session()
    route, body = ROUTES[how](session)
    status, message = post(rig, f"/session/{session.session_id}{route}", {**body, **press})
    line = [e for e in rig.events() if e.stage in ("intent", "refused")][-1]
    assert (status == 403) is (MENU_SLIDE in message) and status in (200, 403), message
    return line, status == 403


def _held_on_the_phone(rig: Rig, how: str, press: Body) -> bool:
    """Send the same drag to the simulator with no bridge: whether it held Weather's icon (its
    menu opened, or an item of it was chosen)."""
    client = wda.Client(rig.sim.url)
    client.home()  # what the bridge let through left its own screen (a quick drag: Spotlight)
    session = client.session()
    route, body = ROUTES[how](session)
    status, _, _ = request(rig.sim.url, "POST", f"/session/{session.session_id}{route}",
                           json.dumps({**body, **press}).encode())
    assert status == 200
    return any(word in client.source() for word in MENU_WORDS)


@pytest.mark.parametrize(("how", "press", "held"), [
    # WDA reads pressDuration here; a duration beside it is read by nothing
    ("press and drag", {"pressDuration": 1.0, "duration": 0}, True),
    ("press and drag to an element", {"pressDuration": 1.0, "duration": 0}, True),
    ("press and drag", {"duration": 1.0}, False),
    ("press and drag to an element", {"duration": 1.0}, False),
    # and duration on dragfromtoforduration, never pressDuration
    ("drag", {"pressDuration": 1.0}, False),
    ("drag", {"duration": 1.0, "pressDuration": 0}, True),
])
def test_a_drag_is_held_by_the_field_wda_reads_in_the_log_and_on_the_phone(
        rig: Rig, how: str, press: Body, held: bool) -> None:
    line, refused = _slide(rig, how, press)
    assert refused is held  # held on an icon and slid: its menu's item may be chosen
    assert held_slide(line.kind, line.params, "") is held, line.params
    assert line.params.get("duration") == (1.0 if held else None)
    assert _held_on_the_phone(rig, how, press) is held


@pytest.mark.parametrize(("route", "logged"), [
    ("tap", None), ("doubleTap", None), ("touchAndHold", 0.2)])
def test_a_tap_logs_only_the_press_wda_reads(rig: Rig, route: str, logged: float | None) -> None:
    """A tap or a double tap reads no `duration` (handleTap, handleDoubleTap: x and y only), so
    one sent with a long `duration` is logged as the quick tap WDA makes, not as a hold a
    reader would take for a long press (a Control Center toggle's expand, a text selection)."""
    session = wda.Client(rig.bridge.url).session()
    x, y = _icon(session, "Books").bounds.center
    status, _ = post(rig, f"/session/{session.session_id}/wda/{route}",
                     {"x": x, "y": y, "duration": 0.2 if logged else 1.0})
    assert status == 200
    tap = [a for a in actions(rig.events()) if a.kind == "tap"][-1]
    assert tap.params.get("duration") == logged
