"""Notes' Recently Deleted as iOS has it: a deleted note waits there, and a swipe left on its row
offers Delete, which removes it for good."""

from __future__ import annotations

import wda

from phoneshell.sim import SimServer

NOTES = "com.apple.mobilenotes"


def _rows(session: wda.Session) -> list[str]:
    return [e.label for e in session(className="Cell").find_elements()]


def test_a_deleted_note_waits_in_recently_deleted_until_deleted_there(sim: SimServer) -> None:
    session = wda.Client(sim.url).session(NOTES)
    first = session(className="Cell").get(timeout=5)
    title = first.label
    x, y = first.bounds.center
    session.swipe(x + 150, y, x - 150, y, 0.2)
    session(label="Delete", className="Button").get(timeout=5).click()
    assert title not in _rows(session)
    session(label="Folders", className="Button").click()
    session(className="Cell", label="Recently Deleted, 1").get(timeout=5).click()
    assert _rows(session) == [title]
    row = session(className="Cell", label=title).get(timeout=5)
    x, y = row.bounds.center
    session.swipe(x + 150, y, x - 150, y, 0.2)
    session(label="Delete", className="Button").get(timeout=5).click()
    assert title not in _rows(session)  # gone for good ("No Notes" shows)


def test_a_rows_text_running_past_its_cell_takes_no_touch_there(sim: SimServer) -> None:
    """UIKit hands a cell only the touches inside its frame: a Notes row's preview that runs
    past the row opened the note from the gap below it (a red team's)."""
    session = wda.Client(sim.url).session(NOTES)
    row = session(className="Cell", labelContains="Meeting notes").get(timeout=5).bounds
    session.tap(100, row.y + row.height + 2)  # below the row, on its preview's last line
    assert sim.state()["foreground"] == NOTES
    assert session(className="Cell", labelContains="Meeting notes").exists  # still the list
