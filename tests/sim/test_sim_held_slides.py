"""A touch held still until a context menu opens, then slid onto one of its items and lifted
there, chooses it, as on iOS (red team 83: the simulator played every moved touch as a drag, so
Recently Deleted's Recover by one press, hold, slide and release could not be reproduced). Held
as long by a W3C touch chain (a pause, then the move) or by `dragfromtoforduration`'s press;
a quick slide is a drag, a held slide that lifts off the menu leaves it open, and one on what
takes no hold is a drag. facebook-wda against the simulator, no bridge."""

from __future__ import annotations

import pytest
import wda
from bridge_tests.bridge_rig import bin_first_note, touch

from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_data import read

NOTES = "com.apple.mobilenotes"
RECOVER = (185, 322)
"""Where the held row's menu shows Recover (the menu's first item, 60, 300, 250 x 44)."""


def _titles(sim: SimServer, folder: str) -> list[str]:
    with sim.lock:
        return [n.title for n in read(sim.phone.store(NOTES), folder)]


def _touch(session: wda.Session, start: tuple[float, float], hold_ms: float,
           end: tuple[float, float]) -> None:
    """One W3C touch: down at `start`, still for `hold_ms`, a 300 ms move to `end`, up."""
    finger = touch(*start, hold_ms=300, to=end, still_ms=hold_ms)
    session.http.post(f"/session/{session.session_id}/actions", {"actions": [finger]})


@pytest.mark.parametrize("how", ["w3c", "drag"])
def test_held_then_slid_onto_recover_recovers(sim: SimServer, how: str) -> None:
    session = wda.Client(sim.url).session(NOTES)
    title, row = bin_first_note(session)
    if how == "w3c":
        _touch(session, row, 900, RECOVER)
    else:  # XCTest's pressForDuration:thenDragToCoordinate: holds for `duration` first
        session.swipe(*row, *RECOVER, 0.9)
    assert title in _titles(sim, "notes") and _titles(sim, "deleted") == []


def test_a_quick_slide_is_a_drag(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    title, row = bin_first_note(session)
    _touch(session, row, 100, RECOVER)
    assert _titles(sim, "deleted") == [title]
    assert not session(label="Recover", className="Button").exists


def test_a_held_slide_lifted_off_the_menu_leaves_it_open(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    title, row = bin_first_note(session)
    _touch(session, row, 900, (row[0], row[1] + 300))
    assert _titles(sim, "deleted") == [title]
    assert session(label="Recover", className="Button").get(timeout=5).visible


def test_a_held_slide_on_what_takes_no_hold_is_a_drag(sim: SimServer) -> None:
    """Notes' own rows open no menu here: held and slid left, a row shows its Delete, as a
    quick swipe does."""
    session = wda.Client(sim.url).session(NOTES)
    x, y = session(className="Cell").get(timeout=5).bounds.center
    _touch(session, (x + 150, y), 900, (x - 150, y))
    assert session(label="Delete", className="Button").get(timeout=5).visible


@pytest.mark.parametrize(("press", "menu"), [(0.9, True), (0.0, False)])
def test_an_element_press_and_drag_holds_its_press_first(sim: SimServer, press: float,
                                                         menu: bool) -> None:
    """`pressAndDragWithVelocity` from an element presses for `pressDuration` before it drags
    (red team 89: the simulator dragged at once), so a held one opens the row's menu."""
    session = wda.Client(sim.url).session(NOTES)
    title, _ = bin_first_note(session)
    row = session(className="Cell", label=title).get(timeout=5)
    back = session(label="Folders", className="Button").get(timeout=5)
    route = f"/session/{session.session_id}/wda/element/{row.id}/pressAndDragWithVelocity"
    session.http.post(route, {"pressDuration": press, "holdDuration": 0.1, "velocity": 400,
                              "toElement": back.id})
    assert session(label="Recover", className="Button").exists is menu
    assert _titles(sim, "deleted") == [title]
