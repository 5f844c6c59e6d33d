"""A press-and-drag by id starts where the phone's finger goes down: the element's hit point, by
the one rule the simulated iPhone touches by (`phoneshell.hit_point`: the middle of what shows of
it, cut to the screen and to every list around it), never by the bridge's own geometry (red
team 68: a Recently Deleted row its list cut at the top, dragged to a title below-left, was
logged from the middle of its part on the SCREEN, a scroll down, while the phone's finger went
down in its part inside the LIST, a swipe left: the row swung open, Delete showing). A drag
that goes within a few degrees of a diagonal is refused: its way turns on a fraction of a
point.

Notes' list now spans its screen under its bars, as every navigation list does (`lists.under_
bars`): a bar covers its top row, the list does not cut it. A list framed by its own part of the
screen still cuts its rows: the App Library's search list, which starts 10 pt above its first
row, below the search field, while a row it cuts still shows on the screen above it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from app_library import SPRINGBOARD, library_search, screen_middle, scrolled_to
from bridge_rig import Rig, post, refused_unsent, runner_bridge

from phoneshell.presses import heading, logged_heading
from phoneshell.sim import SimServer, in_view
from phoneshell.sim.apps.notes_data import delete, read, save
from phoneshell.sim.ui import Node

NOTES = "com.apple.mobilenotes"
CELL, TEXT = "XCUIElementTypeCell", "XCUIElementTypeStaticText"


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """The simulator behind a bridge as a run starts it, with 18 notes in Recently Deleted and
    the agent's session on that list (reached by taps through the bridge)."""
    with runner_bridge(sim, tmp_path) as found:
        with sim.lock:
            store = sim.phone.store(NOTES)
            for i in range(14):
                save(store, None, f"Owner note {i}\nkept for recovery")
            for note in read(store):
                delete(store, note.id)
        yield found


@pytest.fixture
def library(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """The simulator behind a bridge as a run starts it, showing the App Library's search with
    every app listed (`app_library.library_search`)."""
    with runner_bridge(sim, tmp_path) as found:
        library_search(sim)
        yield found


def _on_deleted_list(rig: Rig) -> wda.Session:
    s = wda.Client(rig.bridge.grant_agent()).session(NOTES)
    s(name="BackButton").click()
    s(name="Recently Deleted").click()
    return s


def _scrolled(rig: Rig, s: wda.Session, offset: int) -> list[Node]:
    """Recently Deleted scrolled `offset` points (`app_library.scrolled_to`)."""
    with rig.sim.lock:
        scroll = rig.sim.phone.running_state(NOTES).scroll
    return scrolled_to(rig, s, scroll, offset)


def _drag_path(s: wda.Session, row: str, to: str,
               to_type: str = TEXT) -> tuple[str, dict[str, object]]:
    e_from = s(className=CELL, label=row).get(timeout=5)
    e_to = s(className=to_type, label=to).get(timeout=5)
    # pressed less than a long press: held 0.5 s, the row's context menu would open instead
    # (76f7151), and these tests are about where the drag starts
    return (f"/session/{s.session_id}/wda/element/{e_from.id}/pressAndDragWithVelocity",
            {"toElement": e_to.id, "pressDuration": 0.2, "velocity": 400, "holdDuration": 0.1})


def _deleted(rig: Rig) -> list[str]:
    with rig.sim.lock:
        return [n.title for n in read(rig.sim.phone.store(NOTES), "deleted")]


def test_the_red_teams_drag_from_a_row_under_the_bar_is_refused(rig: Rig) -> None:
    """Scrolled 212 pt, "Owner note 11" is partly under the navigation bar, its large title
    collapsed to the standard bar (the list spans the screen under its bars, as a phone's does:
    the bar, not the list, hides its top); dragged
    to the title "Owner note 9" it goes from its hit point (201, 135), the middle of its frame
    (a bar drawn over the list does not cut it), to (88.5, 295): 1.85 degrees off the diagonal.
    Refused, unsent: the row stays shut and the note stays."""
    s = _on_deleted_list(rig)
    top = next(n for n in _scrolled(rig, s, 212) if n.label == "Owner note 11")
    with rig.sim.lock:
        bar = next(n for n in rig.sim.phone.screen().nodes if n.type == "NavigationBar")
    assert top.visible and top.frame.y < bar.frame.bottom < top.frame.bottom  # it cuts it
    assert in_view.hit_point(rig.sim.phone, top) == (201, 135)
    before = _deleted(rig)
    path, body = _drag_path(s, "Owner note 11", "Owner note 9")
    message = refused_unsent(rig, path, body, "R")
    assert "within 3 degrees of a diagonal" in message and "(201, 135)" in message
    with rig.sim.lock:
        assert rig.sim.phone.running_state(NOTES).swiped is None
        assert not [n for n in rig.sim.phone.screen().nodes if n.label == "Delete"]
    assert _deleted(rig) == before


@pytest.mark.parametrize("offset", [232, 238, 244])
def test_a_drag_from_a_clipped_row_is_logged_from_the_phones_hit_point(library: Rig,
                                                                         offset: int) -> None:
    """The App Library's search list scrolled so that its top row is cut by the list (14, 20
    and 26 pt of it above the list's top edge, on the screen behind the search field), dragged
    down to the row four below: the log's start is the phone's hit point, the middle of the
    row's part inside the list, 7, 10 and 13 pt below the middle of its part on the screen;
    and its way is the one the phone took: the list scrolled down by the drag from that very
    point, no app opened."""
    rig = library
    s = wda.Client(rig.bridge.grant_agent()).session()
    with rig.sim.lock:
        listed = rig.sim.phone.running_state(SPRINGBOARD).library.listed
    rows = scrolled_to(rig, s, listed, offset)
    top, below = rows[0], rows[4]
    point = in_view.hit_point(rig.sim.phone, top)
    on_screen = screen_middle(rig, top)
    assert point is not None and on_screen is not None and top.visible
    assert point[1] - on_screen[1] >= 7  # the list, not the screen, cuts it: points apart
    path, body = _drag_path(s, str(top.label), str(below.label), CELL)
    status = rig.sim.ledger()[0]
    answered, message = post(rig, path, body)
    assert answered == 200, message
    assert rig.sim.ledger()[0] != status
    logged = [e.params for e in rig.events("R") if e.kind == "swipe" and e.stage == "intent"][-1]
    assert (logged["from_x"], logged["from_y"]) == point, json.dumps(dict(logged))
    lift = (float(str(logged["to_x"])), float(str(logged["to_y"])))
    assert lift == (below.frame.x + below.frame.width / 2, below.frame.y + below.frame.height / 2)
    assert logged_heading(logged) == heading(point, lift) == "down"
    with rig.sim.lock:
        # the list follows the finger from where it went down: the phone's start, by its scroll
        assert listed.offset == offset - (lift[1] - point[1])
        assert rig.sim.phone.foreground == SPRINGBOARD


def test_a_drag_from_a_row_its_list_reports_hidden_is_refused(rig: Rig) -> None:
    """Scrolled 110 pt, the top row's middle is under the navigation bar (its large title
    collapsed to the standard bar), above the part of the
    list its bars leave, and the source marks it not visible: XCTest scrolls such an element
    into view before its finger goes down, so where it goes down only the phone could tell.
    Refused, unsent; the list stays where it was."""
    s = _on_deleted_list(rig)
    top = _scrolled(rig, s, 110)[0]
    assert not top.visible
    path, body = _drag_path(s, str(top.label), "Owner note 9")
    assert "shown in no part of the screen read" in refused_unsent(rig, path, body, "R")
    with rig.sim.lock:
        assert rig.sim.phone.running_state(NOTES).scroll.offset == 110
