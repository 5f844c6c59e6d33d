"""The page a tap happened on, under a modal: a menu, an action sheet or an alert with no
navigation bar of its own acts on the page it was presented over, which a phone reports not
visible beneath it (red team 44: under a context menu the page title was "", and a held row's
Delete in Notes' Recently Deleted went through). The rules tied to a page (Recently Deleted's
refusals, `tapped` with `page:`, Display Zoom's restart) read it there. Driven by the
unmodified facebook-wda client through the bridge to the simulated iPhone.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

from bridge.targets import page_title
from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_data import read

NOTES = "com.apple.mobilenotes"


def _to_recently_deleted(session: wda.Session) -> str:
    """Delete the first note (to Recently Deleted), open that folder; the note's title."""
    first = session(className="Cell").get(timeout=5)
    title, (x, y) = str(first.label), first.bounds.center
    session.swipe(x + 150, y, x - 150, y, 0.2)
    session(label="Delete", className="Button").get(timeout=5).click()
    session(label="Folders", className="Button").click()
    session(className="Cell", label="Recently Deleted, 1").get(timeout=5).click()
    return title


def _titles(sim: SimServer, folder: str) -> list[str]:
    """The titles of a Notes folder ("notes", "deleted"), read from the phone's store."""
    with sim.lock:
        return [n.title for n in read(sim.phone.store(NOTES), folder)]


def _refused(rig: Rig) -> set[tuple[str, str, str]]:
    """(label, page, reason) of the refused lines (facebook-wda may send a refused tap twice)."""
    return {(e.target.label if e.target else "", e.target.page if e.target else "", e.error)
            for e in rig.events() if e.stage == "refused"}


def test_a_held_rows_delete_in_recently_deleted_is_refused(rig: Rig, sim: SimServer) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    title = _to_recently_deleted(session)
    session(className="Cell", label=title).get(timeout=5).tap_hold(1.0)  # its context menu
    delete = session(label="Delete", className="Button").get(timeout=5)
    with pytest.raises(wda.WDARequestError, match="delete a note for good"):
        delete.click()
    (label, page, why), = _refused(rig)
    assert (label, page) == ("Delete", "Recently Deleted") and "for good" in why
    session(label="Recover", className="Button").get(timeout=5).click()  # not refused
    assert title in _titles(sim, "notes") and not _titles(sim, "deleted")  # the owner's, back


def test_a_tap_on_the_menus_delete_by_its_place_is_refused_too(rig: Rig, sim: SimServer) -> None:
    """A tap at a point is aimed at what the bridge finds there, on the page under the menu."""
    session = wda.Client(rig.bridge.url).session(NOTES)
    title = _to_recently_deleted(session)
    session(className="Cell", label=title).get(timeout=5).tap_hold(1.0)
    x, y = session(label="Delete", className="Button").get(timeout=5).bounds.center
    with pytest.raises(wda.WDARequestError, match="delete a note for good"):
        session.tap(x, y)
    assert {(label, page) for label, page, _ in _refused(rig)} == {
        ("Delete", "Recently Deleted")}
    session(label="Recover", className="Button").get(timeout=5)  # the menu still shows
    assert _titles(sim, "deleted") == [title]


def test_delete_all_is_refused_in_recently_deleted(rig: Rig, sim: SimServer) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    title = _to_recently_deleted(session)
    session(label="Edit", className="Button").get(timeout=5).click()
    with pytest.raises(wda.WDARequestError, match="delete a note for good"):
        session(label="Delete All", className="Button").get(timeout=5).click()
    assert _titles(sim, "deleted") == [title]


def _bar(name: str, visible: bool) -> dict[str, object]:
    return {"type": "NavigationBar", "name": name, "isVisible": "1" if visible else "0"}


@pytest.mark.parametrize(("bars", "title"), [
    ([_bar("Recently Deleted", True)], "Recently Deleted"),
    ([_bar("Recently Deleted", False)], "Recently Deleted"),  # a menu over it: covered
    ([_bar("World Clock", False), _bar("Add Alarm", True)], "Add Alarm"),  # a page sheet
    ([_bar("Reminders", False), _bar("New Reminder", False)], "New Reminder"),  # a sheet on it
    ([_bar("Notes", False), _bar("", True)], ""),  # a sheet's untitled bar is its own page
    ([], ""),
])
def test_the_page_title_is_the_last_bar_shown_else_the_last_covered(
        bars: list[dict[str, object]], title: str) -> None:
    tree = {"type": "Application", "isVisible": "1", "children": [
        {"type": "Window", "isVisible": "1", "children": bars}]}
    assert page_title(tree) == title
