"""Notes' Recently Deleted as iOS has it beyond a row's swipe: a held row's context menu
(Recover, Delete) and Edit's Delete All, which asks in an action sheet first; both modal, over
a page the phone then reports not visible (driven through facebook-wda, no bridge: these are
what the bridge refuses)."""

from __future__ import annotations

import wda

from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_data import read

NOTES = "com.apple.mobilenotes"


def _titles(sim: SimServer, folder: str) -> list[str]:
    with sim.lock:
        return [n.title for n in read(sim.phone.store(NOTES), folder)]


def _delete_two(session: wda.Session) -> list[str]:
    """Delete the first two notes (to Recently Deleted) and open that folder."""
    titles = []
    for _ in range(2):
        first = session(className="Cell").get(timeout=5)
        titles.append(first.label)
        x, y = first.bounds.center
        session.swipe(x + 150, y, x - 150, y, 0.2)
        session(label="Delete", className="Button").get(timeout=5).click()
    session(label="Folders", className="Button").click()
    session(className="Cell", label="Recently Deleted, 2").get(timeout=5).click()
    return titles


def test_a_held_row_offers_recover_and_delete(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    kept, gone = _delete_two(session)
    session(className="Cell", label=kept).get(timeout=5).tap_hold(1.0)
    assert not session(label="Edit", className="Button").get(timeout=5).visible  # covered
    session(label="Recover", className="Button").get(timeout=5).click()
    assert kept in _titles(sim, "notes") and _titles(sim, "deleted") == [gone]
    session(className="Cell", label=gone).get(timeout=5).tap_hold(1.0)
    session(label="Delete", className="Button").get(timeout=5).click()
    assert _titles(sim, "deleted") == [] and gone not in _titles(sim, "notes")


def test_delete_all_asks_first_then_empties_the_folder(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    _delete_two(session)
    session(label="Edit", className="Button").get(timeout=5).click()
    session(label="Delete All", className="Button").get(timeout=5).click()
    session(label="Cancel", className="Button").get(timeout=5).click()  # keeps them
    assert len(_titles(sim, "deleted")) == 2
    session(label="Delete All", className="Button").get(timeout=5).click()
    session(label="Delete Notes", className="Button").get(timeout=5).click()
    assert _titles(sim, "deleted") == []
    assert session(label="Edit", className="Button").get(timeout=5).visible  # editing ends
